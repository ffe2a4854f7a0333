"""Cases that need state: ``setup`` and ``teardown`` steps, per case and per file (issue 36,
item 8), against a server whose items outlive its process (``tests/fixtures/items_server.py``).

A destructive case (delete) passes again and again once its setup creates what it deletes; a
setup that fails makes the case an error (not a failure) in the text report, ``--json`` and
``--junit-xml``, and its call is not made; teardown runs whatever happened; the file's setup
runs once before its cases and its teardown after them.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mcp_tui.cli.main import main

ITEMS = Path(__file__).resolve().parents[1] / "fixtures" / "items_server.py"

#: The cases of the test files below run on the era ``ctx.elicit()`` speaks.
HEAD = f"""\
eras = ["2025-11-25"]

[server]
command = [{json.dumps(sys.executable)}, {json.dumps(str(ITEMS))}]
env = {{ ITEMS_FILE = "items.json" }}
"""

DELETE = """
[[case]]
name = "delete the draft"
tool = "delete_item"
arguments = { name = "draft" }
answers = [{ action = "accept", content = { confirm = true } }]
expect = { text = "Deleted draft" }
"""

SETUP = """
[[case.setup]]
tool = "create_item"
arguments = { name = "draft" }
answers = [{ action = "accept", content = { note = "for the test" } }]
"""


def items(folder: Path) -> dict[str, str]:
    store = folder / "items.json"
    return json.loads(store.read_text(encoding="utf-8")) if store.exists() else {}


def run(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["test", str(path), *args])
    return code, capsys.readouterr().out


@pytest.mark.timeout(120)
def test_a_destructive_case_passes_twice_in_a_row_once_setup_creates_its_item(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / "bare.mcptest.toml"
    bare.write_text(HEAD + DELETE, encoding="utf-8")
    code, out = run(bare, capsys)
    assert code == 1 and "1 failed" in out, out  # nothing to delete: the case alone cannot pass

    path = tmp_path / "items.mcptest.toml"
    path.write_text(HEAD + DELETE + SETUP, encoding="utf-8")
    coverage = tmp_path / "coverage.json"
    for _ in range(2):
        code, out = run(path, capsys, "--coverage-json", str(coverage))
        assert code == 0 and "1 passed" in out, out
    assert items(tmp_path) == {}
    # A setup call is not a test of its tool: --coverage counts the cases' own calls and forms.
    (server,) = json.loads(coverage.read_text(encoding="utf-8"))["servers"]
    assert server["tools"]["touched"] == ["delete_item"]
    assert "create_item" in server["tools"]["untouched"]
    assert {form["target"] for form in server["elicitations"]} == {"delete_item"}


@pytest.mark.timeout(120)
def test_a_failed_setup_is_an_error_in_every_report_and_its_teardown_still_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "items.json").write_text('{"kept": ""}', encoding="utf-8")
    path = tmp_path / "items.mcptest.toml"
    path.write_text(
        HEAD
        + DELETE
        + """
[[case.setup]]
tool = "create_itme"
arguments = { name = "draft" }

[[case.setup]]
tool = "create_item"
arguments = { name = "second" }

[[case.teardown]]
tool = "delete_item"
arguments = { name = "kept" }
answers = [{ action = "accept", content = { confirm = true } }]
""",
        encoding="utf-8",
    )
    junit = tmp_path / "junit.xml"
    code, out = run(path, capsys, "--junit-xml", str(junit))
    assert code == 1, out
    assert "1 error in" in out and "failed" not in out.splitlines()[-1], out
    heading = f"ERROR {path}:7 delete the draft [2025-11-25]"
    assert heading in out, out
    assert "  setup #1 (tool create_itme, line 14) failed: the call ended " in out, out
    assert "Unknown tool: create_itme" in out
    # the setup stopped at its first failure; the teardown ran after it
    assert items(tmp_path) == {}, "the second setup step was not made; the teardown was"

    [case] = ET.parse(junit).getroot().iter("testcase")
    assert case.find("failure") is None
    error = case.find("error")
    assert error is not None and "setup #1 (tool create_itme, line 14) failed" in error.get(
        "message", ""
    )

    (tmp_path / "items.json").write_text('{"kept": ""}', encoding="utf-8")
    main(["test", str(path), "--json"])
    doc = json.loads(capsys.readouterr().out)
    [result] = doc["cases"]
    assert result["status"] == "error" and doc["summary"] == {"error": 1}
    assert "observed" not in result, "the case's own call was not made"
    [step] = result["steps"]
    assert (step["phase"], step["of"], step["number"], step["line"]) == ("setup", "case", 1, 14)
    assert step["call"] == "tool create_itme"
    assert step["observed"]["outcome"] in ("tool_error", "error")  # as the SDK answers


@pytest.mark.timeout(120)
def test_a_setup_expectation_is_checked_when_written_and_named_by_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "items.mcptest.toml"
    path.write_text(
        HEAD
        + DELETE
        + SETUP
        + 'expect = { text = "Created draft" }\n',  # the note makes it "Created draft (...)"
        encoding="utf-8",
    )
    code, out = run(path, capsys)
    assert code == 1 and "1 error in" in out, out
    assert "setup #1 (tool create_item, line 14) failed: its expectation did not hold" in out
    assert "    - the result's text differs (line 18)" in out, out
    assert "    call: tool create_item -> ok in" in out
    assert items(tmp_path) == {"draft": "for the test"}, "no teardown: the draft is left"


@pytest.mark.timeout(120)
def test_teardown_runs_after_a_failed_case_and_a_failed_teardown_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "items.mcptest.toml"
    path.write_text(
        HEAD
        + """
[[case]]
name = "create, wrongly expected"
tool = "create_item"
arguments = { name = "a" }
expect = { text = "Made a" }

[[case.teardown]]
tool = "delete_item"
arguments = { name = "a" }
answers = [{ action = "accept", content = { confirm = true } }]

[[case]]
name = "create, then a teardown that fails"
tool = "create_item"
arguments = { name = "b" }
expect = { text = "Created b" }
teardown = [{ tool = "delete_item", arguments = { name = "b" }, expect = { text = "Gone" } }]
""",
        encoding="utf-8",
    )
    code, out = run(path, capsys)
    assert code == 1, out
    assert "1 failed, 1 error in" in out, out
    assert items(tmp_path) == {"b": ""}, "a's teardown ran after its case failed; b's kept b"
    assert "FAIL " in out and "the result's text differs" in out
    assert (
        "  teardown #1 (tool delete_item, line 23) failed: its expectation did not hold: "
        "the result's text differs"
    ) in out, out
    assert f"ERROR {path}:18 create, then a teardown that fails [2025-11-25]" in out


@pytest.mark.timeout(120)
def test_the_files_setup_runs_once_before_its_cases_and_its_teardown_after(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "items.mcptest.toml"
    # The setup expects ok: made a second time, create_item would fail ("exists already").
    path.write_text(
        HEAD
        + """
[[setup]]
tool = "create_item"
arguments = { name = "shared" }
expect = { outcome = "ok" }

[[teardown]]
tool = "reset"

[[case]]
name = "it is there"
tool = "list_items"
expect = { text = "shared" }

[[case]]
name = "still there"
resource = "items://count"
expect = { text = "1" }
""",
        encoding="utf-8",
    )
    code, out = run(path, capsys)
    assert code == 0 and "2 passed" in out, out
    assert items(tmp_path) == {}, "the file's teardown ran after the last case"

    # A file's setup that fails: every case is an error, none is run; the teardown still runs.
    (tmp_path / "items.json").write_text('{"shared": ""}', encoding="utf-8")
    code, out = run(path, capsys)
    assert code == 1 and "2 error in" in out, out
    assert out.count("the file's setup #1 (tool create_item, line 7) failed") == 2, out
    assert "expected: ok" in out or "the call ended tool_error, not ok" in out
    assert items(tmp_path) == {}


@pytest.mark.timeout(120)
def test_a_secret_a_step_answers_with_is_masked_in_every_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step's failure is a report sink like a case's: what came from the environment is
    masked in it (the server echoes the note it was given)."""
    monkeypatch.setenv("NOTE_SECRET", "hunter2-from-ci")
    path = tmp_path / "items.mcptest.toml"
    path.write_text(
        HEAD
        + """
[[case]]
name = "list"
tool = "list_items"

[[case.setup]]
tool = "create_item"
arguments = { name = "draft" }
answers = [{ action = "accept", content = { note = "${NOTE_SECRET}" } }]
expect = { text = "Created draft" }
""",
        encoding="utf-8",
    )
    code, out = run(path, capsys, "--junit-xml", str(tmp_path / "junit.xml"))
    assert code == 1 and "setup #1 (tool create_item, line 11) failed" in out, out
    assert "hunter2-from-ci" not in out and "got: Created draft (***)" in out, out
    assert "hunter2-from-ci" not in (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert items(tmp_path) == {"draft": "hunter2-from-ci"}, "the server got the value"
    (tmp_path / "items.json").unlink()
    main(["test", str(path), "--json"])
    assert "hunter2-from-ci" not in capsys.readouterr().out


@pytest.mark.timeout(120)
def test_a_server_that_cannot_be_started_for_teardown_is_exit_3_and_tried_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A setup that crashed the server is its answer (exit 1 alone); a teardown for which it
    cannot be started again is a server not reached (exit 3), and its next step is not tried."""
    path = tmp_path / "items.mcptest.toml"
    path.write_text(
        HEAD
        + """
[[case]]
name = "list"
tool = "list_items"
setup = [{ tool = "shut_down" }]
teardown = [{ tool = "reset" }, { tool = "reset" }]
""",
        encoding="utf-8",
    )
    code, out = run(path, capsys)
    assert code == 3, out
    assert "setup #1 (tool shut_down, line 10) failed: the call ended connection_lost" in out
    assert "teardown #1 (tool reset, line 11) failed: the server could not be started" in out
    assert "\n    last stderr:\n      items: shut down for good\n" in out, out
    assert "teardown #2" not in out, "not tried once the server could not be reached"
