"""``mcp-tui test --github``'s annotations, read back as GitHub's runner reads them
(``tests/actions_runner.py``): one ``::error`` per failed expectation at its line of the test
file, and nothing a server sent ever becomes a command of its own."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_tui.testbench.compare import Failure
from mcp_tui.testbench.github import (
    CommandPause,
    annotation_lines,
    escape_data,
    escape_property,
    repository_path,
    workflow_command,
)
from mcp_tui.testbench.github_report import GithubReport
from mcp_tui.testbench.load import LoadedFile, load_test_file
from mcp_tui.testbench.plan import CasePlan
from mcp_tui.testbench.result import CaseResult
from mcp_tui.untrusted import one_line, visible
from tests.actions_runner import Runner, runner_lines

FILE = """\
server = "demo"

[[case]]
name = "search finds three bugs"
tool = "search_issues"
arguments = { query = "bug" }

[case.expect]
text_contains = "three"
pointers = { "/total" = 3 }

[[case]]
name = "could not run"
tool = "x"

[[case]]
name = "known to fail"
tool = "x"
xfail = "the demo keeps it"
"""

#: What a hostile server puts in its text: both command forms behind every kind of line break
#: (the runner's and Unicode's), the runner's own escapes, and controls.
FORGED = (
    "a\n::add-mask::a\r::error::forged\r\n  ::warning file=x,line=1::w\u2028::notice::n"
    "\u2029##[stop-commands]halt\x85::debug::d\f::group::g\v%0A::error::e %25 \x1b[31m"
)


@pytest.fixture
def loaded(tmp_path: Path) -> LoadedFile:
    (tmp_path / "tests").mkdir()
    path = tmp_path / "tests" / "bugs.mcptest.toml"
    path.write_text(FILE, encoding="utf-8")
    return load_test_file(path)


def _result(loaded: LoadedFile, index: int = 0, **kw: Any) -> CaseResult:
    return CaseResult(CasePlan(loaded, index, "2025-11-25"), **kw)


def test_one_annotation_per_failed_expectation_at_its_line(
    loaded: LoadedFile, tmp_path: Path
) -> None:
    failures = [
        Failure(("text_contains",), 'the result\'s text does not contain "three"', "three", "2"),
        Failure(("pointers", "/total"), "structuredContent differs at /total", 3, 2),
    ]
    results = [
        _result(loaded, status="failed", failures=failures),
        _result(loaded, 1, status="error", message="the server could not be started"),
        _result(loaded, 2, status="xpassed"),
        _result(loaded, 0, status="passed"),
    ]
    runner = Runner().feed("\n".join(annotation_lines(results, tmp_path)))
    errors = runner.named("error")
    assert [(e.properties["file"], e.properties["line"]) for e in errors] == [
        ("tests/bugs.mcptest.toml", "9"),  # text_contains
        ("tests/bugs.mcptest.toml", "10"),  # pointers
        ("tests/bugs.mcptest.toml", "12"),  # the case that could not run: its [[case]]
        ("tests/bugs.mcptest.toml", "19"),  # the xfail that passed: its xfail line
    ]
    assert errors[0].properties["title"] == "mcp-tui test: search finds three bugs [2025-11-25]"
    assert errors[0].data.splitlines() == [
        'the result\'s text does not contain "three"',
        "expected: three",
        "     got: 2",
    ]
    assert errors[1].data.splitlines()[1:] == ["expected: 3", "     got: 2"]
    assert errors[2].data == "could not run: the server could not be started"
    assert "expected to fail (the demo keeps it)" in errors[3].data
    assert len(runner.commands) == 4


def test_paths_are_relative_to_the_workspace(tmp_path: Path) -> None:
    inside = tmp_path / "a" / "b.mcptest.toml"
    assert repository_path(inside, tmp_path) == "a/b.mcptest.toml"
    outside = Path("/elsewhere/c.mcptest.toml")
    assert repository_path(outside, tmp_path) == "/elsewhere/c.mcptest.toml"


def test_the_documented_escapes() -> None:
    assert escape_data("100%\r\nnext") == "100%25%0D%0Anext"
    assert escape_property("a: b, c%\n") == "a%3A b%2C c%25%0A"
    line = workflow_command("error", "m", file="x,y:z.toml", line=3, title="t: u, v")
    assert line == "::error file=x%2Cy%3Az.toml,line=3,title=t%3A u%2C v::m"


def test_a_servers_text_never_leaves_its_annotation(loaded: LoadedFile, tmp_path: Path) -> None:
    failure = Failure(("text_contains",), f"does not contain {FORGED}", FORGED, FORGED + "x")
    result = _result(loaded, status="failed", failures=[failure])
    error = _result(loaded, 1, status="error", message=FORGED)
    lines = annotation_lines([result, error], tmp_path)
    output = "\n".join(lines)
    # One runner line per annotation: no break of any kind survives.
    assert len(runner_lines(output)) == 2
    runner = Runner().feed(output)
    assert [c.name for c in runner.commands] == ["error", "error"]
    # What the annotation shows: the text with its controls and separators escaped (its own
    # newlines kept: the annotation shows them as lines).
    assert runner.commands[1].data == f"could not run: {visible(FORGED)}"
    assert "\x1b" not in runner.commands[0].data and "\u2028" not in runner.commands[0].data


_TRICKY = st.sampled_from(list(":#[]%,\r\n\u2028\u2029\x85\f\v \tae="))


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=_TRICKY | st.characters(), max_size=80))
def test_any_text_makes_one_annotation_that_shows_it(
    loaded: LoadedFile, tmp_path: Path, text: str
) -> None:
    failure = Failure(("text_contains",), text, text, text, diffable=False)
    [line] = annotation_lines([_result(loaded, status="failed", failures=[failure])], tmp_path)
    runner = Runner().feed(line)
    [command] = runner.commands
    assert command.name == "error"
    assert command.data.splitlines()[0] == one_line(text, limit=300)


def test_commands_are_paused_while_the_run_prints_and_resumed_for_the_annotations(
    loaded: LoadedFile, tmp_path: Path
) -> None:
    out = io.StringIO()
    report = GithubReport(tmp_path)
    report.start(out)
    out.write(f"FAIL ... {FORGED}\n  ::add-mask::secret\n  ##[stop-commands]x\n")
    failure = Failure(("text_contains",), "does not contain", "three", "two")
    report.finish([_result(loaded, status="failed", failures=[failure])], 1.0, io.StringIO())
    report.resume()  # a second resume (the command's finally) writes nothing
    runner = Runner().feed(out.getvalue())
    names = [c.name for c in runner.commands]
    assert names == ["stop-commands", report.pause.token, "error"], names
    assert runner.stop_token is None  # commands are on again when mcp-tui is done


def test_without_the_pause_the_same_output_would_forge_commands() -> None:
    """The runner emulation sees the attack the pause stops (so the test above means it)."""
    runner = Runner().feed(f"FAIL ... {FORGED}\n")
    assert {"add-mask", "error", "warning"} <= {c.name for c in runner.commands}
    assert Runner().feed("  text ##[stop-commands]halt\n").named("stop-commands")


def test_the_pause_token_is_random_and_a_legal_stop_token() -> None:
    one, two = CommandPause(), CommandPause()
    assert one.token != two.token and len(one.token) >= 32
    assert one.stop == f"::stop-commands::{one.token}" and one.resume == f"::{one.token}::"


def test_values_from_the_environment_are_masked_in_the_job_log(tmp_path: Path) -> None:
    out = io.StringIO()
    GithubReport(tmp_path).start(out, masks=["s3cr3t-token", "two\nlines%"])
    runner = Runner().feed(out.getvalue())
    assert [(c.name, c.data) for c in runner.named("add-mask")] == [
        ("add-mask", "s3cr3t-token"),
        ("add-mask", "two"),
        ("add-mask", "lines%"),
    ]
    assert runner.commands[-1].name == "stop-commands"  # masks first: the pause would hide them
