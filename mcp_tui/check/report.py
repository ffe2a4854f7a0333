"""Running the checks over the listings of every era, merging what repeats, and the report.

One finding seen on two eras is one line that names both. The JSON shape (``--json``) is stable
and documented in the docs (``docs/check/index.md``): ``{"version": 1, "servers": [...],
"findings": [...], "counts": {...}}``; a finding is :meth:`Finding.as_json`. With
``--baseline`` the report also holds the changes since the baseline (``"baseline": {"file",
"updated", "changes", "counts"}``), each :meth:`Change.as_json`, after the findings in the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from mcp_tui.check.change_rules import CHANGE_RULES, LEVELS
from mcp_tui.check.changes import Change
from mcp_tui.check.findings import RULES, SEVERITIES, Finding, Listing, Severity
from mcp_tui.check.fuzzing import fuzz_lines
from mcp_tui.untrusted import one_line

JSON_VERSION = 1


@dataclass
class ServerEras:
    """Which eras a server spoke in this run, and why the others failed."""

    server: str
    connected: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    #: Eras whose handshake got no answer in time (not a refusal: the server said nothing).
    timed_out: dict[str, str] = field(default_factory=dict)
    #: The name a person reads (``session/naming.py``: a generic key gives way to the server's
    #: own name); ``""``: the key, ``server``.
    name: str = ""

    @property
    def shown(self) -> str:
        return self.name or self.server


@dataclass
class BaselineResult:
    """What ``--baseline FILE`` found: the changes since the file (``updated``: the file was
    written again with what the server offers now, so the changes are shown, not gated)."""

    file: str
    changes: list[Change] = field(default_factory=list)
    updated: bool = False
    #: ``--baseline-update`` wrote the file for the first time (nothing to compare).
    created: bool = False

    def count(self, level: str) -> int:
        return sum(1 for c in self.changes if c.level == level)


@dataclass
class CheckReport:
    servers: list[ServerEras]
    findings: list[Finding]
    baseline: BaselineResult | None = None
    #: The last lines: one per tool ``--fuzz`` called, with what was found.
    fuzzed: list[str] = field(default_factory=list)

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def exit_code(self, *, strict: bool) -> int:
        """0 clean, 1 errors or a breaking change (with ``strict``: warnings and any change)."""
        if self.count("error") or (strict and self.count("warning")):
            return 1
        gate = self.baseline
        if (
            gate is not None
            and not gate.updated
            and (gate.count("breaking") or (strict and gate.changes))
        ):
            return 1
        return 0

    def as_json(self) -> dict[str, Any]:
        return {
            "version": JSON_VERSION,
            "servers": [
                {
                    "server": s.server,
                    "name": s.shown,
                    "eras": s.connected,
                    "refused": s.refused,
                    "timed_out": s.timed_out,
                }
                for s in self.servers
            ],
            "findings": [f.as_json() for f in self.findings],
            "counts": {severity: self.count(severity) for severity in SEVERITIES},
            "fuzzed": self.fuzzed,
            **({"baseline": self._baseline_json()} if self.baseline is not None else {}),
        }

    def _baseline_json(self) -> dict[str, Any]:
        gate = self.baseline
        assert gate is not None
        return {
            "file": gate.file,
            "updated": gate.updated,
            "created": gate.created,
            "changes": [c.as_json() for c in gate.changes],
            "counts": {level: gate.count(level) for level in LEVELS},
        }

    def text(self, *, colour: bool = False) -> str:
        """The readable report: the eras, then the findings grouped by severity."""
        lines: list[str] = []
        shown = {s.server: s.shown for s in self.servers}
        for s in self.servers:
            said = ", ".join(s.connected) or "no era"
            lines.append(f"{one_line(s.shown)}: connected on {said}")
            for era, why in s.refused.items():
                lines.append(f"  {era}: refused ({one_line(why, limit=200)})")
            for era, why in s.timed_out.items():
                lines.append(f"  {era}: timed out ({one_line(why, limit=200)})")
        for severity in SEVERITIES:
            group = [f for f in self.findings if f.severity == severity]
            if not group:
                continue
            heading = f"{severity.upper()}S ({len(group)})"
            lines += ["", _paint(heading, severity) if colour else heading]
            for f in group:
                server = f"{one_line(shown.get(f.server, f.server))}: " if len(shown) > 1 else ""
                at = f" {f.pointer}" if f.pointer else ""
                eras = f" [{', '.join(f.eras)}]" if f.eras else ""
                lines.append(f"  {f.rule} {server}{f.where}{at}{eras}")
                lines.append(f"      {f.message}")
                if f.fix:
                    lines.append(f"      fix: {f.fix}")
        counts = ", ".join(
            f"{self.count(s)} {s}{'s' if self.count(s) != 1 else ''}" for s in SEVERITIES
        )
        gate = self.baseline
        if gate is not None and gate.created:
            lines += ["", f"Wrote a new baseline: {one_line(gate.file, limit=200)}."]
        elif gate is not None:
            lines += self._baseline_text(colour)
            since = "written to" if gate.updated else "since"
            counts += (
                f"; {gate.count('breaking')} breaking, {gate.count('compatible')} compatible "
                f"change{'s' if gate.count('compatible') != 1 else ''} {since} "
                f"{one_line(gate.file, limit=200)}"
            )
        lines += ["", counts]
        if self.fuzzed:
            lines += ["", *self.fuzzed]
        return "\n".join(lines)

    def _baseline_text(self, colour: bool) -> list[str]:
        gate = self.baseline
        assert gate is not None
        name = one_line(gate.file, limit=200)
        if not gate.changes:
            return ["", f"No changes since {name}."]
        heading = f"CHANGES {'WRITTEN TO' if gate.updated else 'SINCE'} {name}"
        lines = ["", heading]
        for level in LEVELS:
            group = [c for c in gate.changes if c.level == level]
            if not group:
                continue
            title = f"{level.upper()} ({len(group)})"
            paint: Severity = "error" if level == "breaking" else "info"
            lines += ["", _paint(title, paint) if colour else title]
            for c in group:
                server = f"{one_line(c.server)}: " if len(self.servers) > 1 else ""
                at = f" {one_line(c.pointer, limit=200)}" if c.pointer else ""
                eras = f" [{', '.join(c.eras)}]" if c.eras else ""
                lines.append(f"  {c.rule} {c.name} {server}{c.where}{at}{eras}")
                lines.append(f"      {c.message}")
                if level == "breaking":
                    lines.append(f"      why: {CHANGE_RULES[c.rule].why}")
        return lines


_COLOURS = {"error": "31", "warning": "33", "info": "36"}


def _paint(text: str, severity: Severity) -> str:
    return f"\x1b[1;{_COLOURS[severity]}m{text}\x1b[0m"


def run_checks(
    listings: list[Listing],
    *,
    servers: list[ServerEras] | None = None,
    ignore: Iterable[str] = (),
) -> CheckReport:
    """Every registered check over ``listings`` (one per server and era), less ``ignore``."""
    skip = {i.upper() for i in ignore}
    merged: dict[tuple[str, str, str, str, str], Finding] = {}
    for check in RULES.values():
        if check.id in skip:
            continue
        found = (
            check.run(listings)
            if check.across
            else (f for listing in listings for f in check.run(listing))
        )
        for f in found:
            seen = merged.get(f.key())
            if seen is None:
                merged[f.key()] = f
            else:
                eras = tuple(sorted(set(seen.eras) | set(f.eras)))
                merged[f.key()] = replace(seen, eras=eras)
    order = {s: i for i, s in enumerate(SEVERITIES)}
    findings = sorted(
        merged.values(), key=lambda f: (order[f.severity], f.server, f.rule, f.where, f.pointer)
    )
    if servers is None:
        servers = []
        for listing in listings:
            entry = next((s for s in servers if s.server == listing.server), None)
            if entry is None:
                servers.append(entry := ServerEras(listing.server))
            entry.connected.append(listing.era)
    return CheckReport(servers, findings, fuzzed=fuzz_lines(listings, servers=len(servers)))


def listing_from(server: str, data: dict[str, Any]) -> Listing:
    """A listing from one live connection's ``check_input()`` (the TUI's "Check this server")."""
    return Listing(
        server=server,
        era=str(data.get("era") or "2025-11-25"),
        capabilities=dict(data.get("capabilities") or {}),
        tools=data.get("tools"),
        prompts=data.get("prompts"),
        resources=data.get("resources"),
        templates=data.get("templates"),
        elicitations=list(data.get("elicitations") or ()),
    )


def unknown_ids(ids: Iterable[str]) -> list[str]:
    """The ids of ``--ignore`` that name no check nor change rule (a typo ignoring nothing)."""
    return sorted({i.upper() for i in ids} - set(RULES) - set(CHANGE_RULES))
