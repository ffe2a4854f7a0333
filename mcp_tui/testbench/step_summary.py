"""``mcp-tui test`` on GitHub Actions: the run as Markdown on the job's summary page
(``$GITHUB_STEP_SUMMARY``): the counts, a table of the files (cases, each status, eras, time)
and a table of what did not pass, each failure with its first difference.

GitHub renders the file as GitHub Flavored Markdown, HTML included, so nothing a server sent may
reach it as Markdown: every such string (and every name a test file gives, which the table must
survive too) is one code span (:func:`code_cell`), where links, images, emphasis and HTML are
plain text. Its control characters and line breaks are shown escaped
(:func:`~mcp_tui.untrusted.one_line`: a table row is one line), its ``|`` escaped as GFM asks
inside a table (``\\|``, also within a code span), and the span's backticks are longer than any
run of backticks inside.

Values taken from the environment are masked before any report is written (the run masks its
results once; every report, this one included, is written from the masked results).

Pure: no SDK, no environment reads (``cli/runtests.py`` passes the workspace and the file).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from mcp_tui.testbench.compare import Failure, as_text
from mcp_tui.testbench.github import repository_path
from mcp_tui.testbench.report import counts
from mcp_tui.testbench.result import CaseResult
from mcp_tui.untrusted import one_line

#: At most this many rows in the failures table (GitHub keeps 1 MiB of summary per step).
MAX_FAILURE_ROWS = 100
#: At most this many characters of one cell's text.
CELL_LIMIT = 300

_BACKTICKS = re.compile("`+")


def code_cell(text: object, *, limit: int = CELL_LIMIT) -> str:
    """``text`` as one code span that fits in a GFM table cell and renders as ``text`` (escaped
    as :func:`~mcp_tui.untrusted.one_line` shows it); empty text is an empty cell."""
    shown = one_line(text, limit=limit).replace("|", "\\|")
    if not shown:
        return ""
    longest = max((len(run) for run in _BACKTICKS.findall(shown)), default=0)
    fence = "`" * (longest + 1)
    # CommonMark strips one space from each end of a span that has one at both ends (unless it
    # is all spaces): a span that starts or ends with a backtick needs that space, and one that
    # starts or ends with a space gets one more, which is stripped again.
    pad = bool(shown.strip(" ")) and (shown[0] in "` " or shown[-1] in "` ")
    return f"{fence} {shown} {fence}" if pad else f"{fence}{shown}{fence}"


def summary_markdown(results: Sequence[CaseResult], seconds: float, workspace: Path) -> str:
    """The Markdown of one run (it ends with a blank line: runs append one after another)."""
    bad = [r for r in results if r.bad]
    mark = "❌" if bad else "✅"
    lines = [f"### {mark} mcp-tui test: {counts(results)} in {seconds:.2f} s", ""]
    lines += _files_table(results, workspace)
    if bad:
        lines += ["", "#### What did not pass", ""]
        lines += _failures_table(bad, workspace)
    lines.append("")
    return "\n".join(lines) + "\n"


def _files_table(results: Sequence[CaseResult], workspace: Path) -> list[str]:
    by_file: dict[Path, list[CaseResult]] = {}
    for result in results:
        by_file.setdefault(result.plan.file.path, []).append(result)
    rows = [
        "| test file | cases | passed | failed | errors | skipped | eras | time |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |",
    ]
    for path, rs in by_file.items():
        tally = Counter(r.status for r in rs)
        eras = ", ".join(sorted({r.plan.era for r in rs}))
        cells = [
            code_cell(repository_path(path, workspace)),
            str(len(rs)),
            str(tally["passed"] + tally["xfailed"]),
            str(tally["failed"] + tally["xpassed"]),
            str(tally["error"]),
            str(tally["skipped"]),
            code_cell(eras),
            f"{sum(r.seconds for r in rs):.2f} s",
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def _failures_table(bad: Sequence[CaseResult], workspace: Path) -> list[str]:
    rows = [
        "| case | era | where | what failed | first difference |",
        "| --- | --- | --- | --- | --- |",
    ]
    entries = [entry for result in bad for entry in _entries(result, workspace)]
    for case, era, where, what, difference in entries[:MAX_FAILURE_ROWS]:
        rows.append(f"| {case} | {era} | {where} | {what} | {difference} |")
    if len(entries) > MAX_FAILURE_ROWS:
        more = len(entries) - MAX_FAILURE_ROWS
        rows += ["", f"... and {more} more: the job's log and the JUnit report hold every one."]
    return rows


def _entries(result: CaseResult, workspace: Path) -> list[tuple[str, str, str, str, str]]:
    plan = result.plan
    file = repository_path(plan.file.path, workspace)
    case, era = code_cell(plan.case.name), code_cell(plan.era)

    def where(*key: str | int) -> str:
        line = plan.file.line_of("case", plan.index, *key)
        return code_cell(f"{file}:{line}" if line is not None else file)

    if result.status == "error":
        first = (result.message or "no reason given").splitlines() or [""]
        return [(case, era, where(), "could not run", code_cell(first[0]))]
    if result.status == "xpassed":
        why = f"expected to fail ({plan.case.xfail}), but every expectation held"
        return [(case, era, where("xfail"), code_cell(why), "")]
    return [
        (
            case,
            era,
            where("expect", *failure.key),
            code_cell(failure.summary),
            first_difference(failure),
        )
        for failure in result.failures
    ]


def first_difference(failure: Failure) -> str:
    """Where expected and got first part: the two values when both are one line, else the first
    line that differs with its number, as two code spans on two lines of the cell."""
    want, have = as_text(failure.expected), as_text(failure.got)
    wanted, had = want.splitlines() or [""], have.splitlines() or [""]
    if len(wanted) == 1 and len(had) == 1:
        pair = (f"expected: {want}", f"got: {have}")
    else:
        at = next(
            (i for i in range(max(len(wanted), len(had))) if _line(wanted, i) != _line(had, i)),
            0,
        )
        pair = (
            f"line {at + 1}, expected: {_line(wanted, at) or '(no line)'}",
            f"line {at + 1}, got: {_line(had, at) or '(no line)'}",
        )
    return "<br>".join(code_cell(text) for text in pair)


def _line(lines: list[str], index: int) -> str | None:
    return lines[index] if index < len(lines) else None


def append_step_summary(path: Path, markdown: str) -> None:
    """Append to the job summary file (each step's summary is the file's content at its end)."""
    with path.open("a", encoding="utf-8") as file:
        file.write(markdown)
