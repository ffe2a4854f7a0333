"""How a JSON Schema changed between a baseline and the live server, judged by who sends the data.

A tool's ``inputSchema``, a prompt's arguments and an elicitation's ``requestedSchema`` say what
the server *accepts* (the client sends it): there a narrower schema breaks a client that sent
what used to be fine, a wider one breaks nobody. A tool's ``outputSchema`` says what the server
*sends* (the client reads it): there the reverse holds, a wider schema hands old clients values
they never had to handle, and a field that was promised and is gone breaks them. So every delta
is found once, as "narrowed" or "widened", and :data:`STRUCTURE` / :data:`CONSTRAINT` name its rule
for the direction.

Pure: two schemas in, ``(rule id, JSON Pointer, message)`` out. Local ``$ref`` s (``#/$defs/X``,
pydantic's shape) are followed, each at most once per path, so a recursive schema ends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from mcp_tui.check.findings import pointer as json_pointer
from mcp_tui.untrusted import one_line

Direction = Literal["input", "output"]
#: What one delta does to the set of values the schema allows.
Delta = Literal[
    "type",
    "enum",
    "bound",
    "format",
    "closed",
    "opened",
    "removed",
    "added-required",
    "added-optional",
    "made-required",
    "made-optional",
]


@dataclass(frozen=True)
class SchemaChange:
    rule: str
    pointer: str
    message: str


#: Upper bounds (a lower value narrows) and lower bounds (a higher value narrows).
_UPPER = ("maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties")
_LOWER = ("minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties")
#: Constraints that only narrow when added or changed (``pattern`` is compared as text).
_TEXTUAL = ("format", "pattern")
#: How deep the walk goes into nested properties and items (a hostile schema may nest 10k deep).
MAX_DEPTH = 32


#: The rule of a change to a schema's properties (one field added, removed, made required...).
STRUCTURE: dict[Direction, dict[Delta, str]] = {
    # What the server accepts: a client sending what used to be fine is refused.
    "input": {
        "added-required": "B201",
        "made-required": "B202",
        "removed": "B203",
        "closed": "B208",
        "added-optional": "B507",
        "made-optional": "B508",
        "opened": "B509",
    },
    # What the server sends: a field that was promised and is gone breaks its readers.
    "output": {
        "removed": "B302",
        "made-optional": "B303",
        "added-required": "B510",
        "added-optional": "B510",
        "made-required": "B510",
        "closed": "B510",
        "opened": "B510",
    },
}
#: The rule of a change to the values one node allows, by direction and by narrowed / widened.
CONSTRAINT: dict[Direction, dict[bool, dict[Delta, str]]] = {
    "input": {
        True: {"type": "B204", "enum": "B205", "bound": "B206", "format": "B207"},
        False: {"type": "B509", "enum": "B509", "bound": "B509", "format": "B509"},
    },
    # Wider output: values old clients never had to handle. Narrower: they still read it.
    "output": {
        True: {"type": "B510", "enum": "B510", "bound": "B510", "format": "B510"},
        False: {"type": "B304", "enum": "B304", "bound": "B304", "format": "B304"},
    },
}


def compare_schemas(
    old: Any, new: Any, direction: Direction, at: tuple[str, ...] = (), *, noun: str = "argument"
) -> list[SchemaChange]:
    """Every change from ``old`` to ``new``; pointers start with ``at`` (e.g. ``inputSchema``).

    ``noun`` names a property in messages (``argument``, ``field``).
    """
    walk = _Walk(old, new, direction, noun)
    walk.node(old, new, list(at), 0, frozenset())
    return walk.found


class _Walk:
    def __init__(self, old_root: Any, new_root: Any, direction: Direction, noun: str) -> None:
        self.roots = (old_root, new_root)
        self.direction = direction
        self.noun = noun
        self.found: list[SchemaChange] = []

    # ---- reporting ----------------------------------------------------------------------------

    def report(self, delta: Delta, path: list[str], message: str) -> None:
        """A change to the properties of an object schema (see :data:`STRUCTURE`)."""
        rule = STRUCTURE[self.direction][delta]
        self.found.append(SchemaChange(rule, json_pointer(*path), message))

    def constraint(self, delta: Delta, narrowed: bool, path: list[str], message: str) -> None:
        """A change to the values one node allows (see :data:`CONSTRAINT`)."""
        rule = CONSTRAINT[self.direction][narrowed][delta]
        self.found.append(SchemaChange(rule, json_pointer(*path), message))

    # ---- the walk -----------------------------------------------------------------------------

    def resolve(self, schema: Any, side: int, seen: frozenset[str]) -> tuple[Any, frozenset[str]]:
        """``schema`` with a local ``$ref`` followed (once per path: a cycle ends here)."""
        for _ in range(8):
            if not isinstance(schema, dict):
                return schema, seen
            ref = schema.get("$ref")
            if not isinstance(ref, str) or not ref.startswith("#/") or f"{side}{ref}" in seen:
                return schema, seen
            seen = seen | {f"{side}{ref}"}
            target: Any = self.roots[side]
            for part in ref[2:].split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                target = target.get(part) if isinstance(target, dict) else None
            if not isinstance(target, dict):
                return schema, seen
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**target, **siblings}
        return schema, seen

    def node(self, old: Any, new: Any, path: list[str], depth: int, seen: frozenset[str]) -> None:
        if depth > MAX_DEPTH:
            return
        old, seen = self.resolve(old, 0, seen)
        new, seen = self.resolve(new, 1, seen)
        if old == new:
            return
        if old is True or old == {}:  # anything went: a schema now narrows it
            if (isinstance(new, dict) and new) or new is False:
                self.constraint("type", True, path, f"{self.here(path)} now has a schema")
            return
        if not isinstance(old, dict) or not isinstance(new, dict):
            if new is True or new == {}:
                self.constraint("type", False, path, f"{self.here(path)} takes anything now")
            return
        self.types(old, new, path)
        self.enums(old, new, path)
        self.bounds(old, new, path)
        self.textual(old, new, path)
        self.properties(old, new, path, depth, seen)
        old_items, new_items = old.get("items"), new.get("items")
        if isinstance(old_items, dict) and isinstance(new_items, dict):
            self.node(old_items, new_items, [*path, "items"], depth + 1, seen)

    def here(self, path: list[str]) -> str:
        """The property a pointer names, for a message (``party_size``, ``items of tags``)."""
        names = [p for i, p in enumerate(path) if i > 0 and path[i - 1] == "properties"]
        if not names:
            return "/".join(path) or "the schema"
        tail = ".".join(names)
        if path[-1] == "items":
            return f"each item of {self.noun} {one_line(tail, limit=80)}"
        return f"{self.noun} {one_line(tail, limit=80)}"

    def types(self, old: dict[str, Any], new: dict[str, Any], path: list[str]) -> None:
        before, after = types_of(old), types_of(new)
        if before is None or after is None or before == after:
            return
        lost = {t for t in before - after if not (t == "integer" and "number" in after)}
        gained = {t for t in after - before if not (t == "integer" and "number" in before)}
        said = f"{self.here(path)}: type {_types(before)} -> {_types(after)}"
        if lost and gained:  # changed: one line, under the side that breaks
            self.constraint("type", self.direction == "input", path, said)
        elif lost or gained:
            self.constraint("type", bool(lost), path, said)

    def enums(self, old: dict[str, Any], new: dict[str, Any], path: list[str]) -> None:
        before, after = enum_of(old), enum_of(new)
        if before == after:
            return
        here = self.here(path)
        if before is None and after is not None:
            self.constraint("enum", True, path, f"{here} is now one of {_values(after)}")
            return
        if before is not None and after is None:
            self.constraint("enum", False, path, f"{here} is no longer limited to choices")
            return
        assert before is not None and after is not None
        removed = [v for v in before if v not in after]
        added = [v for v in after if v not in before]
        if removed:
            self.constraint("enum", True, path, f"{here}: {_values(removed)} no longer allowed")
        if added:
            self.constraint("enum", False, path, f"{here}: {_values(added)} now allowed")

    def bounds(self, old: dict[str, Any], new: dict[str, Any], path: list[str]) -> None:
        here = self.here(path)
        for key in (*_UPPER, *_LOWER):
            a, b = _number(old.get(key)), _number(new.get(key))
            if a == b:
                continue
            upper = key in _UPPER
            if a is None:
                narrowed = True
            elif b is None:
                narrowed = False
            else:
                narrowed = b < a if upper else b > a
            said = f"{here}: {key} {_shown(a)} -> {_shown(b)}"
            self.constraint("bound", narrowed, [*path, key], said)
        a, b = old.get("multipleOf"), new.get("multipleOf")
        if a != b:
            said = f"{here}: multipleOf {_shown(a)} -> {_shown(b)}"
            self.constraint("bound", b is not None, [*path, "multipleOf"], said)
        if bool(old.get("uniqueItems")) != bool(new.get("uniqueItems")):
            narrowed = bool(new.get("uniqueItems"))
            said = f"{here}: uniqueItems {'added' if narrowed else 'removed'}"
            self.constraint("bound", narrowed, [*path, "uniqueItems"], said)

    def textual(self, old: dict[str, Any], new: dict[str, Any], path: list[str]) -> None:
        here = self.here(path)
        for key in _TEXTUAL:
            a, b = old.get(key), new.get(key)
            if a == b:
                continue
            said = f"{here}: {key} {_shown(a)} -> {_shown(b)}"
            self.constraint("format", b is not None, [*path, key], said)

    def properties(
        self,
        old: dict[str, Any],
        new: dict[str, Any],
        path: list[str],
        depth: int,
        seen: frozenset[str],
    ) -> None:
        before = old.get("properties") if isinstance(old.get("properties"), dict) else {}
        after = new.get("properties") if isinstance(new.get("properties"), dict) else {}
        assert isinstance(before, dict) and isinstance(after, dict)
        req_before, req_after = _required(old), _required(new)
        for name in sorted(set(before) | set(after)):
            at = [*path, "properties", name]
            what = f"{self.noun} {one_line(name, limit=80)}"
            if name not in after:
                self.report("removed", at, f"{what} removed")
            elif name not in before:
                if name in req_after:
                    self.report("added-required", at, f"{what} added, required")
                else:
                    self.report("added-optional", at, f"{what} added, optional")
            else:
                if name in req_after and name not in req_before:
                    self.report("made-required", at, f"{what} is now required (it was optional)")
                elif name in req_before and name not in req_after:
                    self.report("made-optional", at, f"{what} is now optional (it was required)")
                self.node(before[name], after[name], at, depth + 1, seen)
        for name in sorted((req_after - req_before) - set(after)):
            # required without a property: a name the client must send, now (E106 says more)
            at = [*path, "properties", name]
            self.report("added-required", at, f"{self.noun} {one_line(name)} is now required")
        open_before, open_after = _open(old), _open(new)
        if open_before and not open_after:
            said = f"{self.here(path)}: additionalProperties is now false"
            self.report("closed", [*path, "additionalProperties"], said)
        elif open_after and not open_before:
            said = f"{self.here(path)}: additionalProperties is no longer false"
            self.report("opened", [*path, "additionalProperties"], said)


def types_of(schema: dict[str, Any]) -> frozenset[str] | None:
    """The JSON types a schema allows (``anyOf``/``oneOf`` of plain types too), or ``None``."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return frozenset({kind})
    if isinstance(kind, list) and all(isinstance(k, str) for k in kind):
        return frozenset(kind)
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            found: set[str] = set()
            for branch in branches:
                inner = types_of(branch) if isinstance(branch, dict) else None
                if inner is None:
                    return None
                found |= inner
            return frozenset(found)
    return None


def enum_of(schema: dict[str, Any]) -> list[str] | None:
    """The values a schema is limited to, as canonical JSON (``enum``, ``const``, a ``oneOf`` or
    ``anyOf`` of ``const`` s as titled elicitation choices are written), or ``None``."""
    if isinstance(schema.get("enum"), list):
        return [_canonical(v) for v in schema["enum"]]
    if "const" in schema:
        return [_canonical(schema["const"])]
    for key in ("oneOf", "anyOf"):
        branches = schema.get(key)
        if (
            isinstance(branches, list)
            and branches
            and all(isinstance(b, dict) and "const" in b for b in branches)
        ):
            return [_canonical(b["const"]) for b in branches]
    return None


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=True)


def _required(schema: dict[str, Any]) -> set[str]:
    names = schema.get("required")
    return {n for n in names if isinstance(n, str)} if isinstance(names, list) else set()


def _open(schema: dict[str, Any]) -> bool:
    return schema.get("additionalProperties", True) is not False


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _shown(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return one_line(json.dumps(value, ensure_ascii=True), limit=60)


def _types(types: frozenset[str]) -> str:
    return "|".join(sorted(types))


def _values(values: list[str]) -> str:
    return one_line(", ".join(values), limit=120)
