"""Turn calls, outcomes and elicitation results into transcript entries.

Each :class:`Entry` has a bounded ``summary`` (literal ``Content``, shown inline) and the ``full``
plain text (shown, made visible, in the detail view), so a 30 MB tool result never lands in a
widget but is still reachable. Every server string goes through :mod:`mcp_tui.ui.literal`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from msgspec import Struct
from textual.content import Content

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.era import outcome_hint
from mcp_tui.session.events import (
    CallOutcome,
    ContentItem,
    ElicitationCompleted,
    ElicitationRefused,
    Notice,
    ResourceUpdated,
    ServerInfo,
    ServerStateChanged,
)
from mcp_tui.session.sampling import SamplingOutcome
from mcp_tui.session.server_exit import stderr_summary
from mcp_tui.session.structured import result_view
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.shown_names import server_claim, shown_name
from mcp_tui.ui.url_waits import FINISHED, UrlWait

#: Inline bounds for one block of server text in the transcript; the rest is in the detail view.
INLINE_CHARS = 1500
INLINE_LINES = 20

#: JSON-RPC code of ``URLElicitationRequiredError`` (2025-11-25).
URL_ELICITATION_REQUIRED = -32042
INVALID_32042 = (
    "The server says a web page must be opened before this can run (-32042), but the error "
    "lists no valid URL request, so there is nothing to open or retry. This is a server bug."
)


class Block(Struct, frozen=True):
    """One run of an entry's summary: mcp-tui's own words, or (``server``) a block the server
    wrote, which the transcript shows in the server's region (``widgets/text/server_text``)."""

    content: Content
    server: bool = False


class Entry(Struct, frozen=True):
    """One transcript entry. ``full`` is raw (untrusted) text: display it only made visible.

    ``summary`` is the whole inline text; ``blocks`` the same text in runs, when some of it is
    the server's (empty: all of it is mcp-tui's).
    """

    kind: str  # call | result | error | elicitation | refused | notice | state | prompt | resource
    summary: Content
    full: str
    title: str = ""
    blocks: tuple[Block, ...] = ()
    #: Entries with the same non-empty key are one entry with a count and the last time (a
    #: resource updated again and again would otherwise push everything else off screen).
    collapse: str = ""


def server_block(content: Content) -> Block:
    """``content`` (literal server text) as a run shown in the server's region."""
    return Block(content, server=True)


def entry_from(kind: str, parts: Sequence[Content | Block], full: str, title: str) -> Entry:
    """An entry from runs of mcp-tui's words (``Content``) and the server's (``Block``)."""
    blocks = tuple(p if isinstance(p, Block) else Block(p) for p in parts)
    summary = Content("\n").join(b.content for b in blocks)
    if not any(b.server for b in blocks):
        blocks = ()
    return Entry(kind, summary, full, title, blocks)


def pretty_json(value: Any) -> str:
    """Pretty JSON for display (never for sending); odd values fall back to ``str``."""
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def clip(text: str, *, chars: int = INLINE_CHARS, lines: int = INLINE_LINES) -> tuple[str, bool]:
    """Cut ``text`` to a few lines and characters for inline display; says whether it cut."""
    cut = False
    if len(text) > chars:
        text, cut = text[:chars], True
    parts = text.split("\n", lines)
    if len(parts) > lines:
        text, cut = "\n".join(parts[:lines]), True
    return text, cut


def block(text: str, *, style: str = "") -> Content:
    """A bounded block of server text, with a hint when more is in the detail view."""
    shown, cut = clip(text)
    content = literal(shown, limit=None, style=style)
    if cut:
        more = len(text) - len(shown)
        content = Content.assemble(
            content,
            (
                f"\n… {more:,} more characters (select this entry, then Enter or i: full text)",
                "dim italic",
            ),
        )
    return content


def human_size(size: int | None) -> str:
    if size is None:
        return "unknown size"
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / (1024 * 1024):.1f} MiB"


def _item_lines(item: ContentItem) -> tuple[Content, str]:
    """One content block as (inline summary, full text)."""
    if item.kind == "text":
        text = item.text or ""
        return block(text), text
    if item.kind in ("image", "audio"):
        label = f"[{item.kind}: {item.mime_type or 'unknown type'}, {human_size(item.size)}]"
        return Content.assemble(literal_line(label, style="italic $accent")), label
    if item.kind == "resource_link":
        name = item.name or item.uri or ""
        full = f"resource link: {name} <{item.uri}>" + (
            f" ({item.mime_type})" if item.mime_type else ""
        )
        return literal_line(full, limit=400, style="$accent"), full
    if item.kind == "resource":
        head = f"resource {item.uri or ''}" + (f" ({item.mime_type})" if item.mime_type else "")
        if item.text is not None:
            return (
                Content.assemble(literal_line(head, style="$accent"), "\n", block(item.text)),
                f"{head}\n{item.text}",
            )
        binary = f"{head} [binary, {human_size(item.size)}]"
        return literal_line(binary, style="$accent"), binary
    unknown = f"[{item.kind} content] " + (item.text or "")
    return block(unknown, style="italic"), unknown


def _join(parts: list[Content]) -> Content:
    return Content("\n").join(parts)


def outcome_entry(
    heading: str, outcome: CallOutcome, *, kind: str = "result", asked: str = ""
) -> Entry:
    """A tool result, prompt or resource read: text, structured JSON, placeholders, errors.

    ``asked`` (``CallHistory.asked``: "asked: confirm → accepted") goes under the heading: the
    requests the server made inside the call. Its field names are a server's: literal, one line.

    What the server wrote (its text, its error message, structured content) is in server runs;
    the heading, the labels and mcp-tui's notes are not.
    """
    parts: list[Content | Block] = []
    full: list[str] = []
    if outcome.cancelled:
        parts.append(
            Content.assemble(
                ("⊘ ", "bold $warning"),
                literal_line(heading, style="bold"),
                ("  cancelled", "bold $warning"),
            )
        )
        parts.append(block(outcome.error or "cancelled", style="dim"))
        full += [f"{heading}  cancelled", outcome.error or ""]
        return entry_from("cancelled", parts, "\n".join(full), heading)
    if outcome.error is not None:
        parts.append(Content.assemble(("✗ ", "bold $error"), literal_line(heading, style="bold")))
        if asked:
            parts.append(literal_line(asked, limit=300, style="dim"))
        parts.append(server_block(block(outcome.error, style="$error")))
        full += [heading, *([asked] if asked else []), outcome.error]
        if outcome.error_code == URL_ELICITATION_REQUIRED and not outcome.url_elicitations:
            parts.append(Content.styled(INVALID_32042, "$warning"))
            full.append(INVALID_32042)
        if outcome.error_data is not None:
            data = pretty_json(outcome.error_data)
            parts.append(Content.styled("error data:", "dim"))
            parts.append(server_block(block(data)))
            full += ["error data:", data]
        kind = "error"
    else:
        if outcome.is_error:
            mark = Content.assemble(
                ("✗ ", "bold $error"),
                literal_line(heading, style="bold"),
                ("  the tool reported an error", "$error"),
            )
            kind = "error"
        else:
            mark = Content.assemble(("◀ ", "bold $success"), literal_line(heading, style="bold"))
        parts.append(mark)
        full.append(heading + ("  (the tool reported an error)" if outcome.is_error else ""))
        if asked:
            parts.append(literal_line(asked, limit=300, style="dim"))
            full.append(asked)
        if outcome.description:
            parts.append(server_block(block(outcome.description, style="italic")))
            full.append(outcome.description)
        view = result_view(outcome)
        for item in view.items:
            inline, text = _item_lines(item)
            if item.role:
                inline = Content.assemble(
                    literal_line(f"{item.role}:", limit=30, style="bold"), "\n", inline
                )
                text = f"{item.role}:\n{text}"
            shown = inline.stylize("$text-error") if outcome.is_error else inline
            # An image or audio block is mcp-tui's own placeholder ("[image: image/png, 3 KiB]").
            parts.append(shown if item.kind in ("image", "audio") else server_block(shown))
            full.append(text)
        if view.show_structured:
            data = pretty_json(outcome.structured)
            label = "structured content" + (" (also sent as text):" if view.echoes else ":")
            parts.append(Content.styled(label, "dim"))
            parts.append(server_block(block(data)))
            full += [label, data]
        elif view.echoes:
            note = 'structured content: the same text, as {"result": …}'
            parts.append(Content.styled(note, "dim"))
            full.append(note)
        if not outcome.items and outcome.structured is None:
            parts.append(Content.styled("(empty result)", "dim italic"))
    if outcome.stderr and not outcome.connection_lost:
        # The SDKs answer a raised exception with a wrapper ("Error executing tool boom"); the
        # cause is in what the server wrote to its stderr meanwhile.
        said = stderr_summary(outcome.stderr)
        parts.append(
            Content.assemble(
                ("the server wrote to its stderr during the call: ", "$warning"),
                literal_line(said, limit=300, style="bold"),
                ("  (i: all of it · l: the log)", "dim"),
            )
        )
        full += ["the server wrote to its stderr during the call:", *outcome.stderr]
    hint = outcome_hint(outcome)
    if hint is not None:
        parts.append(literal(hint, limit=None, style="bold $warning"))
        full.append(hint)
    for request in outcome.url_elicitations:
        message = getattr(request, "message", "")
        url = getattr(request, "url", None) or "?"
        parts.append(Content.styled("the server asks you to open a URL first:", "$warning"))
        parts.append(server_block(block(str(message))))
        parts.append(literal_line(url, limit=400, style="$accent"))
        full.append(f"the server asks you to open a URL first:\n{message}\n{url}")
    return entry_from(kind, parts, "\n".join(full), heading)


def call_entry(server: str, label: str, arguments: Mapping[str, Any] | None, call_id: int) -> Entry:
    """The user's request: what was called on which server, with the exact arguments."""
    heading = f"#{call_id} {shown_name(server)} › {label}"
    parts = [Content.assemble(("▶ ", "bold $accent"), literal_line(heading, style="bold"))]
    full = heading
    if arguments:
        args = pretty_json(dict(arguments))
        parts.append(block(args, style="dim"))
        full += "\n" + args
    return Entry("call", _join(parts), full, heading)


def server_info_text(info: ServerInfo | None) -> str:
    """Everything the server said about itself, as plain (untrusted) text for the detail view."""
    if info is None:
        return "(no server information yet)"
    lines = [
        f"name: {info.name or '?'}",
        f"version: {info.version or '?'}",
    ]
    if info.title:
        lines.append(f"title: {info.title}")
    lines.append(f"protocol version: {info.protocol_version or '?'}")
    lines.append("capabilities: " + (", ".join(sorted(info.capabilities)) or "none"))
    if info.capabilities:
        lines.append(pretty_json(info.capabilities))
    if info.instructions:
        lines += ["", "instructions:", info.instructions]
    return "\n".join(lines)


def state_entry(event: ServerStateChanged) -> Entry:
    state = event.state.value
    style = {"ready": "$success", "failed": "$error", "closed": "$warning"}.get(state, "$accent")
    shown = shown_name(event.server)
    heading = f"{shown}: {state}"
    parts = [Content.assemble(("● ", style), literal_line(heading, style="bold"))]
    full = heading
    if event.info is not None and state == "ready":
        info = event.info
        claimed = server_claim(event.server)
        if claimed is not None:  # its own name, quoted as its claim: never as ours
            line = f"{shown} — {claimed}" + (f", version {info.version}" if info.version else "")
        else:
            line = f"{info.name or '?'} {info.version or ''}".strip()
        line += f" · protocol {info.protocol_version or '?'}"
        if shown != event.server:  # a generic name replaced by the server's own
            line += f" · shown by its serverInfo name (the command line names it {event.server})"
        parts.append(literal_line(line, style="dim"))
        full = heading + "\n" + line + "\n" + server_info_text(info)
    if event.detail:
        parts.append(block(event.detail, style="$error" if state == "failed" else "dim"))
        full += "\n" + event.detail
    return Entry("state", _join(parts), full, heading)


def refused_entry(event: ElicitationRefused) -> Entry:
    asked = "a URL request" if event.mode == "url" else "a form"
    who = shown_name(event.server)
    heading = f"{who} asked with {asked} that cannot be shown (answered with an error)"
    problems = "\n".join(f"- {p}" for p in event.problems)
    parts: list[Content | Block] = [
        Content.assemble(("✗ ", "bold $error"), literal_line(heading, style="bold")),
        server_block(block(event.message)),
        block(problems, style="$error"),
    ]
    return entry_from("refused", parts, f"{heading}\n{event.message}\n{problems}", heading)


def notice_entry(event: Notice | ElicitationCompleted | ResourceUpdated) -> Entry:
    who = shown_name(event.server)
    if isinstance(event, ElicitationCompleted):
        text = f"{who}: the server says URL request {event.elicitation_id} is complete"
        style = "$success"
    elif isinstance(event, ResourceUpdated):
        text = f"{who}: resource updated: {event.uri} (read it again to see the change)"
        style = "$accent"
    else:
        text = f"{who}: {event.text}"
        style = {"information": "", "warning": "$warning", "error": "$error"}[event.severity]
    key = (
        f"resource-updated\0{event.server}\0{event.uri}"
        if isinstance(event, ResourceUpdated)
        else ""
    )
    summary = Content.assemble(("ℹ ", "dim"), block(text, style=style))
    return Entry("notice", summary, text, text, collapse=key)


def repeated_entry(entry: Entry, count: int, at: float) -> Entry:
    """``entry`` seen ``count`` times, the last at ``at`` (see ``Entry.collapse``)."""
    note = f"  (updated {count} times, last at {time.strftime('%H:%M:%S', time.localtime(at))})"
    summary = Content.assemble(entry.summary, (note, "dim"))
    return Entry(entry.kind, summary, entry.full + note, entry.title, entry.blocks, entry.collapse)


def dropped_entry(count: int) -> Entry:
    text = f"{count:,} more notices arrived too fast and were left out"
    return Entry("notice", Content.styled(text, "$warning"), text, text)


def elicitation_shown_entry(request: ElicitationRequest, waiting: int) -> Entry:
    what = "asks for a form" if request.mode == "form" else "asks you to open a web page"
    fields = ""
    if request.form is not None:
        count = len(request.form.fields)
        fields = f" ({count} field{'s' if count != 1 else ''})"
    heading = f"{shown_name(request.server)} {what}{fields}" + (
        f" — {waiting} more waiting" if waiting else ""
    )
    if request.tool:
        heading += f" during {request.tool}"
    parts: list[Content | Block] = [
        Content.assemble(("? ", "bold $warning"), literal_line(heading, style="bold"))
    ]
    if request.message:
        parts.append(server_block(block(request.message)))
    full = f"{heading}\n{request.message}"
    if request.url is not None:
        parts.append(literal_line(request.url, limit=300, style="$accent"))
        full += f"\n{request.url}"
    return entry_from("elicitation", parts, full, heading)


#: How the transcript says a request was answered, by the outcome's action.
ANSWERED = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}


def elicitation_finished_entry(
    request: ElicitationRequest,
    outcome: ElicitationOutcome,
    abandoned_input: Mapping[str, str] | None,
) -> Entry:
    """The answer exactly as sent (accept with its content, decline, cancel) and anything lost."""
    sent = []
    if outcome.action == "accept" and outcome.content is not None:
        sent.append(pretty_json(outcome.content))
    typed = None
    if abandoned_input:
        typed = "\n".join(f"{name}: {value}" for name, value in abandoned_input.items())
    heading = f"{shown_name(request.server)}: {ANSWERED[outcome.action]}"
    return answered_entry(heading, outcome, sent, typed, "the form closed before it was sent")


def answered_entry(
    heading: str,
    outcome: ElicitationOutcome | SamplingOutcome,
    sent: Sequence[str],
    typed: str | None,
    closed: str,
) -> Entry:
    """How a server's request (a form, a sampling request) was answered, in one shape.

    The heading marked by the outcome's action, mcp-tui's note on it, what was ``sent`` (the
    first block under "sent:", any more after it), and what was ``typed`` on a screen that
    closed before sending (``closed`` says what closed), so nothing typed is lost.
    """
    accepted = outcome.action == "accept"
    note = outcome.note
    style = "$success" if accepted else "$warning"
    parts = [
        Content.assemble(("✓ " if accepted else "– ", style), literal_line(heading, style="bold"))
    ]
    full = [heading]
    if note:
        parts.append(literal_line(note, limit=300, style="dim italic"))
        full.append(note)
    if sent:
        parts.append(Content.assemble(("sent:", "dim"), "\n", block(sent[0])))
        full += ["sent:", sent[0]]
        for more in sent[1:]:
            parts.append(block(more))
            full.append(more)
    if typed is not None:
        warning = f"{closed}; what you typed:"
        parts.append(Content.assemble((warning, "$warning"), "\n", block(typed)))
        full += ["what you typed:", typed]
    return Entry("elicitation", _join(parts), "\n".join(full), heading)


def _minutes(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute" + ("" if minutes == 1 else "s")
    return f"{seconds:g} s"


def url_wait_entry(wait: UrlWait, timeout: float) -> Entry | None:
    """How an accepted URL request stopped waiting; ``None`` when its call's result says it all.

    ``timeout`` is the bound the wait had (for the "no completion within ..." wording).
    """
    who = wait.subject  # "server › tool", or the server alone
    where = f"the page at {wait.host}"
    endings = {
        "completed": f"{where} is finished (the server completed elicitation "
        f"{wait.elicitation_id})",
        "done": f"you marked {where} as done",
        "gave_up": f"stopped waiting for {where} (you gave up)",
        "timed_out": f"stopped waiting for {where}: no completion within {_minutes(timeout)}",
        "closed": f"stopped waiting for {where}: the connection ended",
    }
    ending = endings.get(wait.state)
    if ending is None:
        return None
    text = f"{who}: {ending}"
    mark, style = ("✓ ", "$success") if wait.state in FINISHED else ("– ", "$warning")
    summary = Content.assemble((mark, style), literal_line(text, limit=400))
    return Entry("notice", summary, f"{text}\n{wait.request.url or ''}", text)


def url_loop_entry(server: str, tool: str, urls: list[str], reason: str) -> Entry:
    """A -32042 retry that is not attempted again, and why."""
    heading = f"{shown_name(server)} › {tool}: not retried"
    listed = "\n".join(urls)
    parts = [
        Content.assemble(("✗ ", "bold $error"), literal_line(heading, style="bold")),
        block(reason, style="$warning"),
    ]
    if urls:
        parts.append(block(listed, style="$accent"))
    return Entry("notice", _join(parts), f"{heading}\n{reason}\n{listed}", heading)
