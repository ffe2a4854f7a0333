"""``mcp-tui check --fuzz`` against a server with planted bugs: found, shrunk, and nothing else
called (a tool that is neither named nor read-only is never touched)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from mcp_tui.cli import main as cli

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "fuzz_server.py"


@pytest.mark.timeout(240)
def test_fuzz_finds_the_planted_crash_and_error_with_the_smallest_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "ledger"
    monkeypatch.setenv("FUZZ_LEDGER", str(ledger))
    code = cli.main(
        [
            "check",
            "--json",
            "--fuzz",
            "25",
            "--era",
            "2025-11-25",
            "--",
            sys.executable,
            str(FIXTURE),
        ]
    )
    assert code == 1
    findings = {
        f["rule"]: f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"][0] == "F"
    }
    assert set(findings) == {"F101", "F103"}
    assert findings["F101"]["where"] == "tool lookup"
    assert """--args '{"word": ""}'""" in findings["F101"]["message"]
    assert findings["F103"]["where"] == "tool page"
    assert """--args '{"size": 0}'""" in findings["F103"]["message"]
    assert not ledger.exists(), "a tool that is neither read-only nor named was called"


@pytest.mark.timeout(120)
def test_a_named_tool_is_called_and_others_are_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "ledger"
    monkeypatch.setenv("FUZZ_LEDGER", str(ledger))
    argv = ["check", "--json", "--fuzz", "3", "--tool", "delete_all", "--era", "2025-11-25"]
    cli.main([*argv, "--", sys.executable, str(FIXTURE)])
    findings = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"][0] == "F"]
    assert findings == []  # delete_all takes no arguments: nothing to break, nothing crashed
    assert ledger.read_text().count("called") >= 1


def test_tool_without_fuzz_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "--tool", "x", "--demo"]) == 2
    assert "--fuzz" in capsys.readouterr().err


# ---- what a fuzz run reports (issue: the fuzzer's own rule for "crashed", its calls off --log) --

RAW = Path(__file__).resolve().parents[1] / "fixtures" / "raw_server.py"
READ_ONLY = {"readOnlyHint": True}
SYMBOL = {
    "type": "object",
    "properties": {"symbol": {"type": "string", "maxLength": 5}},
    "required": ["symbol"],
}


def _raw(tmp_path: Path, script: dict[str, object]) -> list[str]:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return ["--", sys.executable, str(RAW), "--script", str(path)]


@pytest.mark.timeout(120)
def test_a_servers_own_32000_is_its_answer_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-32000 starts JSON-RPC's server-error range: a tool may answer with it on a live
    connection. ``call`` and ``test`` read that as an error; so does the fuzzer (F103)."""
    tool = {"name": "flaky_quote", "inputSchema": SYMBOL, "annotations": READ_ONLY}
    error = {"error": {"code": -32000, "message": "quote service unavailable"}}
    target = _raw(tmp_path, {"tools": [tool], "results": {"flaky_quote": error}})
    code = cli.main(["check", "--json", "--fuzz", "3", "--era", "2025-11-25", *target])
    findings = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"][0] == "F"]
    assert [f["rule"] for f in findings] == ["F103"], findings
    assert "quote service unavailable" in findings[0]["message"]
    assert code == 1


@pytest.mark.timeout(120)
def test_every_fuzzed_call_is_in_the_log_and_the_report_ends_with_a_line_per_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = {"name": "echo", "inputSchema": SYMBOL, "annotations": READ_ONLY}
    ok = {"isError": True, "content": [{"type": "text", "text": "no"}]}
    target = _raw(tmp_path, {"tools": [tool], "results": {"echo": {"result": ok}}})
    log = tmp_path / "traffic.jsonl"
    code = cli.main(["check", "--fuzz", "4", "--log", str(log), "--era", "2025-11-25", *target])
    out = capsys.readouterr().out
    assert code == 0, out
    last = out.rstrip().splitlines()[-1]
    match = re.fullmatch(r"fuzz: echo: (\d+) valid \+ (\d+) invalid calls, nothing found", last)
    assert match is not None, out
    made = int(match[1]) + int(match[2])
    logged = [
        line
        for line in map(json.loads, log.read_text(encoding="utf-8").splitlines())
        if line["dir"] == "out"
        and line["message"].get("method") == "tools/call"
        and line["message"]["params"]["name"] == "echo"
    ]
    assert made > 0 and len(logged) == made


@pytest.mark.timeout(60)
def test_a_server_discover_timeout_is_a_timeout_not_a_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server that never answers ``server/discover`` said nothing about 2026-07-28: the era is
    reported as timed out, not as refused (the SDK's -32001 is no answer from the server)."""
    import mcp.client.session

    from mcp_tui.headless import engine

    monkeypatch.setattr(mcp.client.session, "DISCOVER_TIMEOUT_SECONDS", 1.0)
    monkeypatch.setattr(engine, "DEFAULT_CONNECT_TIMEOUT", 4.0)  # the probe is sent again in it
    target = _raw(tmp_path, {"silent": ["server/discover"]})
    cli.main(["check", "--json", *target])
    server = json.loads(capsys.readouterr().out)["servers"][0]
    assert server["eras"] == ["2025-11-25"]
    assert server["refused"] == {}
    assert server["timed_out"] == {
        "2026-07-28": "server/discover got no answer in 4 s (the connect timeout)"
    }


def test_the_report_names_an_era_that_timed_out_as_such() -> None:
    from mcp_tui.check.report import CheckReport, ServerEras

    seen = ServerEras("s", connected=["2025-11-25"], timed_out={"2026-07-28": "no answer in 4 s"})
    text = CheckReport([seen], []).text()
    assert "  2026-07-28: timed out (no answer in 4 s)" in text.splitlines()
    assert "refused" not in text
