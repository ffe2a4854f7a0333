"""Every command line mcp-tui prints for a person to paste is shell-safe
(``untrusted.command_line``): a word a server, a config file or a path controls stays one word
and runs nothing, however it is spelled. Checked by pasting the printed line into bash, with
``mcp-tui`` a function that writes down the words it got.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mcp_tui.check import Listing, run_checks
from mcp_tui.untrusted import command_line

HOSTILE = [
    "ro$(touch X)",
    "ro`touch X`",
    "ro; touch X",
    "a name with spaces",
    'it\'s "quoted"',
    "-rf",
    "--args",
    "$HOME ${HOME} ~ * ?",
    "new\nline; touch X",
    "\x1b]52;c;aGk=\x07",
    "",
]

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash")


def pasted(line: str, where: Path) -> list[str]:
    """The words bash hands ``mcp-tui`` when ``line`` is pasted (in ``where``)."""
    script = "mcp-tui() { printf '%s\\0' \"$@\"; }\n" + line + "\n"
    done = subprocess.run(
        ["bash", "--norc", "--noprofile"],
        input=script,
        cwd=where,
        capture_output=True,
        text=True,
        timeout=20,
        check=True,
    )
    return done.stdout.split("\0")[:-1]


@needs_bash
@pytest.mark.parametrize("word", HOSTILE)
def test_each_word_stays_one_word_and_runs_nothing(word: str, tmp_path: Path) -> None:
    line = command_line("mcp-tui", "call", word, "--args", "{}")
    assert "\n" not in line and "\x1b" not in line and "\x07" not in line
    got = pasted(line, tmp_path)
    assert not (tmp_path / "X").exists(), f"pasting {line!r} ran a command"
    assert len(got) == 4 and got[0] == "call" and got[2:] == ["--args", "{}"], got
    if word.isprintable():
        assert got[1] == word, "a printable word is pasted exactly"


def _fuzz_finding(tool: str, arguments: object) -> str:
    failure = {"tool": tool, "kind": "crash", "arguments": arguments, "detail": "d", "calls": 3}
    listing = Listing("srv", "2025-11-25", capabilities={"tools": {}}, tools=[], fuzz=[failure])
    (found,) = [f for f in run_checks([listing]).findings if f.rule == "F101"]
    return str(found.message)


@needs_bash
def test_a_fuzz_findings_reproduce_line_is_safe_to_paste(tmp_path: Path) -> None:
    arguments = {"q": "it's $(touch X) `touch X`; touch X"}
    message = _fuzz_finding("ro$(touch X)", arguments)
    line = message[message.index("mcp-tui call") :]
    got = pasted(line, tmp_path)
    assert not (tmp_path / "X").exists(), f"pasting {line!r} ran a command"
    assert got == ["call", "ro$(touch X)", "--args", json.dumps(arguments, sort_keys=True)]


def test_the_hints_that_name_a_server_or_a_command_quote_it() -> None:
    from mcp_tui.cli.target import check_url_argument
    from mcp_tui.errors import UsageError
    from mcp_tui.session.oauth.authorization import headless_message

    hint = headless_message("my server; rm -rf ~", "https://mcp.example.com/mcp")
    assert "run `mcp-tui 'my server; rm -rf ~'` once" in hint
    with pytest.raises(UsageError) as raised:
        check_url_argument("./my server", ["--name", "$(id)"])
    assert "mcp-tui -- './my server' --name '$(id)'" in str(raised.value)
