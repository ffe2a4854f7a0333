"""``mcp-tui check --fuzz`` against a server with planted bugs: found, shrunk, and nothing else
called (a tool that is neither named nor read-only is never touched)."""

from __future__ import annotations

import json
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
