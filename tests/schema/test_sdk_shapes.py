"""The flat shapes mainstream SDKs generate, read as the plain fields they mean.

Each row is one property as pydantic / ``mcp`` 1.x, FastMCP or zod (3 with zod-to-json-schema, 4
with ``z.toJSONSchema``) write it; the expected attributes are the form the user sees.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.schema import FieldKind, FieldSpec, Option, parse_requested_schema, validate_form

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
