"""``mcp-tui test`` on GitHub Actions, end to end against a server whose every string forges
workflow commands (``tests/fixtures/workflow_command_server.py``): the run's whole output (stdout
and stderr) read as the runner reads it (``tests/actions_runner.py``) carries out exactly
mcp-tui's commands (the pause, the resume, one ``::error`` per failed expectation at its line),
and the job summary parses as Markdown with one row per failure."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from mcp_tui.cli.main import main
from tests.actions_runner import Runner

SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "workflow_command_server.py"

FILE = f"""\
[server]
command = [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]

[[case]]
name = "echo"
tool = "echo"
expect = {{ text = "something else" }}

[[case]]
name = "refuse"
tool = "refuse"
expect = {{ outcome = "ok" }}

[[case]]
name = "crash"
tool = "crash"

[case.expect]
outcome = "ok"

[[case]]
name = "passes"
tool = "echo"
expect = {{ text_contains = "endgroup" }}
"""


@pytest.fixture
def test_file(tmp_path: Path) -> Path:
    (tmp_path / "tests" / "mcp").mkdir(parents=True)
    path = tmp_path / "tests" / "mcp" / "forged.mcptest.toml"
    path.write_text(FILE, encoding="utf-8")
    return path


@pytest.fixture
def on_actions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The environment of an Actions job; returns the summary file."""
    summary = tmp_path / "step_summary.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    return summary


def test_on_actions_only_mcp_tuis_commands_are_carried_out_and_the_summary_is_a_table(
    test_file: Path, on_actions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    on_actions.write_text("### an earlier step\n\n", encoding="utf-8")
    assert main(["test", str(test_file)]) == 1
    captured = capsys.readouterr()
    assert "4 case(s)" in captured.out  # the forged text was printed (paused), not left out
    assert "::add-mask::ok" in captured.out
    runner = Runner().feed(captured.out).feed(captured.err)
    names = [c.name for c in runner.commands]
    assert names[0] == "stop-commands" and names[1] == runner.commands[0].data
    assert names[2:] == ["error", "error", "error"], names
    assert runner.stop_token is None
    where = [(c.properties["file"], c.properties["line"]) for c in runner.named("error")]
    rel = "tests/mcp/forged.mcptest.toml"
    assert where == [(rel, "7"), (rel, "12"), (rel, "19")]  # each failed expectation's line
    titles = [c.properties["title"] for c in runner.named("error")]
    assert titles == [f"mcp-tui test: {n} [auto]" for n in ("echo", "refuse", "crash")]
    echo = runner.named("error")[0].data
    assert "::add-mask::ok" in echo and "\x1b" not in echo  # shown, escaped, never obeyed

    text = on_actions.read_text(encoding="utf-8")
    assert text.startswith("### an earlier step\n\n### ❌ mcp-tui test: 1 passed, 3 failed in ")
    tokens = MarkdownIt("commonmark", {"html": True}).enable("table").parse(text)
    rows = [i for i, t in enumerate(tokens) if t.type == "tr_open"]
    cells = [tokens[i + 2].content for i in rows]  # each row's first cell
    assert cells == [
        "test file", "`tests/mcp/forged.mcptest.toml`", "case", "`echo`", "`refuse`", "`crash`"
    ]  # fmt: skip
    assert not any(t.type in ("html_block", "link_open", "image") for t in tokens)


def test_json_stays_json_with_the_annotations_on_stderr(
    test_file: Path, on_actions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["test", str(test_file), "--json", "-k", "echo or passes"]) == 1
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["summary"] == {"failed": 1, "passed": 1}
    assert [c.name for c in Runner().feed(captured.err).commands][2:] == ["error"]


def test_no_github_turns_it_off_and_github_turns_it_on(
    test_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], on_actions: Path
) -> None:
    assert main(["test", str(test_file), "-k", "passes", "--no-github"]) == 0
    out = capsys.readouterr().out
    assert Runner().feed(out).commands == [] and "stop-commands" not in out
    assert not on_actions.exists()


def test_github_off_actions_writes_annotations_but_no_summary(
    test_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["test", str(test_file), "-k", "refuse", "--github"]) == 1
    runner = Runner().feed(capsys.readouterr().out)
    [error] = runner.named("error")
    # No GITHUB_WORKSPACE: the path is relative to the current folder, or as given.
    assert error.properties["file"].endswith("tests/mcp/forged.mcptest.toml")
    assert not list(tmp_path.glob("*.md"))
