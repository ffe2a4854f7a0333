"""A call recorded on a server whose ids change per run replays: the recorder and ``--update``
write a matcher for the id, UUID and timestamp, and the literal where nothing changes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcp_tui.cli.main import main
from mcp_tui.testbench.record import RecordedCall, case_from_call
from mcp_tui.testbench.writer import append_case
from mcp_tui.testing import connect

TODO = Path(__file__).resolve().parents[1] / "fixtures" / "todo_server.py"
SERVER = {"command": [sys.executable, str(TODO)]}


@pytest.mark.timeout(120)
def test_a_recorded_call_with_ids_that_change_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with connect(command=SERVER["command"], era="2025-11-25") as server:
        seen = server.call_tool("add", {"title": "milk"})
    assert seen.outcome == "ok" and "(#" in seen.text
    made = case_from_call(RecordedCall("tool", "add", {"title": "milk"}, [], seen), "add milk")
    assert any("changes per run" in note or "change per run" in note for note in made.notes)
    path = tmp_path / "todo.mcptest.toml"
    append_case(path, made.case, server=SERVER, eras=["2025-11-25"], comments=made.comments)
    text = path.read_text(encoding="utf-8")
    assert 'text_regex = \'^Added "milk" \\(#[0-9]+\\) at [0-9]{4}' in text
    assert "# a regex: an id after # and a timestamp change per run" in text
    assert '"/uid" = "^[0-9a-fA-F-]{36}$"' in text and '"/id" = "^[0-9]+$"' in text
    assert 'title = "milk"' in text  # what does not change is checked exactly
    # a new server process: other ids, the same case passes, on both eras
    assert main(["test", str(path), "--era", "2025-11-25", "--era", "2026-07-28"]) == 0, (
        capsys.readouterr().out
    )
    capsys.readouterr()
    # another title in the snapshot still fails: only what changes per run is free
    assert text.count('title = "milk"\n') == 1
    path.write_text(text.replace('title = "milk"\n', 'title = "tea"\n'), encoding="utf-8")
    assert main(["test", str(path), "-q"]) == 1
    out = capsys.readouterr().out
    assert "structuredContent differs" in out and "1 failed" in out


@pytest.mark.timeout(120)
def test_update_takes_a_first_snapshot_with_its_matchers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "todo.mcptest.toml"
    path.write_text(
        f'eras = ["2025-11-25"]\n[server]\ncommand = [{sys.executable!r}, {str(TODO)!r}]\n\n'
        '[[case]]\nname = "add"\ntool = "add"\narguments = { title = "milk" }\n'
        'expect = { text = "", structured = {} }\n'.replace("'", '"'),
        encoding="utf-8",
    )
    assert main(["test", str(path), "--update"]) == 0, capsys.readouterr().out
    assert "updated 2 snapshot(s)" in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    assert "text_regex" in text and "pointers_regex" in text and "# a regex" in text
    assert main(["test", str(path)]) == 0, capsys.readouterr().out
