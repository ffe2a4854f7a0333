"""``--update`` writes a case's snapshots only when the case then passes: every expectation that
is not a snapshot held, on every era it ran on; otherwise nothing of the case, and why."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.testbench.compare import check
from mcp_tui.testbench.json_report import result_json
from mcp_tui.testbench.load import load_test_file
from mcp_tui.testbench.model import Era
from mcp_tui.testbench.observed import Observed, SeenElicitation, SeenSampling
from mcp_tui.testbench.plan import CasePlan
from mcp_tui.testbench.report import failure_report
from mcp_tui.testbench.result import CaseResult
from mcp_tui.testbench.update import update_snapshots

SCHEMA = {"type": "object", "properties": {"sure": {"type": "boolean"}}}


def run(path: Path, seen: Observed | dict[Era, Observed]) -> list[CaseResult]:
    """Every case of the file against ``seen`` (per era), as the runner reports them."""
    loaded = load_test_file(path)
    by_era = seen if isinstance(seen, dict) else {"2025-11-25": seen}
    out = []
    for index, case in enumerate(loaded.model.case):
        for era, observed in by_era.items():
            failures = check(case.expect, observed)
            status: Any = "failed" if failures else "passed"
            if case.xfail is not None:
                status = "xfailed" if failures else "xpassed"
            out.append(CaseResult(CasePlan(loaded, index, era), status, failures, observed))
    return out


def update(path: Path, seen: Observed | dict[Era, Observed]) -> tuple[list[CaseResult], str]:
    report = io.StringIO()
    results = update_snapshots(run(path, seen), report)
    return results, report.getvalue()


def write(tmp_path: Path, expect: str, extra: str = "") -> Path:
    path = tmp_path / "t.mcptest.toml"
    path.write_text(
        f'server = "demo"  # kept\n\n[[case]]\nname = "c"\ntool = "t"\n{extra}'
        f"[case.expect]\n{expect}",
        encoding="utf-8",
    )
    return path


def test_a_case_expecting_a_tool_error_that_succeeds_keeps_its_text(tmp_path: Path) -> None:
    path = write(tmp_path, 'outcome = "tool_error"\ntext = "No such project"\n')
    before = path.read_text(encoding="utf-8")
    [result], report = update(path, Observed(outcome="ok", text="Deleted it"))
    assert path.read_text(encoding="utf-8") == before
    assert f"not updated: {path}:3 c: the call ended ok, not tool_error" in report
    assert "updated" not in report.replace("not updated", "")
    assert result.status == "failed" and len(result.failures) == 2
    assert result.not_updated == "the call ended ok, not tool_error"
    lines = failure_report(result)
    assert "  not updated: the call ended ok, not tool_error" in lines
    assert not any("would take" in line for line in lines)
    data = result_json(result)
    assert data["not_updated"] == "the call ended ok, not tool_error"
    assert [(f["key"], f["snapshot"]) for f in data["failures"]] == [
        ("outcome", False),
        ("text", True),
    ]


OK = Observed(
    outcome="ok",
    text="new text",
    structured={"total": 1},
    has_structured=True,
    elicitations=(SeenElicitation("form", "Sure?", SCHEMA, action="accept"),),
    sampling=(SeenSampling("hi", max_tokens=10, action="decline"),),
    sent=("tools/call",),
    seconds=0.5,
)


@pytest.mark.parametrize(
    ("statement", "why"),
    [
        ('outcome = "error"', "the call ended ok, not error"),
        ("error_code = -32602", "the call ended ok, not error"),
        ('text_contains = "old"', 'does not contain "old"'),
        ('text_regex = "^old"', "does not match the regex"),
        ('pointers = { "/total" = 2 }', "structuredContent differs at /total"),
        ("elicitation_count = 2", "another number of elicitation requests"),
        ("sampling_count = 0", "another number of sampling requests"),
        ('elicitations = [{ message = "Really?" }]', "elicitation request #1: another message"),
        ('elicitations = [{ action = "decline" }]', "elicitation request #1: answered otherwise"),
        ('sent = ["notifications/cancelled"]', "did not send notifications/cancelled"),
        ('not_sent = ["tools/call"]', "mcp-tui sent tools/call"),
        ("within = 0.1", "over its budget"),
    ],
)
def test_no_snapshot_is_written_while_a_statement_fails(
    tmp_path: Path, statement: str, why: str
) -> None:
    path = write(tmp_path, f'text = "old text"\nstructured = {{ total = 2 }}\n{statement}\n')
    before = path.read_text(encoding="utf-8")
    [result], report = update(path, OK)
    assert path.read_text(encoding="utf-8") == before
    assert "not updated:" in report and why in report, report
    assert result.not_updated is not None and why in result.not_updated
    assert any(f.key == ("text",) for f in result.failures)  # the snapshot's failure stays


def test_only_snapshot_keys_are_rewritten(tmp_path: Path) -> None:
    """The request's ``schema`` is a snapshot; its ``message`` and ``action`` (statements that
    held) stay as written, as do the comments."""
    path = write(
        tmp_path,
        'text = "old text"  # the text\nstructured = { total = 2 }\n'
        'elicitations = [{ message = "Sure?", action = "accept", schema = {} }]\n'
        "elicitation_count = 1\n",
    )
    [result], report = update(path, OK)
    assert f"updated 3 snapshot(s) in {path}" in report
    assert result.status == "passed" and result.failures == [] and result.not_updated is None
    text = path.read_text(encoding="utf-8")
    assert "# kept" in text and "# the text" in text
    [case] = load_test_file(path).model.case
    assert case.expect.text == "new text" and case.expect.structured == {"total": 1}
    [request] = case.expect.elicitations or []
    assert request.schema_ == SCHEMA
    assert (request.message, request.action) == ("Sure?", "accept")
    assert run(path, OK)[0].failures == []


def test_a_snapshot_only_failure_says_update_would_take_it(tmp_path: Path) -> None:
    path = write(tmp_path, 'text = "old text"\nelicitation_count = 1\n')
    [result] = run(path, OK)
    assert "  only snapshots differ: `mcp-tui test --update` would take what came" in (
        failure_report(result)
    )
    path = write(tmp_path, 'text = "old text"\nelicitation_count = 3\n')
    [result] = run(path, OK)
    assert not any("would take" in line for line in failure_report(result))


def test_eras_that_disagree_or_where_it_held_keep_the_snapshot(tmp_path: Path) -> None:
    path = write(tmp_path, 'text = "old text"\n')
    before = path.read_text(encoding="utf-8")
    other = Observed(outcome="ok", text="other text")
    _, report = update(path, {"2025-11-25": OK, "2026-07-28": other})
    assert "not updated:" in report and "expect.text differs between eras" in report
    held = Observed(outcome="ok", text="old text")
    _, report = update(path, {"2025-11-25": OK, "2026-07-28": held})
    assert "expect.text differs between eras" in report
    assert path.read_text(encoding="utf-8") == before
    [a, b], report = update(path, {"2025-11-25": OK, "2026-07-28": OK})
    assert f"updated 1 snapshot(s) in {path}" in report
    assert a.status == b.status == "passed"


def test_a_failing_era_blocks_the_other(tmp_path: Path) -> None:
    path = write(tmp_path, 'text = "old text"\nelicitation_count = 1\n')
    before = path.read_text(encoding="utf-8")
    none = Observed(outcome="ok", text="new text")
    _, report = update(path, {"2025-11-25": OK, "2026-07-28": none})
    assert "[2026-07-28] another number of elicitation requests" in report
    assert path.read_text(encoding="utf-8") == before


def test_an_xfail_case_and_one_that_could_not_run_are_not_updated(tmp_path: Path) -> None:
    path = write(tmp_path, 'text = "old text"\n', extra='xfail = "known"\n')
    before = path.read_text(encoding="utf-8")
    [result], report = update(path, OK)
    assert "expected to fail (xfail)" in report and result.status == "xfailed"
    assert path.read_text(encoding="utf-8") == before

    path = write(tmp_path, 'text = "old text"\n')
    before = path.read_text(encoding="utf-8")
    loaded = load_test_file(path)
    good = run(path, OK)
    broken = CaseResult(CasePlan(loaded, 0, "2026-07-28"), "error", message="no server\nboom")
    report = io.StringIO()
    update_snapshots([*good, broken], report)
    assert "[2026-07-28] it could not run: no server" in report.getvalue()
    assert path.read_text(encoding="utf-8") == before


def test_nothing_to_take_is_no_snapshot(tmp_path: Path) -> None:
    """A ``structured`` snapshot of a result without structuredContent (a ``schema`` of a URL
    request) has nothing to write: the case is not updated, and says so."""
    path = write(tmp_path, "structured = { total = 2 }\n")
    [result], report = update(path, Observed(outcome="ok", text="t"))
    assert "not updated:" in report and "no structuredContent came" in report
    assert result.failures[0].snapshot is False


TODO_A = Observed(
    outcome="ok",
    text='Added "milk" (#3)',
    structured={"id": 3, "title": "milk"},
    has_structured=True,
)
TODO_B = Observed(
    outcome="ok",
    text='Added "milk" (#4)',
    structured={"id": 4, "title": "milk"},
    has_structured=True,
)


def test_update_writes_a_matcher_for_values_that_change_per_run(tmp_path: Path) -> None:
    path = write(tmp_path, 'text = ""\nstructured = {}\n')
    # the eras saw other ids: they agree on everything else
    results, report = update(path, {"2025-11-25": TODO_A, "2026-07-28": TODO_B})
    assert f"updated 2 snapshot(s) in {path}" in report, report
    assert all(r.status == "passed" for r in results)
    text = path.read_text(encoding="utf-8")
    assert "\ntext = " not in text
    assert "text_regex = '^Added \"milk\" \\(#[0-9]+\\)$' # a regex: an id after #" in text
    assert 'pointers_regex = {"/id" = "^[0-9]+$"} # an id after # changes per run' in text
    [case] = load_test_file(path).model.case
    assert case.expect.structured == {"id": 3, "title": "milk"}
    again = Observed(**{**TODO_A.__dict__, "text": 'Added "milk" (#5)'})
    assert run(path, again)[0].failures == []
    # a person edits the literal back: it is checked exactly, and not taken again
    path.write_text(
        text.replace(
            text[text.index("text_regex") : text.index("\n", text.index("text_regex"))],
            'text = "Added \\"milk\\" (#3)"',
        ),
        encoding="utf-8",
    )
    [result] = run(path, again)
    assert [f.key for f in result.failures] == [("text",)]


def test_a_case_with_its_own_text_regex_keeps_its_text(tmp_path: Path) -> None:
    path = write(tmp_path, 'text = ""\ntext_regex = "milk"\n')
    before = path.read_text(encoding="utf-8")
    _, report = update(path, TODO_A)
    assert "an id after # changes per run, and the case has a text_regex of its own" in report
    assert path.read_text(encoding="utf-8") == before


def test_eras_that_disagree_beyond_what_changes_per_run_are_not_updated(tmp_path: Path) -> None:
    path = write(tmp_path, 'text = ""\n')
    other = Observed(outcome="ok", text='Added "tea" (#4)')
    _, report = update(path, {"2025-11-25": TODO_A, "2026-07-28": other})
    assert "expect.text differs between eras" in report
    literal = Observed(outcome="ok", text='Added "milk"')
    _, report = update(path, {"2025-11-25": TODO_A, "2026-07-28": literal})
    assert "expect.text differs between eras" in report
    path = write(tmp_path, "structured = {}\n")
    tea = Observed(**{**TODO_B.__dict__, "structured": {"id": 4, "title": "tea"}})
    _, report = update(path, {"2025-11-25": TODO_A, "2026-07-28": tea})
    assert "expect.structured differs between eras" in report


def test_a_json_file_gets_the_matcher_too(tmp_path: Path) -> None:
    path = tmp_path / "t.mcptest.json"
    path.write_text(
        json.dumps(
            {"server": "demo", "case": [{"name": "c", "tool": "t", "expect": {"text": ""}}]}
        ),
        encoding="utf-8",
    )
    _, report = update(path, TODO_A)
    assert "updated 1 snapshot(s)" in report
    [case] = json.loads(path.read_text(encoding="utf-8"))["case"]
    assert case["expect"] == {"text_regex": '^Added "milk" \\(#[0-9]+\\)$'}
