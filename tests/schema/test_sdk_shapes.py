"""The flat shapes mainstream SDKs generate, read as the plain fields they mean.

Each row is one property as pydantic / ``mcp`` 1.x, FastMCP or zod (3 with zod-to-json-schema, 4
with ``z.toJSONSchema``) write it; the expected attributes are the form the user sees.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.errors import SchemaError
from mcp_tui.schema import (
    FieldKind,
    FieldSpec,
    FormSpec,
    Option,
    classify_input_schema,
    constraint_text,
    parse_requested_schema,
    placeholder,
    validate_form,
)

COLOR_DEFS = {"$defs": {"Color": {"enum": ["red", "green"], "title": "Color", "type": "string"}}}


def one(prop: dict[str, Any], *, required: bool = False, **root: Any) -> FieldSpec:
    schema: dict[str, Any] = {"type": "object", "properties": {"f": prop}, **root}
    if required:
        schema["required"] = ["f"]
    return parse_requested_schema(schema).fields[0]


SHAPES: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    (
        "pydantic Optional[str]",
        {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Nickname"},
        {},
        {"kind": FieldKind.TEXT, "title": "Nickname", "nullable": True, "has_default": False},
    ),
    (
        "zod-to-json-schema nullable",
        {"type": ["string", "null"], "maxLength": 5},
        {},
        {"kind": FieldKind.TEXT, "nullable": True, "max_length": 5},
    ),
    (
        "zod 4 nullable number",
        {"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}]},
        {},
        {"kind": FieldKind.NUMBER, "nullable": True, "minimum": 0},
    ),
    (
        "enum class by reference",
        {"$ref": "#/$defs/Color", "default": "red"},
        COLOR_DEFS,
        {
            "kind": FieldKind.SELECT,
            "title": "f",  # the definition's title names the type, not the field
            "options": (Option("red", "red"), Option("green", "green")),
            "default": "red",
            "nullable": False,
        },
    ),
    (
        "Optional enum class (pydantic)",
        {"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}], "default": None, "title": "Fav"},
        COLOR_DEFS,
        {"kind": FieldKind.SELECT, "title": "Fav", "nullable": True, "has_default": False},
    ),
    (
        "draft-07 definitions",
        {"$ref": "#/definitions/Color"},
        {"definitions": COLOR_DEFS["$defs"]},
        {"kind": FieldKind.SELECT},
    ),
    (
        "titled choices plus null",
        {"oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}, {"type": "null"}]},
        {},
        {
            "kind": FieldKind.SELECT,
            "nullable": True,
            "options": (Option("a", "A"), Option("b", "B")),
            "notes": ('no "type": treated as a string choice',),
        },
    ),
]


@pytest.mark.parametrize(("label", "prop", "root", "expected"), SHAPES, ids=[s[0] for s in SHAPES])
def test_shape(
    label: str, prop: dict[str, Any], root: dict[str, Any], expected: dict[str, Any]
) -> None:
    field = one(prop, **root)
    for attribute, value in expected.items():
        assert getattr(field, attribute) == value, attribute
    if "notes" not in expected:
        assert field.notes == ()


def test_a_referenced_answer_is_checked_against_the_original_schema() -> None:
    """The final check resolves the local ``$defs`` of the schema as received."""
    schema = {
        "type": "object",
        "properties": {"c": {"$ref": "#/$defs/Color"}, "n": {"type": ["integer", "null"]}},
        "required": ["c"],
        **COLOR_DEFS,
    }
    form = parse_requested_schema(schema)
    assert form.schema is schema
    assert validate_form(form, {"c": "green", "n": "3"}).content == {"c": "green", "n": 3}
    assert validate_form(form, {"c": "green"}).content == {"c": "green"}  # null never sent


NEW_KINDS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "FastMCP IntEnum",
        {"type": "integer", "enum": [1, 2, 3], "title": "Priority", "default": 2},
        {
            "kind": FieldKind.SELECT,
            "choice_type": "integer",
            "options": (Option("1", "1", 1), Option("2", "2", 2), Option("3", "3", 3)),
            "default": 2,
        },
    ),
    (
        "untyped number enum",
        {"enum": [0.5, 1]},
        {"kind": FieldKind.SELECT, "choice_type": "number"},
    ),
    (
        "titled integer choices",
        {
            "type": "integer",
            "oneOf": [{"const": 1, "title": "Low"}, {"const": 2.0, "title": "High"}],
        },
        {"options": (Option("1", "Low", 1), Option("2", "High", 2))},
    ),
    (
        "const (zod literal)",
        {"type": "string", "const": "v1", "title": "Version"},
        {"kind": FieldKind.CONST, "const": "v1", "title": "Version"},
    ),
    ("untyped const number", {"const": 3}, {"kind": FieldKind.CONST, "const": 3}),
    (
        "list[str]",
        {"type": "array", "items": {"type": "string", "minLength": 2}, "minItems": 1},
        {
            "kind": FieldKind.LIST,
            "min_items": 1,
            "item": FieldSpec("f", FieldKind.TEXT, "f", required=True, min_length=2),
        },
    ),
    (
        "list of strings, unique, with a default",
        {
            "type": "array",
            "items": {"type": "string", "maxLength": 9},
            "maxItems": 3,
            "uniqueItems": True,
            "default": ["a", "b"],
        },
        {"kind": FieldKind.LIST, "max_items": 3, "unique_items": True, "default": ["a", "b"]},
    ),
    (
        "nullable list (pydantic Optional[list[str]])",
        {
            "anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
            "default": None,
        },
        {"kind": FieldKind.LIST, "nullable": True, "has_default": False},
    ),
]


@pytest.mark.parametrize(("label", "prop", "expected"), NEW_KINDS, ids=[s[0] for s in NEW_KINDS])
def test_new_kind(label: str, prop: dict[str, Any], expected: dict[str, Any]) -> None:
    field = one(prop)
    for attribute, value in expected.items():
        assert getattr(field, attribute) == value, attribute
    assert field.notes == ()


def content(prop: dict[str, Any], raw: Any, *, required: bool = False) -> Any:
    """What the form sends for ``raw`` (``...``: untouched), or its errors.

    Read as a tool's arguments (the same engine) so lists of numbers, which an elicitation
    answer cannot hold, are covered too.
    """
    form = classify_input_schema(
        {"type": "object", "properties": {"f": prop}, **({"required": ["f"]} if required else {})}
    )
    assert isinstance(form, FormSpec)
    result = validate_form(form, {} if raw is ... else {"f": raw})
    return result.content if result.ok else result.errors


def test_an_integer_choice_is_sent_as_a_json_integer() -> None:
    sent = content({"type": "integer", "enum": [1, 2, 3]}, "2")
    assert sent == {"f": 2} and type(sent["f"]) is int
    sent = content({"type": "integer", "enum": [1.0, 2.0]}, "1")
    assert type(sent["f"]) is int  # 1, never 1.0
    sent = content({"type": "number", "enum": [0.5, 1.5]}, "1.5")
    assert sent == {"f": 1.5}
    assert content({"type": "integer", "enum": [1, 2]}, "7") == {"f": "Not one of the choices"}
    assert content({"type": "integer", "enum": [1, 2], "default": 2}, ...) == {"f": 2}


def test_a_const_is_always_sent() -> None:
    assert content({"const": "v1"}, ...) == {"f": "v1"}
    assert content({"type": "boolean", "const": True}, "anything") == {"f": True}


def test_a_list_sends_typed_items_and_skips_empty_rows() -> None:
    assert content({"type": "array", "items": {"type": "string"}}, ["a", "", "b c"]) == {
        "f": ["a", "b c"]
    }
    sent = content({"type": "array", "items": {"type": "integer"}}, ["1", " ", "30"])
    assert sent == {"f": [1, 30]} and all(type(v) is int for v in sent["f"])
    assert content({"type": "array", "items": {"type": "number"}}, ["2.5"]) == {"f": [2.5]}
    assert content({"type": "array", "items": {"type": "string"}}, []) == {}
    assert content({"type": "array", "items": {"type": "integer"}}, ["x"]) == {
        "f": "Item 1: A whole number"
    }
    assert content(
        {"type": "array", "items": {"type": "string"}, "minItems": 2}, ["a"], required=True
    ) == {"f": "At least 2 items"}
    assert content(
        {"type": "array", "items": {"type": "string"}, "uniqueItems": True}, ["a", "a"]
    ) == {"f": "Each item at most once"}
    assert content({"type": "array", "items": {"type": "string"}, "default": ["x"]}, ...) == {
        "f": ["x"]
    }


def test_null_is_sent_only_when_asked_for() -> None:
    from mcp_tui.schema import complete_with_defaults
    from mcp_tui.schema.fields import NULL

    prop = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert content(prop, "") == {}
    assert content(prop, NULL) == {"f": None}
    assert content(prop, NULL, required=True) == {"f": None}
    assert content(prop, "", required=True) == {"f": "Required"}
    assert content({"type": "string"}, NULL) == {"f": "Unexpected input for this field"}
    form = parse_requested_schema({"type": "object", "properties": {"f": prop}})
    assert complete_with_defaults(form, {"f": None}).content == {"f": None}
    assert complete_with_defaults(form, {}).content == {}
    plain = parse_requested_schema({"type": "object", "properties": {"f": {"type": "string"}}})
    assert complete_with_defaults(plain, {"f": None}).content == {}  # null means "not given"


def test_headless_answers_for_the_new_kinds() -> None:
    from mcp_tui.schema import complete_with_defaults

    form = classify_input_schema(
        {
            "type": "object",
            "properties": {
                "p": {"type": "integer", "enum": [1, 2, 3]},
                "c": {"const": "v1"},
                "t": {"type": "array", "items": {"type": "integer"}},
            },
        }
    )
    assert isinstance(form, FormSpec)
    got = complete_with_defaults(form, {"p": 3.0, "t": [1, 2.0]})
    assert got.content == {"p": 3, "c": "v1", "t": [1, 2]}
    assert type(got.content["p"]) is int and type(got.content["t"][1]) is int
    assert complete_with_defaults(form, {"p": "3"}).errors == {
        "p": "Not one of the choices (one of 1, 2, 3)"
    }
    assert complete_with_defaults(form, {"c": "v2"}).errors == {"c": 'Must be exactly "v1"'}
    assert complete_with_defaults(form, {"t": ["1"]}).errors == {
        "t": 'Item 1: Expected a whole number, got "1"'
    }


def test_an_elicitation_cannot_ask_for_a_list_of_numbers() -> None:
    """``ElicitResult.content`` holds only lists of strings (spec and SDK): refused, with why."""
    schema = {
        "type": "object",
        "properties": {"t": {"type": "array", "items": {"type": "integer"}}},
    }
    with pytest.raises(SchemaError) as caught:
        parse_requested_schema(schema)
    assert [str(p) for p in caught.value.problems] == [
        "t: a list of numbers cannot be answered: an elicitation answer holds only lists of strings"
    ]


ZOD_EMAIL = (
    "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+"
    "[A-Za-z]{2,}$"
)
ZOD_DATE_TIME = (
    "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29"
    "|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)"
    "|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?"
    "(?:Z))$"
)


def test_zod_patterns_and_full_range_bounds_stay_out_of_the_visible_hint() -> None:
    # zod's email regex uses lookaheads, which RE2 cannot run: a note, and format email applies.
    email = one({"type": "string", "format": "email", "pattern": ZOD_EMAIL})
    assert email.pattern is None and constraint_text(email) == ""
    when = one({"type": "string", "format": "date-time", "pattern": ZOD_DATE_TIME})
    assert when.pattern == ZOD_DATE_TIME  # still enforced
    assert constraint_text(when) == ""
    assert ZOD_DATE_TIME in constraint_text(when, full=True)
    count = one({"type": "integer", "minimum": -9007199254740991, "maximum": 9007199254740991})
    assert constraint_text(count) == "whole number"
    assert "9007199254740991" in constraint_text(count, full=True)
    small = one({"type": "integer", "minimum": 1, "maximum": 9007199254740991})
    assert constraint_text(small) == "whole number, at least 1"
    short = one({"type": "string", "pattern": "^[a-z]+$"})
    assert constraint_text(short) == "matching ^[a-z]+$"
    assert content({"type": "integer", "maximum": 9007199254740991}, "9007199254740992") == {
        "f": "A whole number of at most 9007199254740991"
    }


def test_a_date_time_goes_out_in_utc_when_the_pattern_wants_z() -> None:
    prop = {"type": "string", "format": "date-time", "pattern": ZOD_DATE_TIME}
    assert content(prop, "2026-01-31T09:00:00+01:00") == {"f": "2026-01-31T08:00:00Z"}
    assert content(prop, "2026-01-31T09:00:00.5Z") == {"f": "2026-01-31T09:00:00.5Z"}
    plain = {"type": "string", "format": "date-time"}
    assert content(plain, "2026-01-31T09:00:00+01:00") == {"f": "2026-01-31T09:00:00+01:00"}


def test_an_empty_string_default_is_sent_in_the_tui_and_headless_alike() -> None:
    """One rule (``validate.left_empty``): a text field whose default is "" sends ""."""
    from mcp_tui.schema import complete_with_defaults

    schema = {
        "type": "object",
        "properties": {"note": {"type": "string", "default": ""}, "other": {"type": "string"}},
    }
    form = parse_requested_schema(schema)
    assert validate_form(form, {}).content == {"note": ""}  # untouched
    assert validate_form(form, {"note": ""}).content == {"note": ""}  # cleared
    assert complete_with_defaults(form, {}).content == {"note": ""}  # accept-defaults, replay
    assert complete_with_defaults(form, {"note": None}).content == {"note": ""}


def test_harmless_keywords_are_ignored_and_examples_become_placeholders() -> None:
    field = one(
        {
            "type": "string",
            "title": "City",
            "$comment": "internal",
            "examples": ["Paris", "Lima"],
            "readOnly": False,
            "deprecated": False,
        },
        **{"$schema": "https://json-schema.org/draft/2020-12/schema"},
        additionalProperties=False,
        title="Trip",
    )
    assert field.notes == ()
    assert placeholder(field) == "e.g. Paris"
    assert placeholder(one({"type": "integer", "examples": [42]})) == "e.g. 42"
    assert placeholder(one({"type": "string", "format": "email"})) == "name@example.com"
