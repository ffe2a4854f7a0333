"""``mcp-tui test --update``: rewrite the snapshot expectations that differ with what came.

Snapshots are the expectations that hold a whole value: ``text``, ``structured`` and an
elicitation request's ``schema`` (a :class:`Failure` says whether it is one). Like a
snapshot-testing library, ``--update`` writes what the server sent into the key that differed
(only keys already written: a snapshot is taken by writing the key first, e.g. ``text = ""``), in
place, keeping the file's comments and layout (``testbench/writer.py``). Regexes, ``contains``,
pointers, counts and outcomes are statements a person wrote, and are never rewritten.

A case is updated whole or not at all, and only when it would then pass: every expectation of
the case that is not a snapshot held, on every era it ran on. A case expecting ``tool_error``
whose call now succeeds keeps its old text, since the success text under ``outcome =
"tool_error"`` would be a case that fails whatever the server does; the report says why
("not updated: the call ended ok, not tool_error"). Nor is a case updated whose eras disagree on a
snapshot (a snapshot cannot hold both), one that could not run, or an ``xfail`` case (a new
snapshot would make it an XPASS).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from mcp_tui.config.text import KeyPath, format_key_path
from mcp_tui.testbench.json_equal import json_equal
from mcp_tui.testbench.model import Expect
from mcp_tui.testbench.observed import Observed
from mcp_tui.testbench.redact import NOTHING, RedactingWriter, Redactor
from mcp_tui.testbench.result import CaseResult
from mcp_tui.testbench.volatile import Loosened, request_ids, structured_regexes, text_regex
from mcp_tui.testbench.writer import set_values
from mcp_tui.untrusted import one_line

CaseKey = tuple[Path, int]


def update_snapshots(
    results: Sequence[CaseResult], report: TextIO, redactor: Redactor = NOTHING
) -> list[CaseResult]:
    """Write the differing snapshots of every case that then passes; the results with those
    failures taken off (such a case now passes), and the others told why they were not.

    A snapshot that holds a value the run took from the environment (``redactor``: a server
    echoing a secret) is never written to the file, and what is printed is masked."""
    if redactor:
        report = RedactingWriter(report, redactor)
    runs_of: dict[CaseKey, list[CaseResult]] = {}
    for result in results:
        runs_of.setdefault((result.plan.file.path, result.plan.index), []).append(result)
    writes: dict[Path, Writes] = {}
    updated: set[CaseKey] = set()
    refused: dict[CaseKey, str] = {}
    for (path, index), runs in runs_of.items():
        if not any(_snapshot_key(f.key) for run in runs for f in run.failures):
            continue  # nothing for --update here: the report says what failed
        case_writes, why = _updates(index, runs, redactor)
        if why is not None:
            refused[(path, index)] = why
            plan = runs[0].plan
            where = plan.file.where("case", index)
            print(f"not updated: {where} {one_line(plan.case.name)}: {why}", file=report)
            continue
        writes.setdefault(path, Writes()).add(case_writes)
        updated.add((path, index))
    for path, file_writes in writes.items():
        set_values(
            path, file_writes.values, remove=file_writes.remove, comments=file_writes.comments
        )
        print(f"updated {file_writes.snapshots} snapshot(s) in {path}", file=report)
    out: list[CaseResult] = []
    for result in results:
        key = (result.plan.file.path, result.plan.index)
        if key in refused:
            out.append(replace(result, not_updated=refused[key]))
        elif key in updated:
            kept = [f for f in result.failures if not f.snapshot]
            status = "passed" if result.status == "failed" and not kept else result.status
            out.append(replace(result, failures=kept, status=status))
        else:
            out.append(result)
    report.flush()
    return out


def _snapshot_key(key: tuple[str | int, ...]) -> bool:
    """A key that holds a snapshot, whether or not something came to write into it."""
    return key in (("text",), ("structured",)) or (
        len(key) == 3 and key[0] == "elicitations" and key[2] == "schema"
    )


@dataclass
class Writes:
    """What ``--update`` writes into one file."""

    values: list[tuple[KeyPath, Any]] = field(default_factory=list)
    remove: list[KeyPath] = field(default_factory=list)
    comments: dict[KeyPath, str] = field(default_factory=dict)
    #: How many snapshots these writes take (a ``text`` written as ``text_regex`` is one).
    snapshots: int = 0

    def add(self, other: Writes) -> None:
        self.snapshots += other.snapshots
        self.values += other.values
        self.remove += other.remove
        self.comments.update(other.comments)


def _updates(
    index: int, runs: Sequence[CaseResult], redactor: Redactor
) -> tuple[Writes, str | None]:
    """The writes of one case, or why it is not updated."""
    ran = [run for run in runs if run.status != "skipped"]
    several = len({run.plan.era for run in ran}) > 1
    case = ran[0].plan.case
    if case.xfail is not None:
        return Writes(), "the case is expected to fail (xfail): a new snapshot would make it pass"
    reasons: list[str] = []
    for run in ran:
        at = f"[{run.plan.era}] " if several else ""
        if run.status == "error":
            reasons.append(f"{at}it could not run: {one_line(run.message or 'error', limit=200)}")
        reasons += [f"{at}{one_line(f.summary, limit=200)}" for f in run.failures if not f.snapshot]
    if reasons:
        return Writes(), "; ".join(dict.fromkeys(reasons))
    # Every era the case ran on must agree on each snapshot that differed: an era where it held
    # still has the old value, which the new one would break.
    got: dict[tuple[str | int, ...], list[tuple[Any, Observed]]] = {}
    for run in ran:
        for failure in run.failures:
            if run.observed is not None:
                got.setdefault(failure.key, []).append((failure.got, run.observed))
    writes = Writes()
    for key, values in got.items():
        path: KeyPath = ("case", index, "expect", *key)
        if len(values) != len(ran):
            return Writes(), f"{format_key_path(path)} differs between eras"
        if redactor.finds([v for v, _ in values]):
            return Writes(), (
                f"{format_key_path(path)} holds a value from the environment, which is never "
                "written to a file"
            )
        one = _snapshot(path, values, case.expect)
        if isinstance(one, str):
            return Writes(), one
        writes.add(one)
    return writes, None


def _snapshot(path: KeyPath, values: list[tuple[Any, Observed]], expect: Expect) -> Writes | str:
    """How one snapshot is written: the value, or a matcher for what changes per run in it
    (``volatile.py``); a string says why it is not."""
    first = values[0][0]
    differ = f"{format_key_path(path)} differs between eras"
    at = path[:-1]
    if path[-1] == "text":
        found = [text_regex(v, request_ids(seen)) for v, seen in values]
        if all(f is None for f in found):
            return (
                Writes([(path, first)], snapshots=1)
                if all(v == first for v, _ in values)
                else differ
            )
        regex = found[0]
        if regex is None or any(f is None or f.regex != regex.regex for f in found):
            return differ
        if expect.text_regex is not None:
            return (
                f"{format_key_path(path)}: {regex.says()} per run, and the case has a "
                "text_regex of its own (write the text as a regex there)"
            )
        comment = f'a regex: {regex.says()} per run (text = "..." checks it exactly)'
        key = (*at, "text_regex")
        return Writes([(key, regex.regex)], [path], {key: comment}, snapshots=1)
    if path[-1] == "structured":
        free = dict(expect.pointers_regex or {})
        new: dict[str, str] = {}
        kinds: list[str] = []
        for value, seen in values:
            for pointer, m in structured_regexes(value, seen.text, request_ids(seen)).items():
                if pointer not in free:
                    new.setdefault(pointer, m.regex)
                    kinds += m.kinds
        skip = {*free, *new}
        if not all(json_equal(v, first, skip=skip) for v, _ in values):
            return differ
        if not new:
            return Writes([(path, first)], snapshots=1)
        key = (*at, "pointers_regex")
        comment = f"{Loosened('', tuple(kinds)).says()} per run: these values are matched here"
        return Writes([(path, first), (key, {**free, **new})], [], {key: comment}, snapshots=1)
    if not all(json_equal(v, first) for v, _ in values):
        return differ
    return Writes([(path, first)], snapshots=1)
