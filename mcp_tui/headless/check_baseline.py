"""``check --baseline FILE``: the live listings held against the file, and ``--baseline-update``.

The comparison is pure (``check/changes.py``); this reads the run (which eras were reached) and
writes the file: atomically, the eras this run did not reach kept as they were, so a CI job that
timed out on one era never drops it from the baseline.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from mcp_tui.check import Listing
from mcp_tui.check.report import CheckReport, ServerEras
from mcp_tui.untrusted import one_line


@dataclass(frozen=True)
class BaselineGate:
    """``--baseline FILE`` (and ``--baseline-update``), the file read before anything connects."""

    path: Path
    #: What the file holds (server -> era -> listing); ``None``: no file yet (an update writes it).
    data: dict[str, dict[str, dict[str, Any]]] | None = None
    #: ``--baseline-update``: write what the server offers to the file, show what changed.
    update: bool = False
    #: The file's text as read (a CI annotation names the line of what changed).
    text: str = ""


#: Refusals that say nothing of the era (the SDK's "request timed out", a server that did not
#: start): the era was not reached, so the baseline's listing of it is neither compared nor
#: replaced.
_UNREACHED = ("-32001 ", "could not connect")


def compare_with_baseline(
    report: CheckReport,
    listings: list[Listing],
    servers: list[ServerEras],
    gate: BaselineGate,
    *,
    eras: Sequence[str],
    ignore: Sequence[str],
    err: TextIO,
) -> None:
    """``--baseline``: the changes since the file into the report; ``--baseline-update``: the
    file written again (the eras this run did not reach kept as they were)."""
    from mcp_tui.check.baseline import dumps, snapshot
    from mcp_tui.check.changes import compare_servers
    from mcp_tui.check.report import BaselineResult

    checked = list(eras)
    for seen in servers:
        unanswered = {era: f"timed out, {why}" for era, why in seen.timed_out.items()}
        for era, why in (seen.refused | unanswered).items():
            if era in checked and (era in unanswered or why.startswith(_UNREACHED)):
                checked.remove(era)
                print(
                    f"mcp-tui: {one_line(seen.server)}: {era} not compared with the baseline "
                    f"(not reached: {one_line(why, limit=200)})",
                    file=err,
                )
    live = snapshot(listings)
    old = gate.data or {}
    changes = compare_servers(old, live["servers"], checked_eras=checked, ignore=ignore)
    created = gate.data is None
    report.baseline = BaselineResult(
        str(gate.path), [] if created else changes, updated=gate.update, created=created
    )
    if not gate.update:
        return
    if len(old) == 1 and len(live["servers"]) == 1:
        # One server on each side is the same server (compare_servers says why): keep its eras.
        old = {next(iter(live["servers"])): next(iter(old.values()))}
    for server, listed in live["servers"].items():
        kept = {e: s for e, s in old.get(server, {}).items() if e not in checked}
        live["servers"][server] = {**kept, **listed}
    path = gate.path
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(dumps(live), encoding="utf-8")
    os.replace(partial, path)
    print(f"mcp-tui: wrote {one_line(str(path), limit=300)}", file=err)
