"""``mcp-tui test`` end to end against the bundled demo: exit codes, the summary's diffs, JUnit
XML read back by a JUnit parser, ``--json``, ``--update`` and the selection of cases."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from junitparser import Error, Failure, JUnitXml, Skipped

from mcp_tui.cli.main import main

PASSING = """\
# A comment that --update keeps.
server = "demo"
eras = ["2025-11-25", "2026-07-28"]

[[case]]
name = "declining keeps the project"
tool = "delete_project"
arguments = { name = "payments-api" }
answers = [{ action = "decline" }]
expect = { outcome = "ok", text_contains = "Kept payments-api", elicitation_count = 1 }

[[case]]
name = "search finds three bugs"
tool = "search_issues"
arguments = { query = "bug" }

[case.expect]
pointers = { "/total" = 3, "/issues/0/number" = 108 }
"""

FAILING = """\
server = "demo"
eras = ["2025-11-25"]

[[case]]
name = "wrong count"
tool = "search_issues"
arguments = { query = "bug" }
expect = { pointers = { "/total" = 4 }, text_contains = "no such words" }

[[case]]
name = "an unknown resource"
resource = "demo://nope"
expect = { outcome = "error", error_code = -32602, error_regex = "Unknown resource" }

[[case]]
name = "known to fail"
tool = "delete_project"
arguments = { name = "payments-api" }
xfail = "the demo keeps the project when the box is not ticked"
answers = [{ action = "accept", content = { confirm = false } }]
expect = { text_contains = "Deleted" }

[[case]]
name = "skipped"
tool = "delete_project"
skip = "not today"
"""


def _file(tmp_path: Path, text: str, name: str = "demo.mcptest.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_passing_file_passes_on_both_eras(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, PASSING)
    assert main(["test", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("PASS ") == 4, out
    assert f"{path}::declining keeps the project[2026-07-28]" in out
    assert "4 passed in" in out


def test_a_failing_case_shows_expected_and_got(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, FAILING)
    junit = tmp_path / "out" / "junit.xml"
    code = main(["test", str(path), "--junit-xml", str(junit), "--json"])
    captured = capsys.readouterr()
    assert code == 1
    report = captured.err  # with --json the progress and the summary go to stderr
    assert f"FAIL  {path}:4 wrong count [2025-11-25]" in report
    assert "structuredContent differs at /total (line 8)" in report
    assert "expected: 4" in report and "got: 3" in report
    assert 'does not contain "no such words"' in report
    assert "1 passed, 1 failed, 1 xfailed, 1 skipped" in report
    assert "Traceback" not in report

    doc = json.loads(captured.out)
    by_case = {c["case"]: c for c in doc["cases"]}
    assert by_case["an unknown resource"]["status"] == "passed"
    assert by_case["an unknown resource"]["observed"]["errorCode"] == -32602
    assert [f["key"] for f in by_case["wrong count"]["failures"]] == [
        "text_contains",
        "pointers./total",
    ]

    xml = JUnitXml.fromfile(str(junit))
    [suite] = list(xml)
    cases = {c.name: c for c in suite}
    assert set(cases) == {
        "wrong count[2025-11-25]",
        "an unknown resource[2025-11-25]",
        "known to fail[2025-11-25]",
        "skipped[2025-11-25]",
    }
    assert suite.tests == 4 and suite.failures == 1 and suite.skipped == 2
    [failure] = cases["wrong count[2025-11-25]"].result
    assert isinstance(failure, Failure)
    assert "no such words" in (failure.message or "") and "got: 3" in (failure.text or "")
    assert cases["an unknown resource[2025-11-25]"].is_passed
    assert isinstance(cases["skipped[2025-11-25]"].result[0], Skipped)


def test_a_server_that_cannot_start_exits_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(
        tmp_path,
        f'[server]\ncommand = ["{sys.executable}", "-c", "import sys; print(\'boom\', '
        'file=sys.stderr); sys.exit(1)"]\n\n[[case]]\nname = "a"\ntool = "t"\n',
    )
    junit = tmp_path / "junit.xml"
    assert main(["test", str(path), "--junit-xml", str(junit)]) == 3
    out = capsys.readouterr().out
    assert "ERROR" in out and "the server could not be started" in out and "boom" in out
    [suite] = list(JUnitXml.fromfile(str(junit)))
    [case] = list(suite)
    assert isinstance(case.result[0], Error)


def test_a_bad_file_stops_everything_before_any_server_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "started"
    _file(
        tmp_path,
        f'[server]\ncommand = ["{sys.executable}", "-c", "open({str(marker)!r}, \'w\')"]\n\n'
        '[[case]]\nname = "a"\ntool = "t"\n',
        "a.mcptest.toml",
    )
    _file(tmp_path, PASSING.replace("pointers =", "pointer ="), "b.mcptest.toml")
    assert main(["test", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "b.mcptest.toml, line 18: case[1].expect.pointer: unknown key" in err
    assert err.count("\n") == 1, err
    assert not marker.exists()


def test_update_rewrites_snapshots_and_keeps_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(
        tmp_path,
        """\
server = "demo"   # the bundled demo
eras = ["2025-11-25"]

[[case]]
name = "confirm"
tool = "confirm_action"
answers = [{ action = "accept" }]

[case.expect]
# snapshots: written by --update
text = ""
elicitations = [{ schema = {} }]
text_regex = "never rewritten"
""",
    )
    before = path.read_text(encoding="utf-8")
    # the regex is not a snapshot and fails: the case could not pass, nothing of it is written
    assert main(["test", str(path), "--update"]) == 1
    first = capsys.readouterr().out
    assert f"not updated: {path}:4 confirm: the result's text does not match the regex" in first
    assert "  not updated: the result's text does not match the regex" in first
    assert path.read_text(encoding="utf-8") == before
    path.write_text(before.replace('text_regex = "never rewritten"\n', ""), encoding="utf-8")
    assert main(["test", str(path)]) == 1
    assert "only snapshots differ: `mcp-tui test --update` would take" in capsys.readouterr().out
    assert main(["test", str(path), "--update"]) == 0
    assert "updated 2 snapshot(s)" in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    assert "# the bundled demo" in text and "# snapshots: written by --update" in text
    assert 'text = ""' not in text and "schema = {}" not in text
    assert main(["test", str(path)]) == 0, capsys.readouterr().out
    again = path.read_text(encoding="utf-8")
    assert main(["test", str(path), "--update"]) == 0
    assert path.read_text(encoding="utf-8") == again  # nothing differs, nothing is written


def test_k_and_era_choose_cases(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(
        tmp_path, PASSING + '\n[[case]]\nname = "new era only"\ntool = "t"\neras = ["2026-07-28"]\n'
    )
    assert main(["test", str(path), "--collect-only", "-k", "search or only"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{path}::search finds three bugs[2025-11-25]",
        f"{path}::search finds three bugs[2026-07-28]",
        f"{path}::new era only[2026-07-28]",
        "3 case(s) in 1 file(s)",
    ]
    assert (
        main(["test", str(path), "--collect-only", "--era", "2025-11-25", "-k", "not declining"])
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"{path}::new era only[2025-11-25]  (skip: runs on 2026-07-28 only)"
    assert main(["test", str(path), "-k", "(oops"]) == 2
    assert "-k '(oops': a parenthesis is not closed" in capsys.readouterr().err


def test_help_documents_the_file_and_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", "--help"]) == 0
    out = capsys.readouterr().out
    for part in (
        "--junit-xml",
        "--update",
        "-k EXPR",
        "--era",
        "-j N",
        "a first test file",
        "answer_refused",
        "exit codes",
        "mcptest.schema.json",
    ):
        assert part in out, part


def test_a_server_that_goes_away_mid_call_and_the_next_case_gets_a_fresh_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = Path(__file__).resolve().parents[1] / "fixtures" / "raw_server.py"
    script = tmp_path / "script.json"
    text = {"content": [{"type": "text", "text": "fine"}]}
    script.write_text(
        json.dumps(
            {
                "tools": [
                    {"name": "crash", "inputSchema": {"type": "object"}},
                    {"name": "ok", "inputSchema": {"type": "object"}},
                ],
                "on_call": {"crash": [{"exit": 3}]},
                "results": {"ok": {"result": text}},
            }
        ),
        encoding="utf-8",
    )
    path = _file(
        tmp_path,
        f'eras = ["2025-11-25"]\n[server]\ncommand = ["{sys.executable}", "{raw}", "--script", '
        f'"{script}"]\n\n[[case]]\nname = "crash"\ntool = "crash"\n'
        'expect = { outcome = "connection_lost" }\n\n'
        '[[case]]\nname = "after"\ntool = "ok"\nexpect = { text = "fine" }\n',
    )
    assert main(["test", str(path)]) == 0, capsys.readouterr().out


def test_a_bug_in_one_case_is_that_case_s_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp_tui.headless import testrun

    calls = iter([RuntimeError("boom"), None])

    def flaky(expect: object, seen: object) -> list[object]:
        error = next(calls)
        if error is not None:
            raise error
        return []

    monkeypatch.setattr(testrun, "check", flaky)
    path = _file(
        tmp_path, PASSING.replace('eras = ["2025-11-25", "2026-07-28"]', 'eras = ["auto"]')
    )
    assert main(["test", str(path)]) == 3
    out = capsys.readouterr().out
    assert "mcp-tui could not run it: RuntimeError('boom')" in out and "Traceback" not in out
    assert "1 passed, 1 error" in out


def test_log_keeps_every_message_of_every_connection(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, PASSING)
    log = tmp_path / "traffic.jsonl"
    assert main(["test", str(path), "--log", str(log), "-q"]) == 0, capsys.readouterr().out
    entries = [json.loads(line) for line in log.read_text(encoding="ascii").splitlines()]
    assert {e["server"] for e in entries} == {"demo@2025-11-25", "demo@2026-07-28"}
    calls = [e for e in entries if e["dir"] == "out" and e["message"].get("method") == "tools/call"]
    assert len(calls) == 5  # on 2026-07-28 the form's answer comes with a second tools/call
    assert any(
        e["dir"] == "in" and e["message"].get("method") == "elicitation/create" for e in entries
    )


def test_an_xfail_case_whose_expectations_all_hold_is_an_xpass_that_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(
        tmp_path,
        """\
server = "demo"
eras = ["2025-11-25"]

[[case]]
name = "fixed since"
tool = "delete_project"
arguments = { name = "payments-api" }
answers = [{ action = "decline" }]
xfail = "the demo used to delete it"
expect = { text_contains = "Kept payments-api" }
""",
    )
    junit = tmp_path / "junit.xml"
    assert main(["test", str(path), "--junit-xml", str(junit)]) == 1
    out = capsys.readouterr().out
    assert f"XPASS {path}::fixed since[2025-11-25]" in out
    assert "expected to fail (the demo used to delete it), but every expectation held" in out
    assert "1 xpassed in" in out
    [suite] = list(JUnitXml.fromfile(str(junit)))
    assert suite.failures == 1 and suite.skipped == 0
    [case] = list(suite)
    [failure] = case.result
    assert isinstance(failure, Failure)
    assert "passed unexpectedly" in (failure.message or "")


MODERN_ONLY_SCRIPT = {
    "refuse": {
        "initialize": {
            "code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"},
        }
    },
    "discover": {
        "supportedVersions": ["2026-07-28"],
        "capabilities": {"tools": {}},
        "resultType": "complete",
        "ttlMs": 0,
        "cacheScope": "public",
    },
    "tools": [{"name": "ok", "inputSchema": {"type": "object"}}],
    "results": {"ok": {"result": {"content": [{"type": "text", "text": "fine"}]}}},
}


def test_era_pins_the_era_and_auto_is_not_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Against a server that speaks only 2026-07-28, ``auto`` passes (it falls back) and
    ``--era 2025-11-25`` cannot connect: the pinned era is the one asked for."""
    raw = Path(__file__).resolve().parents[1] / "fixtures" / "raw_server.py"
    script = tmp_path / "script.json"
    script.write_text(json.dumps(MODERN_ONLY_SCRIPT), encoding="utf-8")
    path = _file(
        tmp_path,
        f'[server]\ncommand = ["{sys.executable}", "{raw}", "--script", "{script}"]\n\n'
        '[[case]]\nname = "ok"\ntool = "ok"\nexpect = { text = "fine" }\n',
    )
    assert main(["test", str(path), "--json"]) == 0
    [case] = json.loads(capsys.readouterr().out)["cases"]
    assert case["era"] == "auto" and case["observed"]["protocolVersion"] == "2026-07-28"
    assert main(["test", str(path), "--era", "2026-07-28", "--json"]) == 0
    [case] = json.loads(capsys.readouterr().out)["cases"]
    assert case["era"] == "2026-07-28" and case["observed"]["protocolVersion"] == "2026-07-28"
    assert main(["test", str(path), "--era", "2025-11-25"]) == 3
    out = capsys.readouterr().out
    assert f"ERROR {path}::ok[2025-11-25]" in out and "could not be started" in out
