"""What a schema looks like, read without building anything: helpers of :mod:`.build`.

Whether ``items`` are string choices or free scalars, the choices of an ``enum`` or of ``const``
options and their labels, an ``allOf`` merged, where a local ``$ref`` points, the type a schema
without ``type`` implies, a short label for a variant's choice; and the flat string-only schema
the UI builds for a prompt's arguments and a template's variables. Pure functions on JSON-shaped
dicts.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from mcp_tui.schema import keywords as kw
from mcp_tui.schema.fields import FieldKind
from mcp_tui.schema.normalize import Unreadable, merge, pointer_target
from mcp_tui.untrusted import one_line

from .nodes import ArrayNode, Const, Leaf, Node, ObjectNode

#: Keywords no node shows, checked when the arguments are sent (a note says so).
_CHECKED_ON_SEND = (
    *("not", "if", "dependentSchemas", "dependencies", "patternProperties"),
    *("unevaluatedProperties", "propertyNames", "contains", "unevaluatedItems"),
)


def checked_on_send(schema: dict[str, Any]) -> list[str]:
    """Notes for the keywords of ``schema`` a node does not show but the final check applies."""
    return [
        f"`{key}` is checked when the arguments are sent"
        for key in _CHECKED_ON_SEND
        if key in schema
    ]


def all_consts(options: list[Any]) -> bool:
    return all(isinstance(o, dict) and "const" in o and "properties" not in o for o in options)


def string_choices(items: dict[str, Any]) -> bool:
    """``items`` the flat engine renders as a multi-select: string ``enum`` / titled consts."""
    if items.get("type", "string") != "string" or kw.REFERENCES & items.keys():
        return False
    if isinstance(items.get("enum"), list):
        return all(isinstance(v, str) for v in items["enum"])
    for key in ("anyOf", "oneOf"):
        options = items.get(key)
        if isinstance(options, list) and options:
            return all(isinstance(o, dict) and isinstance(o.get("const"), str) for o in options)
    return False


def string_enum(schema: dict[str, Any]) -> bool:
    values = schema["enum"]
    strings = isinstance(values, list) and len(values) > 1
    strings = strings and all(isinstance(v, str) for v in values)
    return strings and schema.get("type", "string") == "string"


def free_scalars(items: dict[str, Any]) -> bool:
    """``items`` the flat engine edits as a list of free strings or numbers (``FieldKind.LIST``)."""
    plain = not ({"enum", "const", "anyOf", "oneOf", "allOf"} | kw.REFERENCES) & items.keys()
    return plain and items.get("type") in ("string", "number", "integer")


def choices(schema: dict[str, Any]) -> tuple[list[Any] | None, list[str]]:
    if "enum" in schema:
        values = schema["enum"]
        if not isinstance(values, list):
            return None, []
        names = schema.get("enumNames")
        names = names if isinstance(names, list) else []
        # A choice enumNames does not name shows its value (as in elicitation forms).
        labels = [str(names[i]) if i < len(names) else shown(v) for i, v in enumerate(values)]
        return list(values), labels
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list):
            values = [o["const"] for o in options]
            labels = [
                o["title"] if isinstance(o.get("title"), str) else shown(o["const"])
                for o in options
            ]
            return values, labels
    return None, []


def shown(value: object) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def example(schema: dict[str, Any]) -> str | None:
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return one_line(shown(examples[0]), limit=80)
    return None


def onto(base: dict[str, Any], part: object) -> Any:
    """``part`` under ``base``'s keywords (a ``$ref``'s or a variant's siblings); when the two
    contradict each other, ``part`` as it is (the server's schema still checks the answer)."""
    if not isinstance(part, dict):
        return part
    try:
        return merge(base, part)
    except Unreadable:
        return part


def merge_all_of(schema: dict[str, Any]) -> dict[str, Any]:
    """``allOf`` members merged into one schema; :class:`Unreadable` when they contradict."""
    members = schema.get("allOf")
    if not isinstance(members, list):
        raise Unreadable("", "must be a list of schemas")
    out = {k: v for k, v in schema.items() if k != "allOf"}
    for member in members:
        out = merge(out, member)
    return out


def inferred_type(schema: dict[str, Any]) -> str | None:
    if {"properties", "additionalProperties", "required"} & schema.keys():
        return "object"
    if {"items", "minItems", "maxItems", "prefixItems"} & schema.keys():
        return "array"
    if kw.BY_TYPE["string"] & schema.keys():
        return "string"
    if kw.BY_TYPE["number"] & schema.keys():
        return "number"
    return None


def count(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


def local_target(root: dict[str, Any], ref: object) -> object | None:
    """What a local reference (``#``, ``#/$defs/X``, any JSON Pointer, a ``#name`` anchor) names
    in the document ``root``, or ``None`` (also for a reference to another document)."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    pointer = ref[1:]
    if pointer and not pointer.startswith("/"):
        return _anchor(root, pointer)
    try:
        return pointer_target(root, pointer)
    except LookupError:
        return None


def _anchor(root: dict[str, Any], anchor: str) -> object | None:
    """A ``$anchor`` (``#name``) anywhere in the document, searched breadth-first."""
    queue: list[object] = [root]
    seen = 0
    while queue and seen < 10_000:
        node = queue.pop(0)
        seen += 1
        if isinstance(node, dict):
            if node.get("$anchor") == anchor:
                return node
            queue.extend(node.values())
        elif isinstance(node, list):
            queue.extend(node)
    return None


def label(node: Node, schema: object, index: int) -> str:
    """A short name for a variant choice: its own title, its tag, its type."""
    if isinstance(schema, dict) and isinstance(schema.get("title"), str):
        return one_line(schema["title"], limit=60)
    if isinstance(node, ObjectNode):
        for child in node.properties:
            if isinstance(child, Const) and isinstance(child.value, str):
                return child.value
        names = ", ".join(c.name for c in node.properties[:3])
        return f"object ({names})" if names else "object"
    if isinstance(node, Const):
        return shown(node.value)
    if isinstance(node, ArrayNode):
        return "list"
    if isinstance(node, Leaf):
        kind = node.field.kind
        return {FieldKind.TEXT: "text", FieldKind.SELECT: "choice"}.get(kind, kind.value)
    if isinstance(schema, dict) and isinstance(schema.get("type"), str):
        return one_line(schema["type"], limit=30)
    return f"option {index + 1}"


def string_object_schema(fields: Iterable[tuple[str, str | None, bool]]) -> dict[str, Any]:
    """A flat object schema of string properties (prompt arguments, template variables)."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, description, needed in fields:
        prop: dict[str, Any] = {"type": "string"}
        if description:
            prop["description"] = description
        properties[name] = prop
        if needed:
            required.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema
