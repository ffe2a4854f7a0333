"""What ``mcp-tui test`` prints: a line per case as it ends, then a summary where each failure
shows what was expected and what came (a diff, the requests and answers of the call), never a
stack trace. The CI formats read the same records: ``junitxml.py`` (``--junit-xml``) and
``json_report.py`` (``--json``).

Every string that came from a server (result text, messages, errors, stderr) goes through
``untrusted.visible`` before it is printed, line by line, so a test run cannot drive the terminal
or a CI log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from mcp_tui.config.text import KeyPath
from mcp_tui.testbench.compare import diff_text
from mcp_tui.testbench.failure import Failure
from mcp_tui.testbench.load import LoadedFile
from mcp_tui.testbench.observed import Observed
from mcp_tui.testbench.result import CaseResult
from mcp_tui.testbench.steps import StepFailure
from mcp_tui.untrusted import one_line, visible

_LABEL = {
    "passed": "PASS ",
    "failed": "FAIL ",
    "error": "ERROR",
    "skipped": "SKIP ",
    "xfailed": "XFAIL",
    "xpassed": "XPASS",
}
#: At most this many lines of one diff or transcript in the summary.
MAX_LINES = 60


def progress_line(result: CaseResult) -> str:
    took = f" ({result.seconds:.2f} s)" if result.seconds else ""
    why = f" - {one_line(result.message, limit=100)}" if result.status == "skipped" else ""
    return f"{_LABEL[result.status]} {one_line(result.plan.id, limit=400)}{took}{why}"


def failure_report(result: CaseResult) -> list[str]:
    """The lines that explain one case that did not pass."""
    plan = result.plan
    where = plan.file.where("case", plan.index)
    heading = f"{_LABEL[result.status]} {where} {one_line(plan.case.name)} [{plan.era}]"
    lines = [heading]
    if result.status == "error" and not result.steps:
        lines += [f"  {visible(line, limit=500)}" for line in (result.message or "").splitlines()]
        return lines
    if result.status == "xpassed":
        lines.append(
            f"  expected to fail ({one_line(plan.case.xfail)}), but every expectation held"
        )
    lines += _failure_lines(result.failures, plan.file, ("case", plan.index, "expect"))
    if result.not_updated is not None:
        lines.append(
            f"  not updated: {visible(result.not_updated, limit=500, keep_newlines=False)}"
        )
    elif result.status == "failed" and result.failures and all(f.snapshot for f in result.failures):
        lines.append("  only snapshots differ: `mcp-tui test --update` would take what came")
    if result.observed is not None:
        lines += _call_lines(f"{plan.case.kind} {plan.case.target}", result.observed)
    for step in result.steps:
        lines += step_lines(step, plan.file)
    return lines


def steps_report(steps: Sequence[StepFailure], file: LoadedFile) -> str:
    """The failed steps alone (the pytest plugin's setup and teardown errors)."""
    return "\n".join(line for step in steps for line in step_lines(step, file))


def step_lines(step: StepFailure, file: LoadedFile) -> list[str]:
    """A setup or teardown step that failed: why, its expectations that did not hold (when it
    has an ``expect``), and what its call did."""
    lines = [f"  {visible(step.heading, limit=1000, keep_newlines=False)}"]
    lines += [f"    {visible(line, limit=500, keep_newlines=False)}" for line in step.more]
    lines += _failure_lines(step.failures, file, (*step.ref.key, "expect"), indent="    ")
    if step.observed is not None:
        lines += _call_lines(step.call, step.observed, indent="    ")
    return lines


def _failure_lines(
    failures: Sequence[Failure], file: LoadedFile, under: KeyPath, indent: str = "  "
) -> list[str]:
    lines = []
    for failure in failures:
        line = file.line_of(*under, *failure.key)
        at = f" (line {line})" if line is not None else ""
        summary = visible(failure.summary, limit=300, keep_newlines=False)
        lines.append(f"{indent}- {summary}{at}")
        diff = diff_text(failure.expected, failure.got, diffable=failure.diffable)
        lines += _cut([f"{indent}    {visible(d, limit=500, keep_newlines=False)}" for d in diff])
    return lines


def _call_lines(call: str, seen: Observed, indent: str = "  ") -> list[str]:
    """``call: tool book_table -> ok in 0.50 s, protocol 2025-11-25``, its error, the requests
    and answers."""
    era = f", protocol {seen.protocol_version}" if seen.protocol_version else ""
    took = f"{seen.outcome} in {seen.seconds:.2f} s{era}"
    lines = [f"{indent}call: {one_line(call, limit=300)} -> {took}"]
    if seen.error:
        lines.append(f"{indent}error: {visible(seen.error, limit=1000, keep_newlines=False)}")
    lines += [f"{indent}{line.lstrip()}" for line in era_explained(seen.needs_era)]
    if seen.transcript:
        lines.append(f"{indent}requests and answers:")
        lines += _cut(
            [f"{indent}  {line.removeprefix('mcp-tui: ')}" for line in seen.transcript.splitlines()]
        )
    return lines


def era_explained(needs_era: str | None) -> list[str]:
    """Under a call that failed for want of the other era: why, and the fix, as ``check``'s
    X101 says them, and how to keep the case on the era it works on (the docs' CI page
    runs every case on both)."""
    if needs_era not in ("2025-11-25", "2026-07-28"):
        return []
    from mcp_tui.check.eras import ERA_FAILURES

    failing = "2026-07-28" if needs_era == "2025-11-25" else "2025-11-25"
    why, fix = ERA_FAILURES[failing]
    return [
        f"  why (check's X101): {why}",
        f'  fix: {fix}, or keep the case on {needs_era}: eras = ["{needs_era}"]',
    ]


def _cut(lines: list[str]) -> list[str]:
    if len(lines) <= MAX_LINES:
        return lines
    return [*lines[:MAX_LINES], f"      ... {len(lines) - MAX_LINES} more lines"]


def counts(results: Sequence[CaseResult]) -> str:
    tally: Counter[str] = Counter(r.status for r in results)
    order = ("passed", "failed", "error", "xfailed", "xpassed", "skipped")
    return ", ".join(f"{tally[s]} {s}" for s in order if tally[s]) or "no cases"


def print_summary(results: Sequence[CaseResult], seconds: float, out: TextIO) -> None:
    bad = [r for r in results if r.bad]
    if bad:
        print("", file=out)
        print(f"==== {len(bad)} case(s) did not pass " + "=" * 40, file=out)
        for result in bad:
            print("", file=out)
            print("\n".join(failure_report(result)), file=out)
    print("", file=out)
    print(f"{counts(results)} in {seconds:.2f} s", file=out, flush=True)
