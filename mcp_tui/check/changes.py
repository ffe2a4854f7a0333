"""``check --baseline``'s comparison: each change from the baseline to the live server, as a rule.

Both sides are in the baseline's shape (``baseline.era_snapshot``), so the comparison reads plain
JSON: era by era, then tools, prompts, resources, templates, capabilities and the forms of the
calls both runs made. Each change is a :class:`Change` under a rule of ``change_rules`` (its
level comes from the rule); one change seen on both eras is one line naming both. A pointer
points into the baseline's shape (``/inputSchema/properties/limit``, ``/arguments/topic``).

Pure: two documents in, changes out; no SDK, no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from mcp_tui.check.change_rules import CHANGE_RULES, LEVELS, Level
from mcp_tui.check.findings import pointer
from mcp_tui.check.schema_changes import compare_schemas
from mcp_tui.untrusted import one_line

Snapshot = dict[str, Any]


@dataclass(frozen=True)
class Change:
    """One difference between the baseline and the live server, under its rule."""

    rule: str
    where: str
    pointer: str
    message: str
    server: str = ""
    eras: tuple[str, ...] = ()
    #: Where in an era's part of the baseline the change is, before ``pointer``
    #: (``("tools", "search")``): a CI annotation points at that line of the file.
    at: tuple[str, ...] = field(default=(), compare=False)

    @property
    def level(self) -> Level:
        return CHANGE_RULES[self.rule].level

    @property
    def name(self) -> str:
        return CHANGE_RULES[self.rule].name

    def key(self) -> tuple[str, str, str, str, str]:
        return (self.server, self.rule, self.where, self.pointer, self.message)

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "name": self.name,
            "level": self.level,
            "server": self.server,
            "where": self.where,
            "pointer": self.pointer,
            "message": self.message,
            "eras": list(self.eras),
        }


def compare_servers(
    baseline: dict[str, dict[str, Snapshot]],
    live: dict[str, dict[str, Snapshot]],
    *,
    checked_eras: Iterable[str] = (),
    ignore: Iterable[str] = (),
) -> list[Change]:
    """Every change from ``baseline`` to ``live`` (server -> era -> snapshot), sorted.

    One server on each side is the same server whatever its name (a command's path differs
    between a laptop and CI); with several, servers are matched by name. ``checked_eras``: the
    eras this run connected on (``--era``); a baseline era outside them is not compared.
    """
    pairs: list[tuple[str, dict[str, Snapshot], dict[str, Snapshot]]]
    if len(baseline) == 1 and len(live) == 1:
        old, (live_name, new) = next(iter(baseline.values())), next(iter(live.items()))
        pairs = [(live_name, old, new)]
    else:
        names = sorted(set(baseline) | set(live))
        pairs = [(n, baseline.get(n, {}), live.get(n, {})) for n in names]
    only = set(checked_eras)
    skip = {i.upper() for i in ignore}
    merged: dict[tuple[str, str, str, str, str], Change] = {}
    for server, old, new in pairs:
        for change in _server(old, new, only):
            change = replace(change, server=server)
            if change.rule in skip:
                continue
            seen = merged.get(change.key())
            eras = tuple(sorted(set(seen.eras) | set(change.eras))) if seen else change.eras
            merged[change.key()] = replace(change, eras=eras)
    order = {level: i for i, level in enumerate(LEVELS)}
    return sorted(
        merged.values(),
        key=lambda c: (order[c.level], c.server, c.where, c.pointer, c.rule, c.message),
    )


def _server(old: dict[str, Snapshot], new: dict[str, Snapshot], only: set[str]) -> Iterator[Change]:
    for era in sorted(set(old) | set(new)):
        if only and era not in only:
            continue
        if era not in new:
            yield Change("B105", "server", "", f"the server no longer speaks {era}", eras=(era,))
        elif era not in old:
            yield Change("B506", "server", "", f"the server now speaks {era}", eras=(era,))
        else:
            for change in _era(old[era], new[era]):
                yield replace(change, eras=(era,))


def _era(old: Snapshot, new: Snapshot) -> Iterator[Change]:
    if old.get("protocolVersion") != new.get("protocolVersion"):
        said = f"{_shown(old.get('protocolVersion'))} -> {_shown(new.get('protocolVersion'))}"
        yield Change("B514", "server", "/protocolVersion", f"negotiated version {said}")
    yield from _capabilities(old.get("capabilities") or {}, new.get("capabilities") or {})
    failed = set(old.get("failed") or ()) | set(new.get("failed") or ())
    kinds = (
        ("tools", "tools", "tool", ("B101", "B501"), _tool),
        ("prompts", "prompts", "prompt", ("B102", "B502"), _prompt),
        ("resources", "resources", "resource", ("B504", "B503"), _resource),
        ("templates", "resourceTemplates", "template", ("B103", "B503"), _resource),
    )
    for kind, key, noun, (gone, added), compare in kinds:
        if kind in failed:
            continue  # a listing that failed is unknown: the check reports the failure
        before, after = old.get(key) or {}, new.get(key) or {}
        removed = sorted(set(before) - set(after))
        for name in removed:
            where = f"{noun} {one_line(name, limit=80)}"
            said = f"{noun} removed{_renamed(before[name], after, before)}"
            yield Change(gone, where, "", said, at=(key, name))
        for name in sorted(set(after) - set(before)):
            yield Change(
                added, f"{noun} {one_line(name, limit=80)}", "", f"{noun} added", at=(key,)
            )
        for name in sorted(set(before) & set(after)):
            for change in compare(before[name], after[name]):
                yield replace(change, where=f"{noun} {one_line(name, limit=80)}", at=(key, name))
    yield from _forms(old, new)


def _renamed(gone: dict[str, Any], after: dict[str, Any], before: dict[str, Any]) -> str:
    """A hint when an added item looks like the removed one renamed (same schema or text)."""
    for name, item in sorted(after.items()):
        if name in before:
            continue
        same_schema = "inputSchema" in gone and item.get("inputSchema") == gone["inputSchema"]
        same_args = (
            "arguments" in gone and gone["arguments"] and item.get("arguments") == gone["arguments"]
        )
        same_text = bool(gone.get("description")) and item.get("description") == gone.get(
            "description"
        )
        if same_schema or same_args or same_text:
            return (
                f" (renamed to {one_line(name, limit=80)}? A rename is a removal and an "
                "addition: clients that use the old name break)"
            )
    return ""


def _capabilities(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Change]:
    before, after = _flat(old), _flat(new)
    for path in sorted(before - after):
        at = pointer("capabilities", *path.split("."))
        yield Change("B104", "server", at, f"capability {path} no longer declared")
    for path in sorted(after - before):
        at = pointer("capabilities", *path.split("."))
        yield Change("B505", "server", at, f"capability {path} declared")


def _flat(capabilities: dict[str, Any]) -> set[str]:
    """``tools``, ``tools.listChanged``, ``resources.subscribe``...: what is declared (a
    ``false`` flag is not)."""
    out: set[str] = set()
    for key, value in capabilities.items():
        if value is None or value is False:
            continue
        out.add(key)
        if isinstance(value, dict) and key != "experimental":
            out |= {f"{key}.{k}" for k, v in value.items() if v not in (None, False)}
    return out


def _text(old: dict[str, Any], new: dict[str, Any], keys: tuple[str, ...]) -> Iterator[Change]:
    for key in keys:
        if old.get(key) != new.get(key):
            said = f"{key} changed: {_shown(old.get(key))} -> {_shown(new.get(key))}"
            yield Change("B511", "", f"/{key}", said)


def _tool(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Change]:
    yield from _text(old, new, ("title", "description"))
    inputs = compare_schemas(
        old.get("inputSchema"), new.get("inputSchema"), "input", ("inputSchema",)
    )
    for c in inputs:
        yield Change(c.rule, "", c.pointer, c.message)
    was, now = old.get("outputSchema"), new.get("outputSchema")
    if was is not None and now is None:
        yield Change("B301", "", "/outputSchema", "no outputSchema any more")
    elif was is None and now is not None:
        yield Change("B510", "", "/outputSchema", "now declares an outputSchema")
    elif was is not None:
        for c in compare_schemas(was, now, "output", ("outputSchema",), noun="field"):
            yield Change(c.rule, "", c.pointer, c.message)
    yield from _annotations(_obj(old.get("annotations")), _obj(new.get("annotations")))
    yield from _execution(_obj(old.get("execution")), _obj(new.get("execution")))


def destructive(annotations: dict[str, Any]) -> bool:
    """What the spec's defaults make of a tool's annotations: a tool that is not read-only may
    destroy data unless ``destructiveHint`` says ``false``."""
    if annotations.get("readOnlyHint") is True:
        return False
    return annotations.get("destructiveHint", True) is not False


def _annotations(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Change]:
    if old == new:
        return
    if destructive(new) and not destructive(old):
        said = f"annotations {_shown(old)} -> {_shown(new)}: it may now destroy data"
        yield Change("B401", "", "/annotations", said)
        return
    changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    said = ", ".join(f"{k} {_shown(old.get(k))} -> {_shown(new.get(k))}" for k in changed)
    yield Change("B512", "", "/annotations", one_line(said, limit=300))


def _execution(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Change]:
    if old == new:
        return
    was, now = old.get("taskSupport"), new.get("taskSupport")
    said = f"execution {_shown(old)} -> {_shown(new)}"
    rule = "B402" if now == "required" and was != "required" else "B512"
    yield Change(rule, "", "/execution", said)


def _prompt(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Change]:
    yield from _text(old, new, ("title", "description"))
    before, after = _obj(old.get("arguments")), _obj(new.get("arguments"))
    for name in sorted(set(before) | set(after)):
        at = pointer("arguments", name)
        what = f"argument {one_line(name, limit=80)}"
        if name not in after:
            yield Change("B203", "", at, f"{what} removed")
            continue
        required = _obj(after[name]).get("required") is True
        if name not in before:
            yield Change(
                "B201" if required else "B507",
                "",
                at,
                f"{what} added, " + ("required" if required else "optional"),
            )
            continue
        was = _obj(before[name]).get("required") is True
        if required and not was:
            yield Change("B202", "", at, f"{what} is now required (it was optional)")
        elif was and not required:
            yield Change("B508", "", at, f"{what} is now optional (it was required)")
        for change in _text(_obj(before[name]), _obj(after[name]), ("title", "description")):
            yield replace(change, pointer=at + change.pointer)


def _resource(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Change]:
    yield from _text(old, new, ("name", "title", "description", "mimeType"))


def _forms(old: Snapshot, new: Snapshot) -> Iterator[Change]:
    """The forms of the calls both runs made (a call not made this time says nothing)."""
    made = set(old.get("calls") or ()) & set(new.get("calls") or ())
    before, after = old.get("elicitations") or {}, new.get("elicitations") or {}
    for key in sorted(set(before) | set(after)):
        call = key.removeprefix("call ").rsplit(" #", 1)[0]
        if call not in made:
            continue
        where = f"elicitation in {one_line(key.removeprefix('call '), limit=120)}"
        at = ("elicitations", key)
        if key not in after:
            yield Change("B513", where, "", "this form is no longer asked", at=at)
        elif key not in before:
            yield Change("B513", where, "", "a form the baseline's call did not ask", at=at[:1])
        else:
            was, now = before[key], after[key]
            if was.get("message") != now.get("message"):
                said = f"message {_shown(was.get('message'))} -> {_shown(now.get('message'))}"
                yield Change("B511", where, "/message", said, at=at)
            schemas = compare_schemas(
                was.get("requestedSchema"),
                now.get("requestedSchema"),
                "input",
                ("requestedSchema",),
                noun="field",
            )
            for c in schemas:
                yield Change(c.rule, where, c.pointer, c.message, at=at)


def _obj(value: Any) -> dict[str, Any]:
    """``value`` if it is an object, else ``{}``: a server's (or a hand edit's) odd shape is
    compared as nothing, never a crash."""
    return value if isinstance(value, dict) else {}


def _shown(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return repr(one_line(value, limit=80))
    return one_line(json.dumps(value, sort_keys=True, ensure_ascii=True), limit=120)


def unknown_change_ids(ids: Iterable[str]) -> set[str]:
    return {i.upper() for i in ids} - set(CHANGE_RULES)
