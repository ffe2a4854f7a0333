"""Every shape of the elicitation subset parses into the field the UI needs."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.schema import (
    FieldKind,
    FieldSpec,
    Option,
    TextFormat,
    parse_requested_schema,
)


def one(prop: dict[str, Any], *, required: bool = False) -> FieldSpec:
    schema: dict[str, Any] = {"type": "object", "properties": {"f": prop}}
    if required:
        schema["required"] = ["f"]
    return parse_requested_schema(schema).fields[0]


SHAPES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("plain string", {"type": "string"}, {"kind": FieldKind.TEXT, "title": "f"}),
    ("empty title shows the name", {"type": "string", "title": ""}, {"title": "f"}),
    (
        "string with everything",
        {
            "type": "string",
            "title": "Name",
            "description": "Your name",
            "minLength": 2,
            "maxLength": 20,
            "default": "Ada",
        },
        {
            "kind": FieldKind.TEXT,
            "title": "Name",
            "description": "Your name",
            "min_length": 2,
            "max_length": 20,
            "default": "Ada",
            "has_default": True,
        },
    ),
    ("integral float length", {"type": "string", "minLength": 3.0}, {"min_length": 3}),
    ("email", {"type": "string", "format": "email"}, {"format": TextFormat.EMAIL}),
    ("uri", {"type": "string", "format": "uri"}, {"format": TextFormat.URI}),
    ("date", {"type": "string", "format": "date"}, {"format": TextFormat.DATE}),
    ("date-time", {"type": "string", "format": "date-time"}, {"format": TextFormat.DATE_TIME}),
    ("pattern kept", {"type": "string", "pattern": "^[a-z]+$"}, {"pattern": "^[a-z]+$"}),
    (
        "number",
        {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5},
        {"kind": FieldKind.NUMBER, "minimum": 0, "maximum": 1, "default": 0.5},
    ),
    (
        "integer",
        {"type": "integer", "minimum": 1, "maximum": 100, "default": 42},
        {"kind": FieldKind.INTEGER, "minimum": 1, "maximum": 100, "default": 42},
    ),
    ("integer default 30.0 becomes 30", {"type": "integer", "default": 30.0}, {"default": 30}),
    (
        "exclusive bounds and multipleOf",
        {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 10, "multipleOf": 0.5},
        {"exclusive_minimum": 0, "exclusive_maximum": 10, "multiple_of": 0.5},
    ),
    (
        "boolean with default",
        {"type": "boolean", "default": False},
        {"kind": FieldKind.BOOLEAN, "default": False, "has_default": True},
    ),
    (
        "untitled enum",
        {"type": "string", "enum": ["red", "green"], "default": "green"},
        {
            "kind": FieldKind.SELECT,
            "options": (Option("red", "red"), Option("green", "green")),
            "default": "green",
        },
    ),
    (
        "titled oneOf",
        {
            "type": "string",
            "oneOf": [{"const": "s", "title": "Small"}, {"const": "m", "title": "M"}],
        },
        {"kind": FieldKind.SELECT, "options": (Option("s", "Small"), Option("m", "M"))},
    ),
    (
        "legacy enumNames",
        {"type": "string", "enum": ["x", "y"], "enumNames": ["Ex", "Why"], "default": "y"},
        {"kind": FieldKind.SELECT, "options": (Option("x", "Ex"), Option("y", "Why"))},
    ),
    (
        "anyOf of consts read like oneOf",
        {"type": "string", "anyOf": [{"const": "a", "title": "A"}]},
        {"kind": FieldKind.SELECT, "options": (Option("a", "A"),)},
    ),
    (
        "const without title shows the value",
        {"type": "string", "oneOf": [{"const": "a"}]},
        {"options": (Option("a", "a"),)},
    ),
    (
        "untitled multi select",
        {
            "type": "array",
            "minItems": 1,
            "maxItems": 2,
            "items": {"type": "string", "enum": ["a", "b", "c"]},
            "default": ["a"],
        },
        {
            "kind": FieldKind.MULTI_SELECT,
            "min_items": 1,
            "max_items": 2,
            "options": (Option("a", "a"), Option("b", "b"), Option("c", "c")),
            "default": ["a"],
        },
    ),
    (
        "titled multi select",
        {"type": "array", "items": {"anyOf": [{"const": "ham", "title": "Ham"}]}, "default": []},
        {"kind": FieldKind.MULTI_SELECT, "options": (Option("ham", "Ham"),), "default": []},
    ),
    (
        "enum without type is a string choice",
        {"enum": ["a", "b"]},
        {"kind": FieldKind.SELECT, "notes": ('no "type": treated as a string choice',)},
    ),
]


@pytest.mark.parametrize(("label", "prop", "expected"), SHAPES, ids=[s[0] for s in SHAPES])
def test_shape(label: str, prop: dict[str, Any], expected: dict[str, Any]) -> None:
    field = one(prop)
    for attr, value in expected.items():
        got = getattr(field, attr)
        assert got == value and type(got) is type(value), (attr, got)


def test_required_and_order_follow_the_schema() -> None:
    form = parse_requested_schema(
        {
            "type": "object",
            "title": "Sign up",
            "description": "Tell us",
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "properties": {
                "z": {"type": "string"},
                "a": {"type": "integer"},
                "m": {"type": "boolean"},
            },
            "required": ["a"],
        }
    )
    assert [f.name for f in form.fields] == ["z", "a", "m"]
    assert [f.required for f in form.fields] == [False, True, False]
    assert (form.title, form.description, form.notes) == ("Sign up", "Tell us", ())


def test_missing_required_and_properties_mean_none() -> None:
    form = parse_requested_schema({"type": "object"})
    assert form.is_confirmation and form.fields == ()
    form = parse_requested_schema({"type": "object", "properties": {"a": {"type": "string"}}})
    assert form.fields[0].required is False


def test_schema_is_kept_as_received() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}}
    assert parse_requested_schema(schema).schema is schema


def test_no_default_is_not_a_falsy_default() -> None:
    assert one({"type": "boolean"}).has_default is False
    assert one({"type": "boolean", "default": False}).has_default is True
    assert one({"type": "integer", "default": 0}).default == 0
    assert one({"type": "integer", "default": 0}).has_default is True


def test_boolean_annotations_and_additional_properties_are_silent() -> None:
    form = parse_requested_schema(
        {
            "type": "object",
            "additionalProperties": False,
            "$comment": "x",
            "properties": {"a": {"type": "string", "examples": ["q"], "readOnly": False}},
        }
    )
    assert form.notes == () and form.fields[0].notes == ()
