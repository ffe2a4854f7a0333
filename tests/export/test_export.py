"""The export of a session whose server is hostile: the HTML parsed by a real parser (and the
Markdown rendered by a real CommonMark renderer with raw HTML allowed, then parsed the same way)
holds no script, no event attribute, no URL leaving the page, every hostile string only as text,
and nothing of a secret typed into a secret-looking field."""

from __future__ import annotations

from markdown_it import MarkdownIt

from mcp_tui.export import (
    MASK,
    SharedCall,
    SharedExchange,
    SharedLine,
    SharedMessage,
    SharedSession,
    masked,
    to_html,
    to_markdown,
)
from mcp_tui.export.markdown import fenced
from mcp_tui.untrusted import one_line, visible
from tests.export.inert_html import inspect

HOSTILE = [
    "[bold red]markup[/bold red]",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "[click me](javascript:alert(3))",
    '<a href="https://evil.example/x" onclick="go()">link</a>',
    "\x1b]52;c;aGVsbG8=\x07 \x1b[2J",
    "\u202eevil\u202c and \u200bzero width",
    "```` four ticks ` and one `` two",
    "</pre></li></ol><script>alert(4)</script>",
    "# heading *emph* _u_ ![img](http://evil.example/i.png)",
    "&lt;script&gt; already escaped",
]
SECRET = "s3cret-Tok3n"


def hostile_session() -> SharedSession:
    joined = " | ".join(HOSTILE)
    secrets = {SECRET}
    exchange = SharedExchange(
        kind="form",
        message=joined,
        action="accept",
        schema={
            "type": "object",
            "properties": {h: {"type": "string", "title": h} for h in HOSTILE},
        },
        content=masked({"api_key": SECRET, "note": joined}, secrets),
        masked_fields=("api_key",),
    )
    url = SharedExchange(
        kind="url", message=HOSTILE[1], action="decline", url="javascript:alert(5)"
    )
    call = SharedCall(
        call_id=1,
        heading=f"demo › {HOSTILE[0]}",
        arguments={h: h for h in HOSTILE},
        exchanges=(exchange, url),
        outcome="finished",
        result=masked(f"you typed {SECRET}; {joined}", secrets),
        seconds=0.5,
    )
    message = SharedMessage(
        "10:00:00.000",
        HOSTILE[2],
        "out",
        f"elicitation/create result {HOSTILE[3]}",
        masked(
            {"result": {"action": "accept", "content": {"api_key": SECRET, "x": HOSTILE}}}, secrets
        ),
    )
    return SharedSession(
        title=f"session {HOSTILE[1]}",
        exported_at="2026-11-27 10:00:00 UTC",
        servers=(HOSTILE[4],),
        transcript=tuple(
            SharedLine("call" if i % 2 else "<b>x</b>", h) for i, h in enumerate(HOSTILE)
        ),
        calls=(call,),
        traffic=(message,),
        secrets_masked=1,
    )


def test_the_html_is_inert_and_holds_every_hostile_string_as_text() -> None:
    page = to_html(hostile_session())
    seen = inspect(page)
    assert seen.problems == []
    assert "script" not in seen.tags and "a" in seen.tags  # only our own "#section" links
    text = "".join(seen.text)
    for hostile in HOSTILE:
        assert visible(hostile, limit=None) in text, hostile
    assert "\x1b" not in page and "\u202e" not in page and "\u200b" not in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert SECRET not in page and MASK in page


def test_the_markdown_rendered_by_commonmark_with_raw_html_is_inert() -> None:
    document = to_markdown(hostile_session())
    assert SECRET not in document and MASK in document
    assert "\x1b" not in document and "\u202e" not in document
    rendered = MarkdownIt("commonmark", {"html": True}).render(document)
    seen = inspect(rendered)
    assert seen.problems == []
    # Only what the writer itself makes: no emphasis, link, image or heading of a server's.
    assert set(seen.tags) <= {"h1", "h2", "h3", "p", "pre", "code", "strong"}, set(seen.tags)
    assert seen.tags.count("h1") == 1
    text = "".join(seen.text)
    for hostile in HOSTILE:
        shown = visible(hostile, limit=None)
        assert shown in text or one_line(hostile, limit=None) in text, hostile


def test_a_fence_is_longer_than_any_run_of_backticks_inside() -> None:
    body = "a ```` b\n`````\nc"
    block = fenced(body)
    assert block.startswith("``````text\n") and block.endswith("\n``````")
    rendered = MarkdownIt("commonmark").render(block + "\n\nafter")
    assert "<p>after</p>" in rendered and rendered.count("<pre>") == 1


def test_masking_reaches_keys_nested_values_and_substrings() -> None:
    value = {"a": [f"x{SECRET}y", {SECRET: 1}], "b": 2}
    assert masked(value, {SECRET, ""}) == {"a": [f"x{MASK}y", {MASK: 1}], "b": 2}
