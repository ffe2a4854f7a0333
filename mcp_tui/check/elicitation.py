"""Checks of every ``requestedSchema`` seen against the spec's restricted subset, era by era.

mcp-tui renders far more than the subset (``anyOf`` with null, ``$ref``/``$defs``, integer enums,
free string lists, ``pattern``: what pydantic and zod emit), which is right for a client and hides
from a server author that stricter clients do not. Two kinds of client matter here:

- clients built on the TypeScript SDK (the MCP Inspector among them) check each property against
  the spec's primitive shapes (a zod union) and fail the whole request when one does not fit;
  keywords the shapes do not name pass that check but are ignored: not shown, not enforced;
- clients that draw only the spec's shapes show an unknown shape as a text box, or drop the field.

The subset by era (``mcp_types``' ``StringSchema`` ... ``TitledMultiSelectEnumSchema``):
2025-06-18 has string (``minLength``, ``maxLength``, ``format``), number/integer (``minimum``,
``maximum``), boolean (``default``) and string ``enum`` with ``enumNames``; 2025-11-25 adds
``default`` everywhere, titled single-select (``oneOf`` of ``const``/``title``), multi-select
arrays (``items.enum`` or ``items.anyOf``, ``minItems``, ``maxItems``) and ``$schema``, and
deprecates ``enumNames``; 2026-07-28 keeps 2025-11-25's shapes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcp_tui.check.findings import Finding, Listing, finding, form_example, pointer, rule
from mcp_tui.errors import SchemaError
from mcp_tui.untrusted import one_line

_COMMON = {"type", "title", "description"}
_BY_SHAPE_2025_06 = {
    "string": _COMMON | {"minLength", "maxLength", "format"},
    "number": _COMMON | {"minimum", "maximum"},
    "boolean": _COMMON | {"default"},
    "enum": _COMMON | {"enum", "enumNames"},
}
_BY_SHAPE_2025_11 = {
    "string": _COMMON | {"minLength", "maxLength", "format", "default"},
    "number": _COMMON | {"minimum", "maximum", "default"},
    "boolean": _COMMON | {"default"},
    "enum": _COMMON | {"enum", "enumNames", "default"},
    "titled": _COMMON | {"oneOf", "default"},
    "multi": _COMMON | {"items", "minItems", "maxItems", "default"},
}
_ROOT = {"type", "properties", "required"}


def subset_for(era: str) -> tuple[dict[str, set[str]], set[str]]:
    """The keywords each shape may carry on ``era``, and the root's."""
    if era < "2025-11-25":
        return _BY_SHAPE_2025_06, _ROOT
    return _BY_SHAPE_2025_11, _ROOT | {"$schema"}


def shape_of(prop: dict[str, Any], era: str) -> str | None:
    """The spec shape ``prop`` is (``string``, ``number``, ``boolean``, ``enum``, ``titled``,
    ``multi``), or ``None`` when it is none of the era's shapes."""
    kind = prop.get("type")
    if kind == "string":
        if "enum" in prop:
            return "enum" if _strings(prop["enum"]) else None
        if "oneOf" in prop:
            return "titled" if era >= "2025-11-25" and _titled(prop["oneOf"]) else None
        return "string"
    if kind in ("number", "integer"):
        return None if "enum" in prop or "oneOf" in prop else "number"
    if kind == "boolean":
        return "boolean"
    if kind == "array" and era >= "2025-11-25":
        items = prop.get("items")
        if isinstance(items, dict) and (
            (
                items.get("type") == "string"
                and _strings(items.get("enum"))
                and set(items) <= {"type", "enum"}
            )
            or (set(items) == {"anyOf"} and _titled(items["anyOf"]))
        ):
            return "multi"
    return None


def _strings(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _titled(options: object) -> bool:
    return (
        isinstance(options, list)
        and bool(options)
        and all(
            isinstance(o, dict)
            and isinstance(o.get("const"), str)
            and isinstance(o.get("title"), str)
            and set(o) <= {"const", "title"}
            for o in options
        )
    )


def form_requests(listing: Listing) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Each form request seen: (where, its requestedSchema, its params)."""
    for params in listing.elicitations:
        if params.get("mode", "form") != "form":
            continue
        schema = params.get("requestedSchema")
        if isinstance(schema, dict):
            call = params.get("_mcp_tui_call")
            where = f"elicitation in {one_line(call, limit=80)}" if call else "elicitation"
            yield where, schema, params


def _renders(schema: dict[str, Any]) -> str | None:
    """``None`` when mcp-tui renders ``schema`` as a form, else its first reason not to."""
    from mcp_tui.schema import parse_requested_schema

    try:
        parse_requested_schema(schema)
    except SchemaError as refused:
        return str(refused.problems[0]) if refused.problems else "refused"
    return None


@rule(
    "E101",
    "warning",
    "requestedSchema keyword outside the spec's subset for the era",
    why=(
        "An elicitation's requestedSchema is a restricted subset of JSON Schema, which "
        "differs by era. A keyword outside it is ignored by strict clients: not shown, not "
        "enforced, so the answer may not be what the server checks for."
    ),
    bad={"elicitations": [form_example({"name": {"type": "string", "pattern": "^[a-z]+$"}})]},
    good={"elicitations": [form_example({"name": {"type": "string", "maxLength": 20}})]},
)
def keywords(listing: Listing) -> Iterator[Finding]:
    by_shape, root_allowed = subset_for(listing.era)
    for where, schema, _ in form_requests(listing):
        renders = _renders(schema) is None
        for key in sorted(set(schema) - root_allowed):
            if key in ("title", "description", "additionalProperties"):
                continue  # harmless at the root: every client ignores them
            yield finding(
                "E101",
                listing,
                where,
                pointer("requestedSchema", key),
                f"'{one_line(key, limit=40)}' at the root is not in the {listing.era} subset: "
                "clients ignore it" + _resolution(key),
                f"remove '{one_line(key, limit=40)}'" + _resolution_fix(key),
            )
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            continue
        for name, prop in properties.items():
            if not isinstance(prop, dict):
                continue
            shape = shape_of(prop, listing.era)
            if shape is None:
                continue  # E102 reports the shape itself
            extra = sorted(set(prop) - by_shape[shape])
            for key in extra:
                yield finding(
                    "E101",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, key),
                    f"'{one_line(key, limit=40)}' is not part of the {listing.era} {shape} field: "
                    "strict clients ignore it (not shown, not enforced)"
                    + ("; mcp-tui applies it" if renders else ""),
                    f"check the value on the server after the answer, or drop "
                    f"'{one_line(key, limit=40)}'",
                )


def _resolution(key: str) -> str:
    return ", so references under it cannot be resolved" if key in ("$defs", "definitions") else ""


def _resolution_fix(key: str) -> str:
    return " and inline what the properties refer to" if key in ("$defs", "definitions") else ""


@rule(
    "E102",
    "error",
    "requestedSchema property of a shape outside the spec's subset",
    why=(
        "Each field of a form must be one of the spec's shapes (string, number, boolean, "
        "single or multi select). pydantic's optional fields (anyOf with null), $ref'd enums "
        "and nested objects are none: clients built on the TypeScript SDK reject the whole "
        "request, others show a text box or drop the field."
    ),
    bad={
        "elicitations": [
            form_example(
                {"nick": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}}
            )
        ]
    },
    good={"elicitations": [form_example({"nick": {"type": "string"}})]},
)
def shapes(listing: Listing) -> Iterator[Finding]:
    for where, schema, _ in form_requests(listing):
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            yield finding(
                "E102",
                listing,
                where,
                pointer("requestedSchema", "properties"),
                "the requested schema has no 'properties' object",
                'send {"type": "object", "properties": {...}}',
            )
            continue
        for name, prop in properties.items():
            if isinstance(prop, dict) and shape_of(prop, listing.era) is not None:
                continue
            single = {"type": "object", "properties": {name: prop}}
            if "$defs" in schema:
                single["$defs"] = schema["$defs"]
            reason = _renders(single)
            tui = (
                "mcp-tui renders it, but "
                if reason is None
                else f"mcp-tui refuses it too ({one_line(reason, limit=160)}); "
            )
            rejected = _rejected_whole(prop)
            others = (
                "clients built on the TypeScript SDK (the MCP Inspector among them) reject the "
                "whole request, and others show a text box or drop the field"
                if rejected
                else "other clients show a plain number box: the choices are lost"
            )
            yield finding(
                "E102",
                listing,
                where,
                pointer("requestedSchema", "properties", name),
                f"field '{one_line(name, limit=60)}' ({_describe(prop)}) is none of the "
                f"{listing.era} shapes: {tui}{others}",
                _shape_fix(prop, listing.era),
                severity="error" if rejected or reason is not None else "warning",
            )


def _rejected_whole(prop: object) -> bool:
    """Whether a client that checks each property against the spec's shapes (the TypeScript
    SDK's zod union, which ignores unknown keys) refuses ``prop``: only a number or integer with
    an ``enum``/``oneOf`` still passes, as a plain number."""
    return not (isinstance(prop, dict) and prop.get("type") in ("number", "integer"))


def _describe(prop: object) -> str:
    if not isinstance(prop, dict):
        return f"a JSON {type(prop).__name__}"
    for key in ("$ref", "anyOf", "oneOf", "allOf"):
        if key in prop and not (key == "oneOf" and prop.get("type") == "string"):
            return f"uses {key}"
    kind = prop.get("type")
    if isinstance(kind, list):
        return f"type {one_line(kind, limit=60)}"
    if kind in ("integer", "number") and "enum" in prop:
        return f"{kind} enum"
    if kind == "array":
        return (
            "a list of free values"
            if not isinstance(prop.get("items"), dict) or "enum" not in prop["items"]
            else "a list"
        )
    if kind == "object":
        return "a nested object"
    return f"type {one_line(repr(kind), limit=40)}"


def _shape_fix(prop: object, era: str) -> str:
    text = _describe(prop)
    if "$ref" in text:
        return "inline the referenced schema (pydantic: a Literal instead of an Enum class)"
    if "anyOf" in text or "type [" in text:
        return "make the field optional by leaving it out of 'required', not with null"
    if "enum" in text:
        return "use string choices (a titled oneOf of const/title when the values are numbers)"
    if "list" in text:
        return (
            "use a multi-select (items with a string enum)"
            if era >= "2025-11-25"
            else "ask for the values one at a time, or upgrade to 2025-11-25 multi-select"
        )
    if "object" in text:
        return "flatten the object into top-level fields"
    return "use one of the spec's field shapes"
