"""Property tests: any schema in the subset, any answer, any junk — never an exception.

* For any generated schema within the subset, the all-defaults answer and random valid answers
  pass jsonschema against the ORIGINAL schema (an independent oracle, not our own check).
* Random invalid input gives per-field messages, never an exception, and whatever is accepted
  still passes the oracle.
* Random junk schemas give a FormSpec or a SchemaError, never another exception, and the forms
  they give can still be validated without exceptions.
"""

from __future__ import annotations

import math
import os
import re
from datetime import date
from typing import Any

import jsonschema
import referencing
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mcp_tui.errors import SchemaError
from mcp_tui.schema import (
    FieldKind,
    FieldSpec,
    FormSpec,
    RawValue,
    complete_with_defaults,
    constraint_text,
    initial_value,
    initial_values,
    parse_requested_schema,
    placeholder,
    validate_form,
)
from mcp_tui.schema.fields import NULL

SETTINGS = settings(
    max_examples=int(os.environ.get("SCHEMA_EXAMPLES", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Patterns whose valid strings hypothesis can generate and that Python's re (the oracle) runs
# quickly on matching input.
PATTERNS = ["^[a-z]+$", "[0-9]", "^[A-Z][a-z]{1,8}$", "^\\d{3}-\\d{4}$", "^(ab)+$"]

words = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
labels = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_ ", min_size=1, max_size=10)


def oracle(content: object, schema: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(schema, registry=referencing.Registry())
    errors = [e.message for e in validator.iter_errors(content)]
    assert not errors, errors


# ---------------------------------------------------------------- schemas in the subset


@st.composite
def string_prop(draw: st.DrawFn) -> dict[str, Any]:
    flavour = draw(st.sampled_from(["text", "email", "uri", "date", "date-time", "pattern"]))
    prop: dict[str, Any] = {"type": "string"}
    if flavour == "text":
        lo = draw(st.none() | st.integers(0, 5))
        hi = draw(st.none() | st.integers(max(lo or 0, 1), 12))
        if lo is not None:
            prop["minLength"] = lo
        if hi is not None:
            prop["maxLength"] = hi
    elif flavour == "pattern":
        prop["pattern"] = draw(st.sampled_from(PATTERNS))
    else:
        prop["format"] = flavour
    if draw(st.booleans()):
        prop["default"] = draw(st.one_of(words, st.just("ada@example.com"), st.just("2024-02-29")))
    return prop


@st.composite
def number_prop(draw: st.DrawFn) -> dict[str, Any]:
    integer = draw(st.booleans())
    prop: dict[str, Any] = {"type": "integer" if integer else "number"}
    bound = st.integers(-1000, 1000) | st.floats(-1000, 1000, allow_nan=False).map(
        lambda x: round(x, 2)
    )
    lo, hi = draw(st.none() | bound), draw(st.none() | bound)
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    if lo is not None and hi is not None and integer and math.ceil(lo) > math.floor(hi):
        hi = math.ceil(lo)
    exclusive = draw(st.booleans()) and lo is not None and hi is not None and hi - lo >= 2
    if lo is not None:
        prop["exclusiveMinimum" if exclusive else "minimum"] = lo
    if hi is not None:
        prop["exclusiveMaximum" if exclusive else "maximum"] = hi
    if draw(st.booleans()):
        prop["default"] = draw(bound | st.booleans())
    return prop


@st.composite
def choice_prop(draw: st.DrawFn) -> dict[str, Any]:
    values = draw(st.lists(labels, min_size=1, max_size=6, unique=True))
    shape = draw(st.sampled_from(["enum", "oneOf", "enumNames"]))
    prop: dict[str, Any] = {"type": "string"}
    if shape == "oneOf":
        prop["oneOf"] = [{"const": v, "title": v.upper()} for v in values]
    else:
        prop["enum"] = values
        if shape == "enumNames":
            prop["enumNames"] = [v.title() for v in values]
    if draw(st.booleans()):
        prop["default"] = draw(st.sampled_from([*values, "not-an-option"]))
    return prop


@st.composite
def multi_prop(draw: st.DrawFn) -> dict[str, Any]:
    values = draw(st.lists(labels, min_size=1, max_size=6, unique=True))
    titled = draw(st.booleans())
    items: dict[str, Any] = (
        {"anyOf": [{"const": v, "title": v.upper()} for v in values]}
        if titled
        else {"type": "string", "enum": values}
    )
    prop: dict[str, Any] = {"type": "array", "items": items}
    lo = draw(st.none() | st.integers(0, len(values)))
    hi = draw(st.none() | st.integers(max(lo or 0, 1), len(values)))
    if lo is not None:
        prop["minItems"] = lo
    if hi is not None:
        prop["maxItems"] = hi
    if draw(st.booleans()):
        prop["default"] = draw(st.lists(st.sampled_from(values), unique=True))
    return prop


boolean_prop = st.fixed_dictionaries(
    {"type": st.just("boolean")}, optional={"default": st.booleans()}
)


@st.composite
def number_choice_prop(draw: st.DrawFn) -> dict[str, Any]:
    """IntEnum / number choices: ``{"type": "integer", "enum": [1, 2]}`` or titled consts."""
    integer = draw(st.booleans())
    number = st.integers(-50, 50) if integer else st.floats(-50, 50).map(lambda x: round(x, 1))
    values = draw(st.lists(number, min_size=1, max_size=5, unique_by=float))
    prop: dict[str, Any] = {"type": "integer" if integer else "number"}
    if draw(st.booleans()):
        prop["enum"] = values
    else:
        prop["oneOf"] = [{"const": v, "title": f"#{v}"} for v in values]
    if draw(st.booleans()):
        prop["default"] = draw(st.sampled_from(values))
    return prop


@st.composite
def const_prop(draw: st.DrawFn) -> dict[str, Any]:
    value = draw(labels | st.integers(-5, 5) | st.booleans())
    prop: dict[str, Any] = {"const": value}
    if draw(st.booleans()):
        prop["type"] = (
            "boolean"
            if isinstance(value, bool)
            else "integer"
            if isinstance(value, int)
            else "string"
        )
    return prop


@st.composite
def list_prop(draw: st.DrawFn) -> dict[str, Any]:
    """``list[str]``: free strings with item rules, minItems/maxItems, uniqueItems, a default."""
    items: dict[str, Any] = {"type": "string"}
    rule = draw(st.sampled_from(["none", "maxLength", "pattern"]))  # patterns ignore lengths
    if rule == "maxLength":
        items["maxLength"] = draw(st.integers(1, 8))
    elif rule == "pattern":
        items["pattern"] = draw(st.sampled_from(PATTERNS))
    prop: dict[str, Any] = {"type": "array", "items": items}
    lo = draw(st.none() | st.integers(0, 3))
    hi = draw(st.none() | st.integers(max(lo or 0, 1), 5))
    if lo is not None:
        prop["minItems"] = lo
    if hi is not None:
        prop["maxItems"] = hi
    if draw(st.booleans()):
        prop["uniqueItems"] = True
    if draw(st.booleans()):
        prop["default"] = draw(st.lists(labels, max_size=3))
    return prop


any_prop = st.one_of(
    string_prop(),
    number_prop(),
    choice_prop(),
    multi_prop(),
    boolean_prop,
    number_choice_prop(),
    const_prop(),
    list_prop(),
)


@st.composite
def sdk_shape(draw: st.DrawFn, prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """``prop`` as an SDK might write it: Optional (anyOf with null, or a type list with null)
    and/or through a local ``$ref`` to ``$defs`` (pydantic's enum classes)."""
    how = draw(st.sampled_from(["plain", "anyOf-null", "type-list-null", "ref", "ref-null"]))
    if how == "plain" or "const" in prop:
        return prop
    outer = {k: prop.pop(k) for k in ("default", "title") if k in prop}
    if how in ("ref", "ref-null"):
        name = f"D{len(defs)}"
        defs[name] = prop
        prop = {"$ref": f"#/$defs/{name}"}
        if how == "ref":
            return {**prop, **outer}
    if how == "type-list-null" and isinstance(prop.get("type"), str):
        prop = {**prop, "type": [prop["type"], "null"]}
        if "enum" in prop:
            prop["enum"] = [*prop["enum"], None]
        return {**prop, **outer}
    return {"anyOf": [prop, {"type": "null"}], **outer}


@st.composite
def subset_schema(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(words, max_size=8, unique=True))
    properties = {n: draw(any_prop) for n in names}
    for prop in properties.values():
        if draw(st.booleans()):
            prop["title"] = draw(words)
    defs: dict[str, Any] = {}
    properties = {n: draw(sdk_shape(p, defs)) for n, p in properties.items()}
    required: list[str] = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if defs:
        schema["$defs"] = defs
    always: bool = draw(st.booleans())
    if required or always:
        schema["required"] = required
    return schema


# ---------------------------------------------------------------- valid raw input per field


def _text_for(field: FieldSpec) -> st.SearchStrategy[str]:
    if field.pattern is not None:
        # ASCII semantics, as in ECMA-262 (and RE2): \d is [0-9], not every Unicode digit.
        ascii_pattern = re.compile(field.pattern, re.ASCII)
        return st.from_regex(ascii_pattern, fullmatch=True).filter(lambda s: "\n" not in s)
    fmt = field.format.value if field.format is not None else None
    if fmt == "email":
        return st.builds(
            "{}@{}.{}".format,
            st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True),
            st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True),
            st.from_regex(r"[a-z]{2,5}", fullmatch=True),
        )
    if fmt == "uri":
        return st.from_regex(r"https://[a-z]{1,8}\.example/[a-z0-9/]{0,8}", fullmatch=True)
    if fmt == "date":
        return st.dates().map(date.isoformat)
    if fmt == "date-time":
        return st.builds(
            "{}T{:02d}:{:02d}:{:02d}{}".format,
            st.dates().map(date.isoformat),
            st.integers(0, 23),
            st.integers(0, 59),
            st.integers(0, 59),
            st.sampled_from(["Z", "+05:30", "-08:00", "+00:00"]),
        )
    lo = max(field.min_length or 0, 1)
    hi = field.max_length if field.max_length is not None else lo + 10
    return st.text(st.characters(exclude_categories=["Cs"]), min_size=lo, max_size=hi)


def _number_for(field: FieldSpec) -> st.SearchStrategy[str]:
    lo = field.minimum if field.minimum is not None else field.exclusive_minimum
    hi = field.maximum if field.maximum is not None else field.exclusive_maximum
    lo = -1e6 if lo is None else lo
    hi = 1e6 if hi is None else hi
    if field.kind is FieldKind.INTEGER:
        ints = st.integers(math.ceil(lo), math.floor(hi))
        if field.exclusive_minimum is not None or field.exclusive_maximum is not None:
            ints = ints.filter(lambda v: lo < v < hi)
        return st.builds(
            "{}{}{}".format, st.sampled_from(["", " "]), ints, st.sampled_from(["", ".0", " "])
        )
    if lo == hi:  # includes minimum 0 with maximum -0.0
        return st.just(repr(float(lo)))
    floats = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    if field.exclusive_minimum is not None or field.exclusive_maximum is not None:
        floats = floats.filter(lambda v: lo < v < hi)
    return floats.map(repr)


def valid_raw(field: FieldSpec) -> st.SearchStrategy[RawValue]:
    if field.kind is FieldKind.TEXT:
        base: st.SearchStrategy[RawValue] = _text_for(field)
    elif field.kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        base = _number_for(field)
    elif field.kind is FieldKind.BOOLEAN:
        base = st.booleans()
    elif field.kind is FieldKind.SELECT:
        base = st.sampled_from([o.value for o in field.options])
    elif field.kind is FieldKind.CONST:
        base = st.none() | st.text(max_size=3)  # ignored: the fixed value is sent
    elif field.kind is FieldKind.LIST:
        assert field.item is not None
        lo = field.min_items or 0
        hi = field.max_items if field.max_items is not None else lo + 4
        base = st.lists(
            _text_for(field.item).filter(bool), min_size=lo, max_size=hi, unique=field.unique_items
        )
    else:
        values = [o.value for o in field.options]
        lo = field.min_items or 0
        hi = field.max_items if field.max_items is not None else len(values)
        base = st.lists(st.sampled_from(values), min_size=lo, max_size=hi, unique=True).map(
            lambda chosen: list(reversed(chosen))
        )
    if field.nullable:
        base = base | st.just(NULL)
    if field.required:
        return base
    return base | st.just(initial_value(field)) | st.none()


# ---------------------------------------------------------------- properties


@SETTINGS
@given(subset_schema())
def test_all_defaults_answer_passes_the_original_schema(schema: dict[str, Any]) -> None:
    form = parse_requested_schema(schema)
    result = validate_form(form, {})
    if result.ok:
        oracle(result.content, schema)
    else:
        for name, message in result.errors.items():
            field = form.field_named(name)
            assert field.required, (name, message)
            expected = {
                FieldKind.MULTI_SELECT: ("Pick ",),
                FieldKind.LIST: ("At least ", "Exactly ", "Between "),
            }.get(field.kind, ("Required",))
            assert message.startswith(expected), (name, message)
            assert initial_value(field) in ("", None, [])
    headless = complete_with_defaults(form, {})
    assert headless.ok == all(
        f.has_default or not f.required or f.kind is FieldKind.CONST for f in form.fields
    )
    if headless.ok:
        oracle(headless.content, schema)


@SETTINGS
@given(st.data())
def test_random_valid_answers_pass_the_original_schema(data: st.DataObject) -> None:
    schema = data.draw(subset_schema())
    form = parse_requested_schema(schema)
    raws = {f.name: data.draw(valid_raw(f), label=f.name) for f in form.fields}
    result = validate_form(form, raws)
    assert result.ok, (raws, result.errors)
    oracle(result.content, schema)
    # The same content, scripted, is accepted as is.
    again = complete_with_defaults(form, result.content or {})
    assert again.ok and again.content is not None
    assert all(again.content[k] == v for k, v in (result.content or {}).items())


junk_raw = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=30),
    st.sampled_from(["", " ", "NaN", "1e999", "-0", "4.0", "2026-02-30", "a@b", "http://"]),
    st.lists(st.text(max_size=5), max_size=5),
)


@SETTINGS
@given(st.data())
def test_random_invalid_input_gives_messages_not_exceptions(data: st.DataObject) -> None:
    schema = data.draw(subset_schema())
    form = parse_requested_schema(schema)
    raws = {f.name: data.draw(junk_raw, label=f.name) for f in form.fields}
    result = validate_form(form, raws)
    if result.ok:
        oracle(result.content, schema)
    else:
        assert result.content is None
        assert set(result.errors) <= {f.name for f in form.fields}
        assert all(isinstance(m, str) and m for m in result.errors.values())
    scripted = data.draw(st.dictionaries(words, junk_raw | st.integers() | st.floats(), max_size=5))
    complete_with_defaults(form, scripted)


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.just(10**1000),  # JSON parsers other than Python's can hand us such ints
)
json_values = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYWORDS = [
    "type",
    "properties",
    "required",
    "enum",
    "oneOf",
    "anyOf",
    "allOf",
    "items",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "default",
    "title",
    "enumNames",
    "const",
    "$ref",
    "minItems",
    "maxItems",
    "exclusiveMinimum",
    "multipleOf",
    "not",
    "$id",
]


@st.composite
def junk_schema(draw: st.DrawFn) -> object:
    choice = draw(st.integers(0, 2))
    if choice == 0:
        return draw(json_values)
    schema: dict[str, Any] = (
        draw(subset_schema()) if choice == 1 else {"type": "object", "properties": {}}
    )
    props: dict[str, Any] = schema["properties"]
    for _ in range(draw(st.integers(1, 4))):
        into_property: bool = draw(st.booleans())
        target = props[draw(st.sampled_from(list(props)))] if props and into_property else schema
        key = draw(st.sampled_from(KEYWORDS) | st.text(max_size=6))
        junk: st.SearchStrategy[Any] = json_values | st.sampled_from(["string", "object"])
        target[key] = draw(junk)
    return schema


@SETTINGS
@given(junk_schema(), st.data())
def test_junk_schemas_give_a_form_or_a_schema_error(schema: object, data: st.DataObject) -> None:
    try:
        form = parse_requested_schema(schema)
    except SchemaError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        return
    assert isinstance(form, FormSpec)
    for f in form.fields:
        _ = (constraint_text(f), placeholder(f))
    validate_form(form, initial_values(form))
    validate_form(form, {f.name: data.draw(junk_raw) for f in form.fields})
    complete_with_defaults(form, data.draw(st.dictionaries(st.text(max_size=5), json_values)))


@settings(SETTINGS, max_examples=30)
@given(subset_schema())
def test_parsing_is_deterministic(schema: dict[str, Any]) -> None:
    assume(schema["properties"])
    assert parse_requested_schema(schema) == parse_requested_schema(schema)
