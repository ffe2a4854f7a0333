"""``mcp-tui test --coverage``: what of the server no case touched, read from the run's records.

Each case that ran left an :class:`~mcp_tui.testbench.observed.Observed` holding what the server
listed when it was made (:class:`~mcp_tui.testbench.observed.Offered`) and every request it met
with the answer it got. From those alone (no second connection, no server code instrumented):

- the tools, prompts, resources and resource templates the server offers that no case called,
  got, read (a URI that fits a template touches it);
- for each elicitation a case met (by the tool and its message), which of accept, decline and
  cancel the run exercised: the three paths a server author writes and the one a client most
  often takes (cancel) is the one least often tested;
- for each tool with an ``outputSchema``, whether a case checked its ``structuredContent``
  (``expect.structured`` or ``expect.pointers``).

A case is reduced to a :class:`Touch`, plain JSON both ways, so the pytest plugin's xdist
workers hand theirs to the controller and one report covers the whole run. Servers are told
apart by the name they give in their handshake, so two files testing one server add up.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from mcp_tui.testbench.observed import Offered
from mcp_tui.testbench.result import CaseResult
from mcp_tui.untrusted import one_line

JSON_VERSION = 1
ACTIONS = ("accept", "decline", "cancel")
KINDS = ("tools", "prompts", "resources", "templates")


@dataclass(frozen=True)
class Touch:
    """What one case did that coverage counts: its call, the forms it met, what it checked."""

    offered: Offered
    kind: str
    target: str
    #: ``(mode, message, action)`` of each elicitation request, in order.
    elicitations: tuple[tuple[str, str, str], ...] = ()
    checked_structured: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "offered": self.offered.as_json(),
            "kind": self.kind,
            "target": self.target,
            "elicitations": [list(e) for e in self.elicitations],
            "checked_structured": self.checked_structured,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Touch:
        return cls(
            Offered.from_json(data["offered"]),
            str(data["kind"]),
            str(data["target"]),
            tuple((str(m), str(t), str(a)) for m, t, a in data.get("elicitations") or ()),
            bool(data.get("checked_structured")),
        )


def touch_of(result: CaseResult) -> Touch | None:
    """The touch of a case that ran (``None``: skipped, or the server never started)."""
    seen = result.observed
    if seen is None or seen.offered is None:
        return None
    case = result.plan.case
    expect = case.expect
    return Touch(
        seen.offered,
        case.kind,
        case.target,
        tuple((e.mode, e.message, e.action) for e in seen.elicitations),
        checked_structured=expect.has_structured or bool(expect.pointers),
    )


@dataclass
class FormCoverage:
    """One elicitation request a case met, and how often each answer was given to it."""

    target: str
    mode: str
    message: str
    actions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ACTIONS, 0))

    @property
    def missing(self) -> list[str]:
        return [a for a in ACTIONS if not self.actions.get(a)]


@dataclass
class ServerCoverage:
    server: str
    offered: dict[str, list[str]]
    touched: dict[str, set[str]]
    forms: list[FormCoverage]
    #: Tools with an ``outputSchema`` -> whether a case checked ``structuredContent``.
    structured: dict[str, bool]

    def untouched(self, kind: str) -> list[str]:
        return [n for n in self.offered[kind] if n not in self.touched[kind]]


@dataclass
class Coverage:
    servers: list[ServerCoverage]

    @property
    def tools_offered(self) -> int:
        return sum(len(s.offered["tools"]) for s in self.servers)

    @property
    def tools_touched(self) -> int:
        return sum(len(s.touched["tools"]) for s in self.servers)

    @property
    def tools_percent(self) -> float:
        """Tools a case called, of those offered (100 when none is offered)."""
        offered = self.tools_offered
        return 100.0 if offered == 0 else 100.0 * self.tools_touched / offered

    def as_json(self) -> dict[str, Any]:
        return {
            "version": JSON_VERSION,
            "tools_percent": round(self.tools_percent, 2),
            "servers": [_server_json(s) for s in self.servers],
        }

    def text(self) -> str:
        return "\n".join(_text(self))


def coverage(touches: Iterable[Touch | None]) -> Coverage:
    """The coverage of a run from its cases' touches (in run order; ``None`` s are skipped)."""
    by_server: dict[str, list[Touch]] = {}
    for touch in touches:
        if touch is not None:
            by_server.setdefault(touch.offered.server, []).append(touch)
    return Coverage([_one_server(name, ts) for name, ts in by_server.items()])


def _one_server(server: str, touches: Sequence[Touch]) -> ServerCoverage:
    offered: dict[str, set[str]] = {kind: set() for kind in KINDS}
    with_output: set[str] = set()
    for t in touches:  # the union over eras and reconnections: a tool offered on one era counts
        for kind in KINDS:
            offered[kind] |= set(getattr(t.offered, kind))
        with_output |= set(t.offered.structured_tools)
    touched: dict[str, set[str]] = {kind: set() for kind in KINDS}
    checked: set[str] = set()
    forms: dict[tuple[str, str, str], FormCoverage] = {}
    for t in touches:
        if t.kind == "tool" and t.target in offered["tools"]:
            touched["tools"].add(t.target)
            if t.checked_structured:
                checked.add(t.target)
        elif t.kind == "prompt" and t.target in offered["prompts"]:
            touched["prompts"].add(t.target)
        elif t.kind == "resource":
            if t.target in offered["resources"]:
                touched["resources"].add(t.target)
            touched["templates"] |= {u for u in offered["templates"] if fits(u, t.target)}
        for mode, message, action in t.elicitations:
            key = (t.target, mode, message)
            form = forms.setdefault(key, FormCoverage(t.target, mode, message))
            form.actions[action] = form.actions.get(action, 0) + 1
    return ServerCoverage(
        server,
        {kind: sorted(offered[kind]) for kind in KINDS},
        touched,
        sorted(forms.values(), key=lambda f: (f.target, f.message)),
        {name: name in checked for name in sorted(with_output)},
    )


def fits(template: str, uri: str) -> bool:
    """Whether ``uri`` is an expansion of the RFC 6570 ``template`` (levels 1-4, read as a
    pattern: ``{var}`` one path segment, ``{+var}``/``{#var}`` anything, ``{?q,r}`` a query)."""
    pattern = ""
    rest = template
    while rest:
        start = rest.find("{")
        end = rest.find("}", start)
        if start == -1 or end == -1:
            pattern += re.escape(rest)
            break
        pattern += re.escape(rest[:start])
        operator = rest[start + 1 : end][:1]
        if operator in ("+", "#"):
            pattern += r".*"
        elif operator in ("?", "&"):
            pattern += r"(?:[?&][^#]*)?"
        elif operator in ("/", ".", ";"):
            pattern += rf"(?:\{operator}[^/?#]*)*"
        else:
            pattern += r"[^/?#]*"
        rest = rest[end + 1 :]
    try:
        return re.fullmatch(pattern, uri) is not None
    except re.error:
        return False


# ---- reports ------------------------------------------------------------------------------------


def _server_json(s: ServerCoverage) -> dict[str, Any]:
    out: dict[str, Any] = {"server": s.server}
    for kind in KINDS:
        out[kind] = {
            "offered": s.offered[kind],
            "touched": sorted(s.touched[kind]),
            "untouched": s.untouched(kind),
        }
    out["elicitations"] = [
        {"target": f.target, "mode": f.mode, "message": f.message, "actions": f.actions}
        for f in s.forms
    ]
    out["structured"] = {
        "checked": [n for n, ok in s.structured.items() if ok],
        "unchecked": [n for n, ok in s.structured.items() if not ok],
    }
    return out


def _ratio(done: int, total: int) -> str:
    percent = 100.0 if total == 0 else 100.0 * done / total
    return f"{done}/{total} ({percent:.0f}%)"


def _names(names: Iterable[str]) -> str:
    return one_line(", ".join(names), limit=600)


def _text(c: Coverage) -> list[str]:
    lines = ["", "==== coverage " + "=" * 46]
    if not c.servers:
        return [*lines, "no case ran: nothing to measure"]
    for s in c.servers:
        lines.append(f"{one_line(s.server, limit=120)}:")
        for kind in KINDS:
            total = len(s.offered[kind])
            if not total:
                continue
            done = total - len(s.untouched(kind))
            line = f"  {kind:<10} {_ratio(done, total)}"
            missing = s.untouched(kind)
            lines.append(line + (f"  untouched: {_names(missing)}" if missing else ""))
        if s.structured:
            done = sum(s.structured.values())
            unchecked = [n for n, ok in s.structured.items() if not ok]
            line = f"  structured {_ratio(done, len(s.structured))} of tools with outputSchema"
            lines.append(line + (f"  unchecked: {_names(unchecked)}" if unchecked else ""))
        if s.forms:
            lines.append("  elicitations (tool, message: the answers exercised):")
            for f in s.forms:
                did = ", ".join(a for a in ACTIONS if f.actions.get(a)) or "none"
                never = f"; never {', '.join(f.missing)}" if f.missing else ""
                message = one_line(f.message, limit=70)
                mode = "" if f.mode == "form" else f" [{f.mode}]"
                target = one_line(f.target, limit=60)
                lines.append(f'    {target}{mode} "{message}": {did}{never}')
    lines.append(f"tools covered: {c.tools_percent:.1f}%")
    return lines


def write_json(c: Coverage, out: TextIO) -> None:
    out.write(json.dumps(c.as_json(), indent=2, ensure_ascii=True) + "\n")


@dataclass(frozen=True)
class CoverageWanted:
    """``--coverage`` (the text after the summary), ``--coverage-json FILE``, ``--fail-under``."""

    text: bool = False
    json_file: Path | None = None
    #: Fail the run when fewer than this percent of the offered tools were called.
    fail_under: float | None = None

    @property
    def wanted(self) -> bool:
        return self.text or self.json_file is not None or self.fail_under is not None


def report_coverage(c: Coverage, wanted: CoverageWanted, out: TextIO, err: TextIO) -> bool:
    """The coverage where it was asked for; ``False`` when the tools fall under
    ``--fail-under`` (said on ``err``)."""
    if wanted.text:
        print(c.text(), file=out, flush=True)
    if wanted.json_file is not None:
        path = wanted.json_file
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.partial")
        with partial.open("w", encoding="utf-8") as f:
            write_json(c, f)
        os.replace(partial, path)
    if wanted.fail_under is not None and c.tools_percent < wanted.fail_under:
        print(
            f"mcp-tui: tools covered {c.tools_percent:.1f}% ({c.tools_touched} of "
            f"{c.tools_offered}) is under --fail-under {wanted.fail_under:g}",
            file=err,
            flush=True,
        )
        return False
    return True


def markdown(c: Coverage) -> str:
    """The coverage for a GitHub job summary (``--coverage`` on Actions): a table per server, every
    name the server gave a code span (``step_summary.code_cell``: never Markdown, never HTML)."""
    from mcp_tui.testbench.step_summary import code_cell

    lines = [f"#### Coverage: {c.tools_percent:.1f}% of the tools called", ""]
    for s in c.servers:
        lines += [f"{code_cell(s.server)}", "", "| | covered | untouched |", "| --- | --- | --- |"]
        for kind in KINDS:
            total = len(s.offered[kind])
            if total:
                missing = s.untouched(kind)
                names = ", ".join(code_cell(n, limit=80) for n in missing[:20])
                more = f" and {len(missing) - 20} more" if len(missing) > 20 else ""
                lines.append(f"| {kind} | {_ratio(total - len(missing), total)} | {names}{more} |")
        forms = [f for f in s.forms if f.missing]
        if forms:
            never = len(forms)
            lines.append(f"| forms | {len(s.forms) - never}/{len(s.forms)} met every answer | |")
        lines.append("")
    return "\n".join(lines) + "\n"
