"""``mcp-tui test --update``: rewrite the snapshot expectations that differ with what came.

Snapshots are the expectations that hold a whole value: ``text``, ``structured`` and an
elicitation request's ``schema``. Like a snapshot-testing library, ``--update`` writes what the
server sent into the key that differed (only keys already written: a snapshot is taken by writing
the key first, e.g. ``text = ""``), in place, keeping the file's comments and layout
(``testbench/writer.py``). Regexes, ``contains``, pointers, counts and outcomes are statements a
person wrote, and are never rewritten. A case run on several eras whose eras disagree on a value
is not updated (the message says so): a snapshot cannot hold both.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from mcp_tui.config.text import KeyPath, format_key_path
from mcp_tui.testbench.compare import Failure
from mcp_tui.testbench.result import CaseResult
from mcp_tui.testbench.writer import set_values


def is_snapshot(failure: Failure) -> bool:
    key = failure.key
    return key in (("text",), ("structured",)) or (
        len(key) == 3 and key[0] == "elicitations" and key[2] == "schema"
    )


def update_snapshots(results: Sequence[CaseResult], report: TextIO) -> list[CaseResult]:
    """Write the differing snapshots; the results with those failures taken off (a case whose
    only failures were snapshots now passes)."""
    wanted: dict[Path, dict[KeyPath, list[Any]]] = {}
    for result in results:
        seen = result.observed
        for failure in result.failures:
            if failure.key == ("structured",) and (seen is None or not seen.has_structured):
                continue  # nothing came to take a snapshot of (the failure stays)
            if is_snapshot(failure):
                key = ("case", result.plan.index, "expect", *failure.key)
                wanted.setdefault(result.plan.file.path, {}).setdefault(key, []).append(failure.got)
    refused: set[tuple[Path, KeyPath]] = set()
    for path, keys in wanted.items():
        updates: list[tuple[KeyPath, Any]] = []
        for key, values in keys.items():
            distinct = {json.dumps(v, sort_keys=True) for v in values}
            if len(distinct) > 1:
                refused.add((path, key))
                print(
                    f"not updated: {path}: {format_key_path(key)} differs between eras",
                    file=report,
                )
            elif values[0] is None:
                refused.add((path, key))
                print(f"not updated: {path}: {format_key_path(key)}: nothing came", file=report)
            else:
                updates.append((key, values[0]))
        if updates:
            set_values(path, updates)
            print(f"updated {len(updates)} snapshot(s) in {path}", file=report)
    out: list[CaseResult] = []
    for result in results:
        path = result.plan.file.path
        written = wanted.get(path, {})
        paths: list[KeyPath] = [
            ("case", result.plan.index, "expect", *f.key) for f in result.failures
        ]
        kept = [
            f
            for f, key in zip(result.failures, paths, strict=True)
            if not is_snapshot(f) or (path, key) in refused or key not in written
        ]
        if len(kept) == len(result.failures):
            out.append(result)
            continue
        status = result.status
        if status == "failed" and not kept:
            status = "passed"
        out.append(replace(result, failures=kept, status=status))
    return out
