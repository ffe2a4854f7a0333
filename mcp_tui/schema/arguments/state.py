"""What the user has entered for each node of an arguments tree: mutable, plain Python.

The values live here rather than in widgets, so a collapsed section, an item scrolled away or a
row not mounted yet keeps its value, and F2 can turn the whole form into JSON and back
(:func:`state_for` from any JSON value, :func:`~.answer.partial` to JSON).

Leaves hold the flat engine's raw widget values (:data:`~mcp_tui.schema.fields.RawValue`), so the
flat engine's :func:`~mcp_tui.schema.validate.validate_field` reads them exactly as in a flat form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from mcp_tui.schema.fields import FieldKind, RawValue
from mcp_tui.schema.formats import number_to_text
from mcp_tui.schema.validate import initial_value

from .nodes import ArrayNode, Const, Leaf, Node, ObjectNode, Recursive, Variant

#: Marks "no value given" (``None`` is JSON ``null``).
MISSING: Any = object()


@dataclass(slots=True)
class LeafState:
    raw: RawValue = None


@dataclass(slots=True)
class ConstState:
    """A fixed value; ``present`` says whether an optional one is sent."""

    present: bool = True


@dataclass(slots=True)
class ObjectState:
    """``present``: an optional object is sent only once the user filled something in it (or it
    came with a value); ``extra`` holds the map's ``[key, value]`` rows."""

    children: dict[str, State] = field(default_factory=dict)
    present: bool = True
    extra: list[tuple[str, State]] = field(default_factory=list)


@dataclass(slots=True)
class ArrayState:
    items: list[State] = field(default_factory=list)
    #: An optional list is sent once the user added or removed an item, or it had a value.
    present: bool = True


@dataclass(slots=True)
class VariantState:
    """``chosen`` is an index into the choices, or ``None`` (an optional variant not given).
    Each choice keeps its own values while another is shown."""

    chosen: int | None = None
    states: dict[int, State] = field(default_factory=dict)


@dataclass(slots=True)
class JsonState:
    text: str = ""


@dataclass(slots=True)
class RecursiveState:
    """``node``/``inner`` are set once the user expanded the part."""

    node: Node | None = None
    inner: State | None = None


State: TypeAlias = (
    LeafState | ConstState | ObjectState | ArrayState | VariantState | JsonState | RecursiveState
)


def state_for(node: Node, value: Any = MISSING) -> State:
    """A fresh state for ``node``: from ``value`` when given, else from the schema's default.

    A value that does not fit (the wrong type, from hand-typed JSON) is kept as text where a
    field can hold text, so nothing the user typed is lost silently.
    """
    if isinstance(node, Leaf):  # its default was checked against its rules (or dropped)
        return LeafState(_leaf_raw(node, value))
    if value is MISSING and node.has_default:
        value = node.default
    if isinstance(node, Const):
        return ConstState(present=node.required or value is not MISSING)
    if isinstance(node, ObjectNode):
        return _object_state(node, value)
    if isinstance(node, ArrayNode):
        if isinstance(value, list):
            return ArrayState([state_for(node.items, v) for v in value], present=True)
        given = node.required and not node.nullable
        # A required list that needs items starts with that many, ready to fill in.
        count = min(node.min_items or 0, 20) if given else 0
        return ArrayState([state_for(node.items) for _ in range(count)], present=given)
    if isinstance(node, Variant):
        return _variant_state(node, value)
    if isinstance(node, Recursive):
        if value is MISSING or value is None:
            return RecursiveState()
        inner = node.expand()
        return RecursiveState(inner, state_for(inner, value))
    return JsonState("" if value is MISSING else _dumps(value))


def _object_state(node: ObjectNode, value: Any) -> ObjectState:
    given = value if isinstance(value, dict) else {}
    children = {c.name: state_for(c, given.get(c.name, MISSING)) for c in node.properties}
    extra: list[tuple[str, State]] = []
    if node.extra is not None:
        names = {c.name for c in node.properties}
        extra = [(k, state_for(node.extra, v)) for k, v in given.items() if k not in names]
    present = (node.required and not node.nullable) or isinstance(value, dict)
    return ObjectState(children, present, extra)


def _variant_state(node: Variant, value: Any) -> VariantState:
    if value is MISSING or (value is None and node.nullable):
        chosen = 0 if node.required and not node.nullable else None
        return VariantState(chosen)
    for index, choice in enumerate(node.choices):
        if fits(choice, value):
            return VariantState(index, {index: state_for(choice, value)})
    return VariantState(0, {0: state_for(node.choices[0], value)})


def _leaf_raw(node: Leaf, value: Any) -> RawValue:
    spec = node.field
    if value is MISSING:
        return initial_value(spec)
    if value is None:
        return _empty(node)
    if node.choices is not None:
        for index, choice in enumerate(node.choices):
            if choice == value and type(choice) is type(value):
                return str(index)
        return None
    kind = spec.kind
    if kind is FieldKind.BOOLEAN:
        return value if isinstance(value, bool) else None
    if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return number_to_text(value)
        return value if isinstance(value, str) else _dumps(value)
    if kind is FieldKind.MULTI_SELECT:
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    if kind is FieldKind.LIST:
        items = value if isinstance(value, list) else [value]
        return [v if isinstance(v, str) else _dumps(v) for v in items]
    if kind is FieldKind.SELECT:
        return value if isinstance(value, str) else None
    return value if isinstance(value, str) else _dumps(value)


def _empty(node: Leaf) -> RawValue:
    return [] if node.field.kind in (FieldKind.MULTI_SELECT, FieldKind.LIST) else None


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def fits(node: Node, value: Any) -> bool:
    """Whether ``value`` has the JSON shape ``node`` expects (to pick a variant for a value)."""
    if value is None:
        return node.nullable or (isinstance(node, Const) and node.value is None)
    if isinstance(node, Const):
        return bool(node.value == value and type(node.value) is type(value))
    if isinstance(node, ObjectNode):
        if not isinstance(value, dict):
            return False
        for child in node.properties:
            if child.name in value and not fits(child, value[child.name]):
                return False
            if child.required and not child.has_default and child.name not in value:
                return False
        return True
    if isinstance(node, ArrayNode):
        return isinstance(value, list) and all(fits(node.items, v) for v in value[:20])
    if isinstance(node, Variant):
        return any(fits(c, value) for c in node.choices)
    if isinstance(node, Leaf):
        if node.choices is not None:
            return any(c == value and type(c) is type(value) for c in node.choices)
        kind = node.field.kind
        if kind is FieldKind.BOOLEAN:
            return isinstance(value, bool)
        if kind is FieldKind.INTEGER:
            return isinstance(value, int) and not isinstance(value, bool)
        if kind is FieldKind.NUMBER:
            return isinstance(value, int | float) and not isinstance(value, bool)
        if kind in (FieldKind.MULTI_SELECT, FieldKind.LIST):
            return isinstance(value, list)
        return isinstance(value, str)
    return True
