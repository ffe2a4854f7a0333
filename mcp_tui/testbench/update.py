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
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from mcp_tui.config.text import KeyPath, format_key_path
from mcp_tui.testbench.json_equal import json_equal
from mcp_tui.testbench.result import CaseResult
from mcp_tui.testbench.writer import set_values
from mcp_tui.untrusted import one_line

CaseKey = tuple[Path, int]


def update_snapshots(results: Sequence[CaseResult], report: TextIO) -> list[CaseResult]:
    """Write the differing snapshots of every case that then passes; the results with those
    failures taken off (such a case now passes), and the others told why they were not."""
    runs_of: dict[CaseKey, list[CaseResult]] = {}
    for result in results:
        runs_of.setdefault((result.plan.file.path, result.plan.index), []).append(result)
    writes: dict[Path, list[tuple[KeyPath, Any]]] = {}
    updated: set[CaseKey] = set()
    refused: dict[CaseKey, str] = {}
    for (path, index), runs in runs_of.items():
        if not any(_snapshot_key(f.key) for run in runs for f in run.failures):
            continue  # nothing for --update here: the report says what failed
        updates, why = _updates(index, runs)
        if why is not None:
            refused[(path, index)] = why
            plan = runs[0].plan
            where = plan.file.where("case", index)
            print(f"not updated: {where} {one_line(plan.case.name)}: {why}", file=report)
            continue
        writes.setdefault(path, []).extend(updates)
        updated.add((path, index))
    for path, updates in writes.items():
        set_values(path, updates)
        print(f"updated {len(updates)} snapshot(s) in {path}", file=report)
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
    return out


def _snapshot_key(key: tuple[str | int, ...]) -> bool:
    """A key that holds a snapshot, whether or not something came to write into it."""
    return key in (("text",), ("structured",)) or (
        len(key) == 3 and key[0] == "elicitations" and key[2] == "schema"
    )


def _updates(
    index: int, runs: Sequence[CaseResult]
) -> tuple[list[tuple[KeyPath, Any]], str | None]:
    """The (key, value) writes of one case, or why it is not updated."""
    ran = [run for run in runs if run.status != "skipped"]
    several = len({run.plan.era for run in ran}) > 1
    case = ran[0].plan.case
    if case.xfail is not None:
        return [], "the case is expected to fail (xfail): a new snapshot would make it pass"
    reasons: list[str] = []
    for run in ran:
        at = f"[{run.plan.era}] " if several else ""
        if run.status == "error":
            reasons.append(f"{at}it could not run: {one_line(run.message or 'error', limit=200)}")
        reasons += [f"{at}{one_line(f.summary, limit=200)}" for f in run.failures if not f.snapshot]
    if reasons:
        return [], "; ".join(dict.fromkeys(reasons))
    # Every era the case ran on must agree on each snapshot that differed: an era where it held
    # still has the old value, which the new one would break.
    got: dict[KeyPath, list[Any]] = {}
    for run in ran:
        for failure in run.failures:
            got.setdefault(("case", index, "expect", *failure.key), []).append(failure.got)
    for key, values in got.items():
        if len(values) != len(ran) or not all(json_equal(v, values[0]) for v in values):
            return [], f"{format_key_path(key)} differs between eras"
    return [(key, values[0]) for key, values in got.items()], None
