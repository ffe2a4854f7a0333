"""Headless ``call`` and the protocol era (``session/era.py``): a documented ``ctx.elicit()`` server
answers in the default mode, and a call that fails because of the era says how to fix it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcp_tui.cli import main as cli

SDK_SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "elicit_server.py"
COMMAND = ["--", sys.executable, str(SDK_SERVER)]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def test_ctx_elicit_shows_its_form_in_the_default_mode(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(["call", "book_table", "--elicit", "accept-defaults", *COMMAND], capsys)
    assert code == 0, err
    assert json.loads(out) == {
        "action": "accept",
        "content": {"name": "Ada", "party": 2, "terrace": False},
    }
    assert 'elicitation #1 (form): "Who is the table for?"' in err
    assert "--mode" not in err


def test_an_era_failure_prints_the_fix_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["call", "book_table", "--mode", "2026-07-28", "--elicit", "accept-defaults"]
    code, out, err = run([*argv, *COMMAND], capsys)
    assert code == 1 and out == ""
    lines = err.splitlines()
    failed = next(i for i, line in enumerate(lines) if "the call failed: -32600" in line)
    assert lines[failed + 1] == (
        "mcp-tui: This server asks questions with server-initiated requests, which 2026-07-28 "
        'connections cannot carry: run again with --mode legacy (or mode = "legacy" in the '
        "config)."
    )
