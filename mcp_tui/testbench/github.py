"""``mcp-tui test`` on GitHub Actions: one ``::error`` annotation per failed expectation, at the
line of the test file that holds it, so a failure shows on the file in the pull request.

The runner reads workflow commands from every line a step prints (stdout and stderr): a line that
starts, after leading whitespace, with ``::`` is a command (``TryParseV2``), and so is a line that
holds ``##[`` anywhere (the legacy form, still parsed: ``TryParse``). A server's text is printed
by the run's report (a failure's message, an error quoted from stderr), so a server could end the
step's annotations (``##[stop-commands]``), raise its own, or mask words. Two rules make that
impossible:

- while the run prints, command processing is paused with ``::stop-commands::TOKEN`` (GitHub's
  documented way to print untrusted text) and resumed with ``::TOKEN::``; the token is random,
  so no server can guess it and resume early;
- the annotations are written after the resume, one line each: everything a server sent in them
  is shown with its control characters escaped (:func:`~mcp_tui.untrusted.visible`, which also
  escapes every line and paragraph separator) and then escaped as the runner's format says
  (``%``, ``\\r``, ``\\n``; in properties also ``:`` and ``,``), so it can never end the line.

Values taken from the environment are masked before any report is written (the run masks its
results once; every report, this one included, is written from the masked results).

Pure: no SDK, no environment reads (``cli/runtests.py`` passes the workspace).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from mcp_tui.testbench.compare import Failure, diff_text
from mcp_tui.testbench.result import CaseResult
from mcp_tui.untrusted import one_line, visible

#: At most this many lines of a diff in one annotation (the summary and the log hold the rest).
ANNOTATION_DIFF_LINES = 20
#: At most this many characters of one annotation's message.
ANNOTATION_LIMIT = 4000

Level = Literal["error", "warning", "notice"]


def escape_data(text: str) -> str:
    """A command's message, as the runner unescapes it (``%``, CR and LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command's property value (``file``, ``title``): the message's escapes, ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def mask_lines(values: Iterable[str]) -> list[str]:
    """``::add-mask::`` for each line of each value (the runner masks line by line): what a run
    took from the environment, hidden by GitHub in the rest of the job's log."""
    return [
        f"::add-mask::{escape_data(line)}"
        for value in values
        for line in value.splitlines()
        if line.strip()
    ]


def workflow_command(level: Level, message: str, *, file: str, line: int | None, title: str) -> str:
    """One ``::error file=…,line=…,title=…::message`` line (``message`` and ``title`` already
    shown safely: :func:`annotations` does it)."""
    props = [f"file={escape_property(file)}"]
    if line is not None:
        props.append(f"line={line}")
    props.append(f"title={escape_property(title)}")
    return f"::{level} {','.join(props)}::{escape_data(message)}"


def repository_path(path: Path, workspace: Path) -> str:
    """``path`` relative to the repository's root (``GITHUB_WORKSPACE``), with ``/``, as GitHub
    places annotations; a file outside it keeps its path (GitHub then shows the annotation on the
    run only)."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path(os.path.abspath(workspace))).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass(frozen=True)
class CommandPause:
    """Workflow commands off while the run prints what servers sent, back on for the
    annotations."""

    token: str = field(default_factory=lambda: f"mcp-tui-{secrets.token_hex(16)}")

    @property
    def stop(self) -> str:
        return f"::stop-commands::{self.token}"

    @property
    def resume(self) -> str:
        return f"::{self.token}::"


def annotation_lines(results: Iterable[CaseResult], workspace: Path) -> list[str]:
    """The ``::error`` lines of a run: one per failed expectation (at its line), one per case
    that could not run or passed against its ``xfail`` (at the case's line)."""
    lines: list[str] = []
    for result in results:
        if result.bad:
            lines += _case_annotations(result, workspace)
    return lines


def _case_annotations(result: CaseResult, workspace: Path) -> list[str]:
    plan = result.plan
    file = repository_path(plan.file.path, workspace)
    title = f"mcp-tui test: {one_line(plan.case.name, limit=200)} [{plan.era}]"
    case_line = plan.file.line_of("case", plan.index)
    # A setup or teardown step that failed: at the step's line.
    steps = [
        workflow_command("error", _shown(step.heading), file=file, line=step.line, title=title)
        for step in result.steps
    ]
    if result.status == "error":
        if steps:
            return steps
        message = f"could not run: {result.message or 'no reason given'}"
        return [workflow_command("error", _shown(message), file=file, line=case_line, title=title)]
    if result.status == "xpassed":
        message = f"expected to fail ({plan.case.xfail}), but every expectation held"
        line = plan.file.line_of("case", plan.index, "xfail")
        return [
            workflow_command("error", _shown(message), file=file, line=line, title=title),
            *steps,
        ]
    return [
        workflow_command(
            "error",
            _failure_message(failure),
            file=file,
            line=plan.file.line_of("case", plan.index, "expect", *failure.key),
            title=title,
        )
        for failure in result.failures
    ] + steps


def _failure_message(failure: Failure) -> str:
    diff = diff_text(failure.expected, failure.got, diffable=failure.diffable)
    if len(diff) > ANNOTATION_DIFF_LINES:
        more = len(diff) - ANNOTATION_DIFF_LINES
        diff = [*diff[:ANNOTATION_DIFF_LINES], f"... {more} more lines"]
    lines = [one_line(failure.summary, limit=300), *(one_line(d, limit=500) for d in diff)]
    return visible("\n".join(lines), limit=ANNOTATION_LIMIT)


def _shown(text: str) -> str:
    return visible(text, limit=ANNOTATION_LIMIT)
