"""What a run took from the environment, and masking it (``testbench/redact.py``); the ``$${``
escape (``config/text.py``) that keeps a server's ``${...}`` from ever being read as a variable.

Provenance, not names: an answer ``note = "n-${API_TOKEN}"`` is masked as surely as a field
called ``api_token``, inside longer strings, JSON-escaped, and in whatever the server echoes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_tui.config.text import escape_variables, expand_variables
from mcp_tui.headless.file_server import prepare_file
from mcp_tui.testbench.compare import Failure
from mcp_tui.testbench.load import load_test_file
from mcp_tui.testbench.observed import Observed, SeenElicitation
from mcp_tui.testbench.plan import CasePlan
from mcp_tui.testbench.redact import MASK, NOTHING, RedactingWriter, Redactor, maskable
from mcp_tui.testbench.result import CaseResult

TOKEN = "tok-9f2c81"

FILE = """\
[server]
command = ["python", "server.py"]
env = { PLAIN = "fixed", KEY = "${API_KEY}" }

[[case]]
name = "sign up"
tool = "sign_up"
[[case.answers]]
action = "accept"
content = { note = "n-${API_TOKEN}", who = "${WHO:-nobody}", tags = ["${API_TOKEN}"] }
"""


def _loaded(tmp_path: Path, text: str = FILE) -> Path:
    path = tmp_path / "x.mcptest.toml"
    path.write_text(text)
    return path


def test_the_expansion_keeps_every_value_it_took_from_the_environment(tmp_path: Path) -> None:
    environ = {"API_TOKEN": TOKEN, "API_KEY": "key-55aa", "UNUSED": "never-read"}
    loaded, spec = prepare_file(load_test_file(_loaded(tmp_path)), environ)
    (answer,) = loaded.model.case[0].answers
    assert answer.content == {"note": f"n-{TOKEN}", "who": "nobody", "tags": [TOKEN]}
    assert spec.target.env == {"PLAIN": "fixed", "KEY": "key-55aa"}  # type: ignore[union-attr]
    # A default the author wrote, and a variable not read, are not the environment's.
    assert loaded.secrets == {TOKEN, "key-55aa"}


def test_a_value_is_masked_by_where_it_came_from_inside_longer_strings_and_echoes() -> None:
    redact = Redactor([TOKEN])
    assert redact.text(f'"note": "n-{TOKEN}"') == '"note": "n-***"'
    assert redact.text(f"you sent n-{TOKEN}, twice: {TOKEN}") == "you sent n-***, twice: ***"
    seen = Observed(
        "ok",
        text=f"Welcome n-{TOKEN}",
        structured={"echo": f"n-{TOKEN}", TOKEN: [f"x{TOKEN}y"]},
        has_structured=True,
        elicitations=(SeenElicitation("form", f"You sent n-{TOKEN}; ok?"),),
        transcript="-> accept " + json.dumps({"note": f'n-"{TOKEN}"'}),
    )
    masked = redact.value(seen)
    assert TOKEN not in repr(masked)
    assert masked.text == "Welcome n-***"
    assert masked.structured == {"echo": "n-***", MASK: ["x***y"]}
    assert masked.elicitations[0].message == "You sent n-***; ok?"
    assert masked.transcript == '-> accept {"note": "n-\\"***\\""}'


def test_escaped_spellings_numbers_and_the_lines_of_a_multi_line_value_are_masked() -> None:
    odd = 'pa"ss\\wörd'
    pem = "-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----"
    redact = Redactor([odd, pem, "493021"])
    assert redact.text(json.dumps({"p": odd})) == '{"p": "***"}'
    assert redact.text(json.dumps({"p": odd}, ensure_ascii=False)) == '{"p": "***"}'
    assert redact.text("https://x.example/?k=pa%22ss%5Cw%C3%B6rd") == "https://x.example/?k=***"
    assert redact.value({"pin": 493021, "n": 7, "ok": True}) == {"pin": MASK, "n": 7, "ok": True}
    assert "MIIBOgIBAAJBAK" not in redact.text("the key: MIIBOgIBAAJBAK (line 2)")


@pytest.mark.parametrize("value", ["1", "abc", "   ", "true", "False", "null", "none"])
def test_a_short_or_plain_value_is_not_masked_so_reports_stay_readable(value: str) -> None:
    assert not maskable(value)
    redact = Redactor([value])
    assert not redact
    assert redact.text(f"count 1, ok true, abc: {value}") == f"count 1, ok true, abc: {value}"


def test_a_result_is_masked_but_what_the_author_wrote_stays(tmp_path: Path) -> None:
    loaded = load_test_file(_loaded(tmp_path))
    plan = CasePlan(loaded, 0, "auto")
    failure = Failure(("text",), f"the text differs: {TOKEN}", "Welcome", f"Welcome {TOKEN}")
    result = CaseResult(plan, "failed", [failure], Observed("ok", text=TOKEN), f"m {TOKEN}")
    masked = Redactor([TOKEN]).value(result)
    assert masked.plan is plan and masked.failures[0].key == ("text",)
    assert (masked.failures[0].summary, masked.failures[0].got) == (
        "the text differs: ***",
        "Welcome ***",
    )
    assert masked.observed is not None and masked.observed.text == MASK
    assert masked.message == "m ***"
    assert result.failures[0].got == f"Welcome {TOKEN}", "the original is left as it was"
    assert NOTHING.value(result) is result
    assert Redactor([TOKEN]).finds(result) and not Redactor(["elsewhere"]).finds(result)


def test_the_writer_masks_whole_lines() -> None:
    import io

    out = io.StringIO()
    writer = RedactingWriter(out, Redactor([TOKEN]))
    print("half", TOKEN[:4], end="", file=writer)
    writer.write(TOKEN[4:] + " and more\nnext ")
    assert out.getvalue() == "half tok-9f2c81 and more\n".replace(TOKEN, MASK)
    writer.write(TOKEN)
    writer.flush()
    assert out.getvalue().endswith("next ***")


@pytest.mark.parametrize(
    "text",
    ["${API_TOKEN}", "at-${HOME}", "$${X}", "${${", "$", "$$", "${", "a$${b}$${", "$$${A}", ""],
)
def test_an_escaped_string_expands_back_to_itself(text: str) -> None:
    environ = {"API_TOKEN": TOKEN, "HOME": "/home/x", "X": "x", "A": "a"}
    escaped = escape_variables(text)
    assert expand_variables(escaped, environ) == text
    assert TOKEN not in expand_variables(escaped, environ)


def test_the_escape_is_a_literal_dollar_brace_where_variables_are_expanded() -> None:
    assert expand_variables("$${API_TOKEN} is ${WHO}", {"WHO": "me"}) == "${API_TOKEN} is me"
