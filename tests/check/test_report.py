"""The report's verdict and counts, built by hand (issue 36, item 2: mutants of
``check/report.py`` that passed the suite): which findings and changes make ``check`` exit 1,
with and without ``--strict``, and what the text says about them."""

from __future__ import annotations

import pytest

from mcp_tui.check.changes import Change
from mcp_tui.check.findings import Finding, Listing, Severity
from mcp_tui.check.report import BaselineResult, CheckReport, ServerEras, run_checks, unknown_ids


def at(severity: Severity) -> Finding:
    return Finding("T102", severity, "tool a.b", "", "m", "f", server="srv")


BREAKING = Change("B101", "tool search", "", "gone", server="srv")
COMPATIBLE = Change("B501", "tool find", "", "added", server="srv")


@pytest.mark.parametrize(
    ("findings", "changes", "updated", "plain", "strict"),
    [
        ([], None, False, 0, 0),
        ([at("error")], None, False, 1, 1),
        ([at("warning")], None, False, 0, 1),
        ([at("info")], None, False, 0, 0),
        ([], [BREAKING], False, 1, 1),
        ([], [COMPATIBLE], False, 0, 1),
        ([], [], False, 0, 0),
        # --baseline-update shows the changes, it does not gate on them
        ([], [BREAKING], True, 0, 0),
        ([at("error")], [BREAKING], True, 1, 1),
    ],
)
def test_the_exit_code_of_findings_and_changes(
    findings: list[Finding], changes: list[Change] | None, updated: bool, plain: int, strict: int
) -> None:
    gate = None if changes is None else BaselineResult("b.json", list(changes), updated=updated)
    report = CheckReport([ServerEras("srv", ["2025-11-25"])], findings, baseline=gate)
    assert report.exit_code(strict=False) == plain
    assert report.exit_code(strict=True) == strict


def test_the_changes_are_counted_and_told_by_level() -> None:
    gate = BaselineResult("b.json", [BREAKING, COMPATIBLE, COMPATIBLE])
    assert (gate.count("breaking"), gate.count("compatible")) == (1, 2)
    text = CheckReport([ServerEras("srv", ["2025-11-25"])], [], baseline=gate).text()
    assert "BREAKING (1)" in text and "COMPATIBLE (2)" in text
    assert "1 breaking, 2 compatible changes since b.json" in text
    # the why is told for a breaking change only
    assert text.count("      why: ") == 1, text


def test_the_counts_say_one_and_many_as_english_does() -> None:
    text = CheckReport([ServerEras("srv", ["2025-11-25"])], [at("error")]).text()
    assert text.endswith("1 error, 0 warnings, 0 infos"), text


def test_a_change_rule_s_id_is_a_known_ignore() -> None:
    assert unknown_ids(["b101", "T102", "B999"]) == ["B999"]


def fuzzed_listing(server: str, **found: str) -> Listing:
    tools = [{"tool": name, "valid_calls": 10, "invalid_calls": 10} for name in ("echo", "add")]
    fuzz = [
        {"tool": tool, "kind": kind, "arguments": {"word": "é"}, "detail": "d", "calls": 3}
        for tool, kind in found.items()
    ]
    return Listing(server, "2025-11-25", fuzz=fuzz, fuzzed=tools)


def test_a_line_per_fuzzed_tool_names_only_what_that_tool_did() -> None:
    report = run_checks([fuzzed_listing("srv", add="crash")])
    assert report.fuzzed == [
        "fuzz: echo: 10 valid + 10 invalid calls, nothing found",
        "fuzz: add: 10 valid + 10 invalid calls, found F101",
    ]
    two = run_checks([fuzzed_listing("one"), fuzzed_listing("two", echo="hang")])
    assert two.fuzzed[0] == "fuzz: one: echo: 10 valid + 10 invalid calls, nothing found"
    assert two.fuzzed[2] == "fuzz: two: echo: 10 valid + 10 invalid calls, found F102"


def test_the_reproduce_line_is_ascii_with_sorted_keys() -> None:
    failure = {"tool": "t", "kind": "crash", "arguments": {"b": "é", "a": 1}, "detail": "d"}
    [hit] = [f for f in run_checks([Listing("s", "2025-11-25", fuzz=[failure])]).findings]
    assert """--args '{"a": 1, "b": "\\u00e9"}'""" in hit.message, hit.message
