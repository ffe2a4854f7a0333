"""A server's ``requestedSchema`` (or a tool's ``inputSchema``) → a :class:`FormSpec`.

The subset understood is the union of the elicitation schema of the 2025-06-18, 2025-11-25 and
2026-07-28 revisions: a root ``{"type": "object", "properties": {...}, "required": [...]}`` with
optional ``title``/``description``/``$schema``; properties that are strings (``minLength``,
``maxLength``, ``format``: email/uri/date/date-time, and ``pattern``, honoured only through RE2),
numbers and integers (``minimum``, ``maximum``, and also ``exclusiveMinimum``/``exclusiveMaximum``
/``multipleOf``), booleans, single selects (untitled ``enum``, titled ``oneOf`` of
``{const, title}``, legacy ``enum`` + ``enumNames``; ``anyOf`` of consts is read like ``oneOf``) and
multi selects (``type: "array"`` with ``items.enum`` or ``items.anyOf``, ``minItems``,
``maxItems``). Property order is the form's order. Defaults are checked against their own field
and dropped with a note when they break it.

Before that, :mod:`mcp_tui.schema.normalize` rewrites what SDKs generate for the same flat fields:
local ``$ref`` s (``#/$defs/X``, ``#/definitions/X``) and non-contradicting ``allOf`` are written
out, and "T or null" (``anyOf``/``oneOf`` with ``{"type": "null"}``, ``type: [T, "null"]``) becomes
a field of type T marked ``nullable``. The form's ``schema`` stays the one received.

Everything else is refused with one :class:`~mcp_tui.errors.SchemaError` that lists *every* problem
with its property path (``age: minimum (10) is greater than maximum (5)``): nested objects, arrays
of objects or free text, references that are remote, recursive or too large, ``not``/``if`` and
other applicators, a choice between several types, a non-object root, ``required`` naming an
unknown property, ``minimum > maximum``, ``minLength > maxLength``, ``enumNames`` of another
length, empty or duplicate options, NaN/Infinity, titles or values that are not strings, and sizes
that would freeze a terminal. Unknown keywords and formats, dropped defaults and refused patterns
are *notes* on the field or form, never fatal.

Size limits (all exported here; see :mod:`mcp_tui.schema.limits` for the reasons):
at most ``MAX_FIELDS`` = 500 fields, ``MAX_OPTIONS`` = 10,000 options per field and
``MAX_TOTAL_OPTIONS`` = 50,000 per form; names ≤ 256 characters, titles ≤ 1,000,
descriptions ≤ 20,000, option values ≤ 1,000, string defaults ≤ 100,000, patterns ≤ 1,000;
an error lists at most ``MAX_PROBLEMS`` = 100 problems and counts the rest.

:func:`classify_input_schema` applies the same parser to a tool's ``inputSchema``: flat ones
become forms, anything else is :class:`NeedsJsonEditor` with the reasons (never an error).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcp_tui.errors import SchemaError, SchemaProblem
from mcp_tui.schema import keywords as kw
from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.schema.limits import (
    MAX_DEFAULT_LENGTH,
    MAX_DESCRIPTION_LENGTH,
    MAX_FIELDS,
    MAX_NAME_LENGTH,
    MAX_OPTION_LENGTH,
    MAX_OPTIONS,
    MAX_PATTERN_LENGTH,
    MAX_PROBLEMS,
    MAX_TITLE_LENGTH,
    MAX_TOTAL_OPTIONS,
)
from mcp_tui.schema.normalize import inline_refs
from mcp_tui.schema.parse_fields import FieldParser
from mcp_tui.schema.parse_kinds import name_of
from mcp_tui.schema.rules import json_type, shown
from mcp_tui.untrusted import one_line

__all__ = [
    "MAX_DEFAULT_LENGTH",
    "MAX_DESCRIPTION_LENGTH",
    "MAX_FIELDS",
    "MAX_NAME_LENGTH",
    "MAX_OPTIONS",
    "MAX_OPTION_LENGTH",
    "MAX_PATTERN_LENGTH",
    "MAX_PROBLEMS",
    "MAX_TITLE_LENGTH",
    "MAX_TOTAL_OPTIONS",
    "NeedsJsonEditor",
    "classify_input_schema",
    "parse_requested_schema",
]

_ROOT_HANDLED = frozenset({"type", "properties", "required", "$schema", "additionalProperties"})


def parse_requested_schema(schema: object) -> FormSpec:
    """Build the form for ``schema`` or raise :class:`SchemaError` listing every problem.

    An elicitation answer may hold only lists of *strings* (the spec's ``ElicitResult.content``
    is ``string | number | boolean | string[]``, and the SDK refuses anything else, in the
    result model and again in its wire check), so a list of numbers is refused here, with that
    reason; a tool's arguments (:func:`classify_input_schema`) can hold one.
    """
    return _parse_checked(schema, elicitation=True)


def _parse_checked(schema: object, *, elicitation: bool) -> FormSpec:
    problems: list[SchemaProblem] = []
    try:
        form = _parse(schema, problems)
        if form is not None and elicitation:
            _answer_types(form, problems)
    except Exception as exc:  # a parser defect must reach the user as a refusal, not a crash
        problems.append(SchemaProblem("", f"the schema could not be read ({type(exc).__name__})"))
        form = None
    if problems or form is None:
        raise SchemaError(_capped(problems or [SchemaProblem("", "the schema is not usable")]))
    return form


def _answer_types(form: FormSpec, problems: list[SchemaProblem]) -> None:
    for f in form.fields:
        if f.kind is FieldKind.LIST and f.item is not None and f.item.kind is not FieldKind.TEXT:
            problems.append(
                SchemaProblem(
                    one_line(f.name, limit=60),
                    "a list of numbers cannot be answered: an elicitation answer holds only "
                    "lists of strings",
                )
            )


@dataclass(frozen=True, slots=True)
class NeedsJsonEditor:
    """A tool ``inputSchema`` richer than a flat form: edit the arguments as JSON instead.

    ``reason`` is one line for the UI; ``problems`` are the parser's findings, with paths.
    """

    reason: str
    problems: tuple[SchemaProblem, ...] = ()
    schema: object = field(default=None, compare=False, repr=False)


def classify_input_schema(schema: object) -> FormSpec | NeedsJsonEditor:
    """A tool's ``inputSchema`` as a form when it is flat, else :class:`NeedsJsonEditor`.

    Besides everything :func:`parse_requested_schema` refuses, a root without ``properties``
    that allows extra properties (free-form arguments) goes to the JSON editor.
    """
    if isinstance(schema, dict) and "properties" not in schema:
        extra = schema.get("additionalProperties")
        if extra is not None and extra is not False:
            return NeedsJsonEditor("the tool accepts free-form arguments", (), schema)
    try:
        return _parse_checked(schema, elicitation=False)
    except SchemaError as exc:
        first = exc.problems[0]
        more = len(exc.problems) - 1
        reason = f"needs the JSON editor: {first}" + (f" (and {more:,} more)" if more else "")
        return NeedsJsonEditor(one_line(reason, limit=200), tuple(exc.problems), schema)


def _capped(problems: list[SchemaProblem]) -> list[SchemaProblem]:
    if len(problems) <= MAX_PROBLEMS:
        return problems
    rest = len(problems) - MAX_PROBLEMS
    return [*problems[:MAX_PROBLEMS], SchemaProblem("", f"… and {rest:,} more problems")]


def _parse(schema: object, problems: list[SchemaProblem]) -> FormSpec | None:
    if not isinstance(schema, dict):
        problems.append(
            SchemaProblem("", f"the schema must be a JSON object, got {json_type(schema)}")
        )
        return None
    original = schema
    inlined, unreadable = inline_refs(schema)
    if unreadable:
        problems.extend(unreadable)
        return None
    assert isinstance(inlined, dict)
    schema = inlined
    notes: list[str] = []
    if schema.get("type") != "object":
        got = shown(schema["type"]) if "type" in schema else "nothing"
        problems.append(SchemaProblem("type", f'the root must be "object", got {got}'))
    title = _root_text(schema, "title", MAX_TITLE_LENGTH, problems)
    description = _root_text(schema, "description", MAX_DESCRIPTION_LENGTH, problems)
    _root_keywords(schema, notes, problems)
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        problems.append(
            SchemaProblem("properties", f"must be an object, got {json_type(properties)}")
        )
        properties = {}
    elif len(properties) > MAX_FIELDS:
        problems.append(
            SchemaProblem(
                "properties", f"has {len(properties):,} fields; a form shows at most {MAX_FIELDS:,}"
            )
        )
        return None
    required = _required(schema.get("required"), properties, problems)
    fields = _fields(properties, required, problems)
    if problems:
        return None
    return FormSpec(
        fields=tuple(fields),
        title=title,
        description=description,
        notes=tuple(notes),
        schema=_without_repeated_choices(original, fields),
    )


def _without_repeated_choices(schema: dict[str, Any], fields: list[FieldSpec]) -> dict[str, Any]:
    """``schema`` without a multi-select's top-level ``enum`` that only repeats its ``items``'
    choices (the parser checked they agree): read literally, it would allow only arrays equal
    to one of those strings, so the final check would refuse every answer."""
    properties = schema.get("properties")
    names = [f.name for f in fields if f.kind is FieldKind.MULTI_SELECT]
    if not isinstance(properties, dict) or not any(
        isinstance(properties.get(n), dict) and "enum" in properties[n] for n in names
    ):
        return schema
    kept = dict(properties)
    for name in names:
        prop = kept.get(name)
        if isinstance(prop, dict) and "enum" in prop:
            kept[name] = {k: v for k, v in prop.items() if k != "enum"}
    return {**schema, "properties": kept}


def _root_text(
    schema: dict[str, Any], key: str, limit: int, problems: list[SchemaProblem]
) -> str | None:
    value = schema.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        problems.append(SchemaProblem(key, f"must be a string, got {json_type(value)}"))
        return None
    if len(value) > limit:
        problems.append(SchemaProblem(key, f"is longer than {limit:,} characters"))
        return None
    return value


def _root_keywords(schema: dict[str, Any], notes: list[str], problems: list[SchemaProblem]) -> None:
    dialect = schema.get("$schema")
    if dialect is not None:
        if not isinstance(dialect, str):
            notes.append("`$schema` is not a string; ignored")
        elif dialect not in kw.TWENTY_TWENTY:
            notes.append(
                f"declares {one_line(dialect, limit=100)}; answers are checked as JSON Schema "
                "2020-12"
            )
    extra = schema.get("additionalProperties")
    if extra is not None and not isinstance(extra, bool):
        notes.append("`additionalProperties` ignored: only the listed properties are ever sent")
    for key in schema:
        if key in _ROOT_HANDLED or key in kw.SILENT:
            continue
        shown_key = name_of(key)
        if key in kw.REFERENCES:
            problems.append(
                SchemaProblem(
                    key, "references are not supported: every property must be written out in full"
                )
            )
        elif key in kw.STRUCTURAL or key in kw.BY_TYPE["object"] or key in ("enum", "const"):
            problems.append(SchemaProblem(key, f"`{shown_key}` at the top level is not supported"))
        elif key in kw.VOCABULARY:
            notes.append(f"top-level `{shown_key}` ignored")
        else:
            notes.append(f"unknown keyword `{shown_key}` ignored")


def _required(
    value: object, properties: dict[str, Any], problems: list[SchemaProblem]
) -> frozenset[str]:
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        problems.append(
            SchemaProblem("required", f"must be a list of property names, got {json_type(value)}")
        )
        return frozenset()
    names: set[str] = set()
    for i, name in enumerate(value):
        if not isinstance(name, str):
            problems.append(
                SchemaProblem(f"required[{i}]", f"must be a property name, got {json_type(name)}")
            )
        elif name not in properties:
            problems.append(
                SchemaProblem("required", f"names {shown(name)}, which is not a property")
            )
        else:
            names.add(name)
    return frozenset(names)


def _fields(
    properties: dict[str, Any], required: frozenset[str], problems: list[SchemaProblem]
) -> list[FieldSpec]:
    fields: list[FieldSpec] = []
    total_options = 0
    for name, prop in properties.items():
        if not isinstance(name, str):  # pragma: no cover - JSON keys are strings
            continue
        path = one_line(name, limit=60)
        if len(name) > MAX_NAME_LENGTH:
            problems.append(
                SchemaProblem(path, f"the name is longer than {MAX_NAME_LENGTH:,} characters")
            )
            continue
        spec = FieldParser(name, path, problems).parse(prop, name in required)
        if spec is not None:
            total_options += len(spec.options)
            fields.append(spec)
    if total_options > MAX_TOTAL_OPTIONS:
        problems.append(
            SchemaProblem(
                "properties",
                f"{total_options:,} choices in all; a form shows at most {MAX_TOTAL_OPTIONS:,}",
            )
        )
    return fields
