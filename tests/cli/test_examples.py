"""The examples in ``examples/`` pass on both eras through ``mcp-tui test``, and every kind of
expectation is seen failing against the demo with what was expected and what came."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
EVERY_KIND_FAILS = Path(__file__).resolve().parent / "fixtures" / "every_kind_fails.mcptest.toml"


@pytest.mark.timeout(300)
def test_the_examples_pass_on_both_eras(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["test", str(ROOT / "examples"), "-j", "2"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "[2025-11-25]" in out and "[2026-07-28]" in out
    assert "\nFAIL " not in out and "\nERROR" not in out
    assert "2 xfailed" in out  # the expected failure, on each era


#: For each case of the fixture (each kind of expectation): lines its report must hold.
SHOWN = {
    "outcome": ["the call ended ok, not tool_error", "expected: tool_error"],
    "error code": ["another JSON-RPC error code", "expected: -32601", "got: -32602"],
    "error regex": ["the error does not match the regex", "got: -32602 (invalid params)"],
    "text": ["expected: Confirmed: restart the coffee machine.", "got: Confirmed: restart the"],
    "text contains": ['does not contain "coffee"'],
    "text regex": ["does not match the regex", "expected: ^Declined"],
    "structured": ["--- expected", "+++ got", '-  "total": 2', '+  "total": 1'],
    "pointers": ["differs at /issues/0/title", "nothing at /issues/9", "got: (nothing there)"],
    "elicitation count": ["another number of elicitation requests", "#1 form"],
    "elicitation message": ["elicitation request #1: the message does not match"],
    "elicitation schema": ["the requestedSchema differs", '-      "default": true,'],
    "sampling": ["sampling request #1: another maxTokens", "expected: 50", "got: 120"],
    "sent": ["mcp-tui did not send notifications/cancelled", "got: sent: tools/call"],
    "not sent": ["mcp-tui sent notifications/cancelled", "1 x notifications/cancelled"],
    "within": ["over its budget of 0.1 s"],
}


@pytest.mark.timeout(300)
def test_every_kind_of_expectation_fails_with_its_diff(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["test", str(EVERY_KIND_FAILS), "-q"]) == 1
    out = capsys.readouterr().out
    reports = out.split("\nFAIL  ")[1:]
    by_case = {}
    for report in reports:
        heading = report.splitlines()[0]
        name = heading.split(" ", 1)[1].rsplit(" [", 1)[0]
        by_case[name] = report
    assert set(by_case) == set(SHOWN), sorted(by_case)
    for name, parts in SHOWN.items():
        for part in parts:
            assert part in by_case[name], (name, part, by_case[name])
        assert "(line " in by_case[name] and "Traceback" not in by_case[name]
    assert f"{len(SHOWN)} failed in" in out
