"""The pytest plugin, run as a project would run it: ``pytest`` in a folder of test files, with
the plugin enabled by its entry point (this suite turns it off), in this process (pytester; no
test here needs a process of its own)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml

from tests.pytester_kit import run_in_process

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
FAILS = ROOT / "tests" / "cli" / "fixtures" / "every_kind_fails.mcptest.toml"


def test_test_files_are_collected_and_run_as_items(pytester: pytest.Pytester) -> None:
    shutil.copy(ROOT / "examples" / "demo" / "forms.mcptest.toml", pytester.path)
    shutil.copy(FAILS, pytester.path)
    junit = pytester.path / "junit.xml"
    coverage = pytester.path / "coverage.json"
    result = run_in_process(
        pytester,
        "-k",
        "not every_kind or text or within",
        f"--junitxml={junit}",
        "--mcp-coverage",
        f"--mcp-coverage-json={coverage}",
    )
    # forms: 9 cases x 2 eras pass; every_kind_fails: 4 cases (text, text contains, text
    # regex, within) on one era fail, each with the report of `mcp-tui test`.
    result.assert_outcomes(passed=18, failed=4)
    out = result.stdout.str()
    assert "FAIL " in out and "expected: Confirmed: restart the coffee machine." in out
    assert "over its budget of 0.1 s" in out and "Traceback" not in out
    xml = JUnitXml.fromfile(str(junit))
    cases = {c.name: c for suite in xml for c in suite}
    assert "every field kind, the defaults accepted[2026-07-28]" in cases
    [failure] = cases["within[2025-11-25]"].result
    assert isinstance(failure, Failure) and "over its budget" in (failure.text or "")
    # --mcp-coverage: as mcp-tui test --coverage, in the terminal summary and as JSON.
    assert "==== coverage" in out and "  tools      6/12 (50%)  untouched: book_table, " in out
    assert 'confirm_action "Please confirm: restart the build agents.": accept, cancel' in out
    doc = json.loads(coverage.read_text(encoding="utf-8"))
    assert doc["tools_percent"] == 50.0


def test_skip_xfail_era_and_bad_files(pytester: pytest.Pytester) -> None:
    pytester.makefile(
        ".mcptest.toml",
        ok="""\
server = "demo"
eras = ["2025-11-25", "2026-07-28"]

[[case]]
name = "known gap"
tool = "delete_project"
arguments = { name = "website" }
answers = [{ action = "decline" }]
xfail = "the demo keeps it"
expect = { text_contains = "Deleted" }

[[case]]
name = "later"
tool = "t"
skip = "not yet"

[[case]]
name = "new era only"
tool = "confirm_action"
eras = ["2026-07-28"]
answers = [{ action = "accept" }]
expect = { text = "Confirmed: restart the build agents." }
""",
        bad='server = "demo"\n\n[[case]]\nname = "a"\ntool = "t"\nexpect = { txt = 1 }\n',
    )
    result = run_in_process(
        pytester,
        "--mcp-era",
        "2026-07-28",
        "-rsx",
        "--continue-on-collection-errors",
    )
    result.assert_outcomes(xfailed=1, skipped=1, passed=1, errors=1)
    out = result.stdout.str()
    assert "bad.mcptest.toml, line 6: case[0].expect.txt: unknown key" in out
    assert "not yet" in out and "the demo keeps it" in out


def test_the_python_api_through_the_fixture(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_server="""
        from mcp_tui.testing import accept, expect

        def test_confirm(mcp_connect):
            server = mcp_connect(demo=True, era="2025-11-25")
            result = server.call_tool("confirm_action", answer=lambda request: accept())
            expect(result, outcome="ok", text="Confirmed: restart the build agents.")
            expect(result, elicitation_count=2)
        """
    )
    result = run_in_process(pytester)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "another number of elicitation requests" in out and "expected: 2" in out


def test_this_suite_does_not_collect_its_own_test_files() -> None:
    """``-p no:mcp-tui`` in this repository's pytest options: the examples run once, in the
    tests that check them."""
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "-p no:mcp-tui" in config


def test_a_secret_placeholder_in_an_answer_comes_from_the_environment(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``mcp-tui test`` does (what "Save as a test" writes for a secret-looking field)."""
    pytester.makefile(
        ".mcptest.toml",
        secret="""\
server = "demo"

[[case]]
name = "the name from the environment"
tool = "set_preferences"
answers = [{ action = "accept", content = { display_name = "${DISPLAY_NAME}" } }]
expect = { text_contains = "Grace from CI" }
""",
    )
    monkeypatch.delenv("DISPLAY_NAME", raising=False)
    unset = run_in_process(pytester)
    unset.assert_outcomes(errors=1)
    assert "line 6" in unset.stdout.str() and "DISPLAY_NAME is not set" in unset.stdout.str()
    monkeypatch.setenv("DISPLAY_NAME", "Grace from CI")
    run_in_process(pytester).assert_outcomes(passed=1)


def test_xdist_workers_send_their_touches_to_the_controller(pytestconfig: pytest.Config) -> None:
    """Under ``-n``, each worker's touches reach the controller as JSON, and one report covers
    them all (the workers' own sessions report nothing)."""
    from types import SimpleNamespace

    from mcp_tui.testbench.coverage import Touch
    from mcp_tui.testbench.observed import Offered
    from mcp_tui.testing.coverage_plugin import CoverageReport, recorded

    offered = Offered("shop", tools=("a", "b", "c", "d"))
    config = SimpleNamespace(
        stash=pytest.Stash(),
        getoption=lambda name: {"--mcp-fail-under": 60.0}.get(name),
    )
    controller = CoverageReport(config)  # type: ignore[arg-type]
    for tool in ("a", "b"):
        worker_config = SimpleNamespace(
            stash=pytest.Stash(), getoption=config.getoption, workerinput={}, workeroutput={}
        )
        worker = CoverageReport(worker_config)  # type: ignore[arg-type]
        recorded(worker_config).append(Touch(offered, "tool", tool))  # type: ignore[arg-type]
        session = SimpleNamespace(exitstatus=pytest.ExitCode.OK)
        worker.pytest_sessionfinish(session, 0)  # type: ignore[arg-type]
        assert worker.measured is None and session.exitstatus == pytest.ExitCode.OK
        controller.pytest_testnodedown(
            SimpleNamespace(workeroutput=worker_config.workeroutput), None
        )
    session = SimpleNamespace(exitstatus=pytest.ExitCode.OK)
    controller.pytest_sessionfinish(session, 0)  # type: ignore[arg-type]
    assert controller.measured is not None
    assert sorted(controller.measured.servers[0].touched["tools"]) == ["a", "b"]
    assert session.exitstatus == pytest.ExitCode.TESTS_FAILED  # 50% is under 60
    assert "is under --fail-under 60" in controller.verdict


def test_the_case_after_a_lost_server_gets_a_fresh_one(pytester: pytest.Pytester) -> None:
    """A case that ends the server (``connection_lost``) is followed by one on a new process, as
    ``mcp-tui test`` does, not by one failing on the dead connection."""
    import json
    import sys

    script = pytester.path / "script.json"
    script.write_text(
        json.dumps(
            {
                "tools": [
                    {"name": "crash", "inputSchema": {"type": "object"}},
                    {"name": "ok", "inputSchema": {"type": "object"}},
                ],
                "on_call": {"crash": [{"exit": 3}]},
                "results": {"ok": {"result": {"content": [{"type": "text", "text": "fine"}]}}},
            }
        ),
        encoding="utf-8",
    )
    raw = ROOT / "tests" / "fixtures" / "raw_server.py"
    pytester.makefile(
        ".mcptest.toml",
        lost=f"""\
eras = ["2025-11-25"]
[server]
command = [{json.dumps(sys.executable)}, {json.dumps(str(raw))}, "--script", "{script}"]

[[case]]
name = "crash"
tool = "crash"
expect = {{ outcome = "connection_lost" }}

[[case]]
name = "after"
tool = "ok"
expect = {{ text = "fine" }}
""",
    )
    result = run_in_process(pytester, "-v")
    result.assert_outcomes(passed=2)


@pytest.mark.timeout(300)
def test_setup_and_teardown_steps_are_pytests_setup_and_teardown(
    pytester: pytest.Pytester,
) -> None:
    """A failed setup step is an ERROR (pytest's, ``<error>`` in JUnit), not a failure; the
    case's teardown runs after it; the file's setup runs once and its teardown after the last
    case (an error there is that case's teardown error)."""
    import sys

    items = ROOT / "tests" / "fixtures" / "items_server.py"
    pytester.makefile(
        ".mcptest.toml",
        items=f"""\
eras = ["2025-11-25"]
[server]
command = [{json.dumps(sys.executable)}, {json.dumps(str(items))}]
env = {{ ITEMS_FILE = "items.json" }}

[[setup]]
tool = "create_item"
arguments = {{ name = "shared" }}
expect = {{ outcome = "ok" }}

[[teardown]]
tool = "delete_item"
arguments = {{ name = "shared" }}
expect = {{ text = "Gone" }}

[[case]]
name = "delete the draft"
tool = "delete_item"
arguments = {{ name = "draft" }}
answers = [{{ action = "accept", content = {{ confirm = true }} }}]
expect = {{ text = "Deleted draft" }}
setup = [{{ tool = "create_item", arguments = {{ name = "draft" }} }}]

[[case]]
name = "a setup that fails"
tool = "list_items"
setup = [{{ tool = "create_itme" }}]
teardown = [{{ tool = "create_item", arguments = {{ name = "torn-down" }} }}]
""",
    )
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--junitxml={junit}")
    # the first passes; the second errors at setup, and (as the last) at the file's teardown
    result.assert_outcomes(passed=1, errors=2)
    out = result.stdout.str()
    assert "ERROR at setup of a setup that fails [2025-11-25]" in out, out
    assert "setup #1 (tool create_itme, line 27) failed: the call ended" in out
    assert "ERROR at teardown of a setup that fails [2025-11-25]" in out
    assert "the file's teardown #1 (tool delete_item, line 11) failed" in out
    assert "Traceback" not in out
    state = json.loads((pytester.path / "items.json").read_text(encoding="utf-8"))
    assert state == {"shared": "", "torn-down": ""}, (
        "the case's teardown ran after its setup failed"
    )
    xml = JUnitXml.fromfile(str(junit))
    cases = {c.name: c for suite in xml for c in suite}
    assert not cases["delete the draft[2025-11-25]"].result
    kinds = {type(r).__name__ for r in cases["a setup that fails[2025-11-25]"].result}
    assert kinds == {"Error"}, kinds
