"""What a check reports, what it reads, and the registry of checks by their stable ids.

Pure data (no SDK, no Textual): ``mcp-tui check`` turns a server's wire messages into a
:class:`Listing` and every check reads only that, so each one is a plain function that can be
tested with a dict. A check's id (``T101``) never changes meaning: ``--ignore ID`` and the
config's ``[check] ignore`` name it, and the docs' pages of the rules are generated from
:data:`RULES` (``rule_docs.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    """One thing a server author should know: what, where, why it matters, and the fix."""

    rule: str
    severity: Severity
    #: ``tool book_table``, ``prompt draft``, ``resource file:///x``, ``server``, ...
    where: str
    #: A JSON Pointer into the object named by ``where`` (``""``: the object itself).
    pointer: str
    message: str
    fix: str
    server: str = ""
    #: The eras the finding was seen on (filled in when the listings of several eras are merged).
    eras: tuple[str, ...] = ()

    def key(self) -> tuple[str, str, str, str, str]:
        return (self.server, self.rule, self.where, self.pointer, self.message)

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "server": self.server,
            "where": self.where,
            "pointer": self.pointer,
            "message": self.message,
            "fix": self.fix,
            "eras": list(self.eras),
        }


@dataclass
class Listing:
    """What one connection to a server showed, as the JSON that came over the wire.

    A kind's list is ``None`` when the server does not offer it (or its listing failed: the
    error is in ``errors``). ``elicitations`` holds the ``params`` of every ``elicitation/create``
    seen (and of the requests inside ``input_required`` results), each with the name of the call
    that asked under ``"_mcp_tui_call"``.
    """

    server: str
    #: The negotiated protocol version (``2025-11-25``, ``2026-07-28``, ...).
    era: str
    capabilities: dict[str, Any] = field(default_factory=dict)
    tools: list[dict[str, Any]] | None = None
    prompts: list[dict[str, Any]] | None = None
    resources: list[dict[str, Any]] | None = None
    templates: list[dict[str, Any]] | None = None
    errors: dict[str, str] = field(default_factory=dict)
    elicitations: list[dict[str, Any]] = field(default_factory=list)
    #: The calls made on this connection (``check --run``): each ``{"name": ..., "ok": bool,
    #: "error": str | None, "needs_era": era | None}`` (``--call`` adds ``"outcome"``: ``ok``,
    #: ``tool_error``, ``error`` or ``timeout``), ``needs_era`` filled in by the session
    #: layer's reading of the era errors (``session/era.py``).
    calls: list[dict[str, Any]] = field(default_factory=list)
    #: The methods of the notifications the server sent on this connection, in order.
    notifications: list[str] = field(default_factory=list)
    #: What ``check --fuzz`` found (``headless/fuzz.py``): each ``{"tool", "kind", "valid",
    #: "arguments", "detail", "calls"}``, ``kind`` one of ``crash``, ``hang``,
    #: ``protocol-error``, ``accepted-invalid``, ``not-fuzzed``.
    fuzz: list[dict[str, Any]] = field(default_factory=list)
    #: 2026-07-28 results without the freshness hints the era requires (the SDK's client refuses
    #: them): each ``{"method": "tools/list", "missing": ["cacheScope"]}``.
    incomplete: list[dict[str, Any]] = field(default_factory=list)
    #: The client advertised elicitation on this connection (``check --no-elicitation``: not).
    elicitation_advertised: bool = True
    #: Each tool ``check --fuzz`` called: ``{"tool", "valid_calls", "invalid_calls"}``.
    fuzzed: list[dict[str, Any]] = field(default_factory=list)


#: A check reads one listing, or (``across``) the listings of every server of a run.
CheckFunction = Callable[[Any], Iterator[Finding]]


#: What a server sent, as the fields of one :class:`Listing` (``server`` defaults to ``srv``,
#: ``era`` to 2025-11-25), or of several for a check that reads them all (``across``).
Example = dict[str, Any] | list[dict[str, Any]]


@dataclass(frozen=True)
class Rule:
    """A check: its id, the severity it reports at, a one-line title for the table, the code,
    and its documentation: why it matters, and what a server sends that it fires on (``bad``)
    and the same fixed (``good``). The examples are what its tests run (``tests/check/``), so
    the docs (``mcp-tui check --explain ID``, ``rule_docs.py``) cannot drift from the code."""

    id: str
    severity: Severity
    title: str
    run: CheckFunction
    #: ``run`` takes ``list[Listing]`` (every server of the run) instead of one ``Listing``.
    across: bool = False
    why: str = ""
    bad: Example | None = None
    good: Example | None = None


RULES: dict[str, Rule] = {}


def rule(
    rule_id: str,
    severity: Severity,
    title: str,
    *,
    across: bool = False,
    why: str = "",
    bad: Example | None = None,
    good: Example | None = None,
) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check under ``rule_id`` with its documentation; the id may be registered
    once."""

    def register(run: CheckFunction) -> CheckFunction:
        if rule_id in RULES:
            raise ValueError(f"check id {rule_id} is registered twice")
        RULES[rule_id] = Rule(rule_id, severity, title, run, across, why, bad, good)
        return run

    return register


def tool_example(**fields: Any) -> dict[str, Any]:
    """A tool as a server lists it, for a rule's example: ``search``, described, taking an
    object, with ``fields`` over that."""
    return {
        "name": "search",
        "description": "Finds things.",
        "inputSchema": {"type": "object"},
        **fields,
    }


def form_example(properties: dict[str, Any], **root: Any) -> dict[str, Any]:
    """An ``elicitation/create``'s params for a rule's example, asked by the call ``book``."""
    schema = {"type": "object", "properties": properties, **root}
    return {"message": "Book a table", "requestedSchema": schema, "_mcp_tui_call": "book"}


def example_listings(example: Example) -> list[Listing]:
    """The listings an :data:`Example` stands for."""
    return [
        Listing(
            server=str(fields.get("server", "srv")),
            era=str(fields.get("era", "2025-11-25")),
            **{k: v for k, v in fields.items() if k not in ("server", "era")},
        )
        for fields in (example if isinstance(example, list) else [example])
    ]


def finding(
    rule_id: str,
    listing: Listing,
    where: str,
    pointer: str,
    message: str,
    fix: str,
    *,
    severity: Severity | None = None,
) -> Finding:
    """A finding of ``rule_id`` at its registered severity (``severity`` overrides it)."""
    return Finding(
        rule=rule_id,
        severity=severity or RULES[rule_id].severity,
        where=where,
        pointer=pointer,
        message=message,
        fix=fix,
        server=listing.server,
        eras=(listing.era,),
    )


def pointer(*parts: object) -> str:
    """A JSON Pointer (RFC 6901) from its reference tokens."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
