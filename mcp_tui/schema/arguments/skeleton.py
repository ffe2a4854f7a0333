"""The smallest valid arguments a tree allows: required fields only, defaults filled.

This is what the JSON editor starts from (the old skeleton filled every optional field with ``0``
or ``null`` and broke ``minimum`` and types). Optional fields are left out, a required field takes
its default, else the first value that passes its own rules (the first choice, ``false``, a number
within the bounds, a string of the minimum length, an example of its format). When no such value
can be made up (a ``pattern``, a recursive part that is required), the reason is given with it.
"""

from __future__ import annotations

import math
from typing import Any

from mcp_tui.schema.fields import FieldKind, FieldSpec, TextFormat
from mcp_tui.schema.rules import check_typed, integer_bounds

from .nodes import ArrayNode, Const, JsonValue, Leaf, Node, ObjectNode, Recursive, Variant
from .state import fits

#: Recursive parts expanded while looking for a value.
MAX_SKELETON_DEPTH = 8

_FORMAT_EXAMPLES = {
    TextFormat.EMAIL: "name@example.com",
    TextFormat.URI: "https://example.com",
    TextFormat.DATE: "2000-01-01",
    TextFormat.DATE_TIME: "2000-01-01T00:00:00Z",
}


def skeleton(node: Node, depth: int = 0) -> tuple[Any, tuple[str, ...]]:
    """``(value, reasons)``: ``reasons`` is empty when ``value`` should satisfy ``node``."""
    if isinstance(node, Leaf):  # its default was checked against its rules (or dropped)
        return (None, ()) if node.nullable and not node.field.has_default else _leaf(node)
    if node.has_default:
        return node.default, ()
    if node.nullable and not isinstance(node, ObjectNode | ArrayNode):
        return None, ()
    if isinstance(node, Const):
        return node.value, ()
    if isinstance(node, ObjectNode):
        out: dict[str, Any] = {}
        reasons: list[str] = []
        for child in node.properties:
            if child.required:
                out[child.name], why = skeleton(child, depth)
                reasons.extend(why)
        if node.min_properties and len(out) < node.min_properties:
            reasons.append(f"{node.label or 'the object'} needs more entries")
        return out, tuple(reasons)
    if isinstance(node, ArrayNode):
        count = node.min_items or 0
        if not count:
            return [], ()
        item, why = skeleton(node.items, depth)
        reasons = list(why)
        if node.unique and count > 1:
            reasons.append(f"{node.label or 'the list'} needs {count} different items")
        return [item] * count, tuple(reasons)
    if isinstance(node, Variant):
        first: tuple[Any, tuple[str, ...]] | None = None
        for choice in node.choices:
            value, why = skeleton(choice, depth)
            if not why and node.exclusive and sum(fits(c, value) for c in node.choices) > 1:
                why = (f"{node.label or 'a value'}: fits more than one `oneOf` choice",)
            if not why:
                return value, ()
            first = first or (value, why)
        return first if first is not None else (None, ("no choice to pick",))
    if isinstance(node, Recursive):
        if depth >= MAX_SKELETON_DEPTH:
            return None, (f"{node.label or 'a part'} refers to itself without end",)
        return skeleton(node.expand(), depth + 1)
    if isinstance(node, JsonValue):
        return None, (() if node.why == "any JSON value" else (node.why,))
    return None, ("unknown part",)  # pragma: no cover - every node kind is handled above


def _leaf(node: Leaf) -> tuple[Any, tuple[str, ...]]:
    spec = node.field
    if node.choices is not None:
        return node.choices[0], ()
    if spec.has_default:
        return spec.default, ()
    for candidate in _candidates(spec, node.example):
        value, problem = check_typed(spec, candidate)
        if problem is None and value is not None:
            return value, ()
    why = f"{spec.title or 'a field'}: no value can be made up that fits its rules"
    return ("" if spec.kind is FieldKind.TEXT else None), (why,)


def _candidates(spec: FieldSpec, example: str | None) -> list[Any]:
    kind = spec.kind
    if kind is FieldKind.BOOLEAN:
        return [False]
    if kind is FieldKind.SELECT:
        return [o.value for o in spec.options[:1]]
    if kind is FieldKind.MULTI_SELECT:
        return [[o.value for o in spec.options[: spec.min_items or 0]]]
    if kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        return _numbers(spec)
    texts = [""]
    if spec.format is not None:
        texts.insert(0, _FORMAT_EXAMPLES[spec.format])
    if example is not None:
        texts.insert(0, example)
    if spec.min_length:
        texts.append("x" * spec.min_length)
    return texts


def _numbers(spec: FieldSpec) -> list[Any]:
    lo, hi = integer_bounds(spec)
    out: list[Any] = [0]
    step = spec.multiple_of
    for bound in (lo, hi):
        if bound is None:
            continue
        out.append(bound)
        if step:
            out.append(math.ceil(bound / step) * step)
            out.append(math.floor(bound / step) * step)
    if spec.kind is FieldKind.NUMBER:
        low = spec.exclusive_minimum if spec.exclusive_minimum is not None else spec.minimum
        if low is not None:
            out.extend([low + 0.5, low + 1e-6])
        high = spec.exclusive_maximum if spec.exclusive_maximum is not None else spec.maximum
        if high is not None and low is not None:
            out.append((low + high) / 2)
    if spec.kind is FieldKind.INTEGER:
        return [int(v) if isinstance(v, float) and v.is_integer() else v for v in out]
    return out
