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

from mcp_tui.check.findings import Finding, Listing, finding, pointer, rule
from mcp_tui.errors import SchemaError
from mcp_tui.untrusted import one_line

FORMATS = ("email", "uri", "date", "date-time")
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


def _requests(listing: Listing) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
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


@rule("E101", "warning", "requestedSchema keyword outside the spec's subset for the era")
def keywords(listing: Listing) -> Iterator[Finding]:
    by_shape, root_allowed = subset_for(listing.era)
    for where, schema, _ in _requests(listing):
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


@rule("E102", "error", "requestedSchema property of a shape outside the spec's subset")
def shapes(listing: Listing) -> Iterator[Finding]:
    for where, schema, _ in _requests(listing):
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


@rule("E103", "warning", "enumNames not as long as enum")
def enum_names(listing: Listing) -> Iterator[Finding]:
    for where, schema, _ in _requests(listing):
        for name, prop in _properties(schema):
            values, names = prop.get("enum"), prop.get("enumNames")
            if isinstance(values, list) and isinstance(names, list) and len(values) != len(names):
                yield finding(
                    "E103",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, "enumNames"),
                    f"{len(names)} enumNames for {len(values)} enum values: clients pair them by "
                    "position, so labels shift or the form is refused",
                    "give one name per value, or use oneOf with const/title",
                )


@rule("E104", "error", "a default that does not fit its own field")
def defaults(listing: Listing) -> Iterator[Finding]:
    from jsonschema import Draft202012Validator
    from referencing import Registry

    for where, schema, _ in _requests(listing):
        for name, prop in _properties(schema):
            if "default" not in prop:
                continue
            try:
                errors = list(
                    Draft202012Validator(prop, registry=Registry()).iter_errors(prop["default"])
                )
            except Exception:
                continue
            if errors:
                yield finding(
                    "E104",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, "default"),
                    f"the default of '{one_line(name, limit=60)}' does not fit the field: "
                    f"{one_line(errors[0].message, limit=160)}; a client that pre-fills it sends "
                    "an answer the server's own schema refuses",
                    "make the default one of the values the field allows",
                )


@rule("E105", "warning", "a string format the spec does not list")
def formats(listing: Listing) -> Iterator[Finding]:
    for where, schema, _ in _requests(listing):
        for name, prop in _properties(schema):
            fmt = prop.get("format")
            if fmt is not None and fmt not in FORMATS:
                yield finding(
                    "E105",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, "format"),
                    f"format {one_line(repr(fmt), limit=60)} is not one of the spec's "
                    f"({', '.join(FORMATS)}): clients treat the field as plain text",
                    "use one of the listed formats, or describe the expected form in the "
                    "description and check it on the server",
                )


@rule("E106", "error", "required names a field that is not in properties")
def required_names(listing: Listing) -> Iterator[Finding]:
    for where, schema, _ in _requests(listing):
        properties = schema.get("properties")
        required = schema.get("required")
        if not isinstance(properties, dict) or not isinstance(required, list):
            continue
        for index, name in enumerate(required):
            if name not in properties:
                yield finding(
                    "E106",
                    listing,
                    where,
                    pointer("requestedSchema", "required", index),
                    f"'{one_line(name, limit=60)}' is required but not a property: no answer can "
                    "ever be valid",
                    "remove it from 'required' or add the property",
                )


@rule("E107", "info", "legacy enumNames (deprecated since 2025-11-25)")
def legacy_enum_names(listing: Listing) -> Iterator[Finding]:
    if listing.era < "2025-11-25":
        return
    for where, schema, _ in _requests(listing):
        for name, prop in _properties(schema):
            if "enumNames" in prop:
                yield finding(
                    "E107",
                    listing,
                    where,
                    pointer("requestedSchema", "properties", name, "enumNames"),
                    "enumNames is deprecated: newer clients may show the raw values",
                    'use "oneOf": [{"const": value, "title": label}, ...]',
                )


def _properties(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, prop in properties.items():
            if isinstance(prop, dict):
                yield name, prop
