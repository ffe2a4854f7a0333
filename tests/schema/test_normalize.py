"""``schema.normalize``: local references inlined and "T or null" read, as pure functions."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mcp_tui.schema.normalize import (
    MAX_INLINED_NODES,
    MAX_REF_DEPTH,
    Unreadable,
    inline_refs,
    merge,
    split_nullable,
)

COLOR = {"enum": ["red", "green"], "title": "Color", "type": "string"}


def root(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **extra}


INLINED: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "pydantic $defs, sibling default kept, the type's title dropped",
        root({"c": {"$ref": "#/$defs/Color", "default": "red"}}, **{"$defs": {"Color": COLOR}}),
        root({"c": {"enum": ["red", "green"], "type": "string", "default": "red"}}),
    ),
    (
        "draft-07 definitions",
        root({"c": {"$ref": "#/definitions/Color"}}, definitions={"Color": COLOR}),
        root({"c": {"enum": ["red", "green"], "type": "string"}}),
    ),
    (
        "inside anyOf with null (pydantic Optional[Enum])",
        root(
            {"c": {"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}], "title": "Fav"}},
            **{"$defs": {"Color": COLOR}},
        ),
        root(
            {
                "c": {
                    "anyOf": [{"enum": ["red", "green"], "type": "string"}, {"type": "null"}],
                    "title": "Fav",
                }
            }
        ),
    ),
    (
        "zod-to-json-schema reuse of another property",
        root({"a": {"type": "string", "minLength": 2}, "b": {"$ref": "#/properties/a"}}),
        root({"a": {"type": "string", "minLength": 2}, "b": {"type": "string", "minLength": 2}}),
    ),
    (
        "old pydantic allOf around a $ref",
        root(
            {"c": {"allOf": [{"$ref": "#/$defs/Color"}], "default": "green", "title": "C"}},
            **{"$defs": {"Color": COLOR}},
        ),
        root({"c": {"enum": ["red", "green"], "type": "string", "default": "green", "title": "C"}}),
    ),
    (
        "a chain of two references",
        root(
            {"c": {"$ref": "#/$defs/A"}},
            **{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "integer"}}},
        ),
        root({"c": {"type": "integer"}}),
    ),
    (
        "escaped pointer",
        root({"c": {"$ref": "#/$defs/a~1b%20c"}}, **{"$defs": {"a/b c": {"type": "boolean"}}}),
        root({"c": {"type": "boolean"}}),
    ),
    (
        "unused recursive definition is never looked at",
        root({"c": {"type": "string"}}, **{"$defs": {"Loop": {"$ref": "#/$defs/Loop"}}}),
        root({"c": {"type": "string"}}),
    ),
    (
        "items of an array",
        root(
            {"t": {"type": "array", "items": {"$ref": "#/$defs/Color"}}},
            **{"$defs": {"Color": COLOR}},
        ),
        root({"t": {"type": "array", "items": {"enum": ["red", "green"], "type": "string"}}}),
    ),
    (
        "type narrowed by a sibling",
        root(
            {"c": {"$ref": "#/$defs/N", "type": "integer"}},
            **{"$defs": {"N": {"type": ["integer", "null"]}}},
        ),
        root({"c": {"type": "integer"}}),
    ),
]


@pytest.mark.parametrize(("label", "schema", "expected"), INLINED, ids=[c[0] for c in INLINED])
def test_inline(label: str, schema: dict[str, Any], expected: dict[str, Any]) -> None:
    before = copy.deepcopy(schema)
    out, problems = inline_refs(schema)
    assert problems == ()
    assert out == expected
    assert schema == before  # the original is never touched


REFUSED: list[tuple[str, dict[str, Any], str]] = [
    (
        "remote",
        root({"c": {"$ref": "https://example.com/s.json"}}),
        "c: `$ref` https://example.com/s.json points outside the schema; nothing is fetched",
    ),
    (
        "self",
        root({"c": {"$ref": "#"}}),
        "c: `$ref` # refers to itself: recursive schemas cannot be a form",
    ),
    (
        "recursive definition",
        root(
            {"c": {"$ref": "#/$defs/Node"}},
            **{
                "$defs": {"Node": {"type": "object", "properties": {"n": {"$ref": "#/$defs/Node"}}}}
            },
        ),
        "c.n: `$ref` #/$defs/Node refers to itself: recursive schemas cannot be a form",
    ),
    ("missing", root({"c": {"$ref": "#/$defs/X"}}), "c: `$ref` #/$defs/X points to nothing"),
    ("anchor", root({"c": {"$ref": "#foo"}}), "c: `$ref` #foo is not a JSON pointer"),
    ("not a string", root({"c": {"$ref": 3}}), "c: `$ref` must be a string"),
    (
        "conflicting sibling",
        root({"c": {"$ref": "#/$defs/C", "enum": ["red"]}}, **{"$defs": {"C": COLOR}}),
        "c: `enum` is given twice with different values",
    ),
]


@pytest.mark.parametrize(("label", "schema", "message"), REFUSED, ids=[c[0] for c in REFUSED])
def test_refused(label: str, schema: dict[str, Any], message: str) -> None:
    out, problems = inline_refs(schema)
    assert out is schema
    assert len(problems) == 1
    assert str(problems[0]).startswith(message)


def test_depth_bounded() -> None:
    defs = {f"D{i}": {"$ref": f"#/$defs/D{i + 1}"} for i in range(MAX_REF_DEPTH + 2)}
    defs[f"D{MAX_REF_DEPTH + 2}"] = {"type": "string"}
    _, problems = inline_refs(root({"c": {"$ref": "#/$defs/D0"}}, **{"$defs": defs}))
    assert "nested more than" in str(problems[0])


def test_size_bounded() -> None:
    """Each definition uses the previous one twice: 2^15 copies would be made."""
    defs: dict[str, Any] = {"D0": {"type": "string"}}
    for i in range(1, 16):
        prev = {"$ref": f"#/$defs/D{i - 1}"}
        defs[f"D{i}"] = {"type": "object", "properties": {"a": prev, "b": prev}}
    _, problems = inline_refs(root({"c": {"$ref": "#/$defs/D15"}}, **{"$defs": defs}))
    assert f"more than {MAX_INLINED_NODES:,} schemas" in str(problems[0])


def test_nothing_to_do_returns_the_same_object() -> None:
    schema = root({"a": {"type": "string"}})
    assert inline_refs(schema)[0] is schema


def test_merge_conflict_raises() -> None:
    with pytest.raises(Unreadable):
        merge({"minimum": 1}, {"minimum": 2})
    assert merge({"title": "Outer"}, {"title": "Inner", "type": "string"}) == {
        "title": "Outer",
        "type": "string",
    }


NULLABLE: list[tuple[str, dict[str, Any], dict[str, Any] | None, bool]] = [
    (
        "pydantic Optional[str]",
        {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Nickname"},
        {"type": "string", "title": "Nickname"},
        True,
    ),
    ("zod-to-json-schema nullable", {"type": ["string", "null"]}, {"type": "string"}, True),
    ("null first", {"type": ["null", "integer"]}, {"type": "integer"}, True),
    (
        "oneOf with null",
        {"oneOf": [{"type": "null"}, {"type": "number"}]},
        {"type": "number"},
        True,
    ),
    (
        "nullable enum with null member",
        {"type": ["string", "null"], "enum": ["a", "b", None]},
        {"type": "string", "enum": ["a", "b"]},
        True,
    ),
    ("OpenAPI nullable is not JSON Schema", {"type": "string", "nullable": True}, None, False),
    (
        "an enum without null keeps null out",
        {"type": ["string", "null"], "enum": ["a"]},
        {"type": "string", "enum": ["a"]},
        False,
    ),
    (
        "a const beside anyOf keeps null out",
        {"anyOf": [{"type": "string"}, {"type": "null"}], "const": "x"},
        {"type": "string", "const": "x"},
        False,
    ),
    (
        "titled choices plus null",
        {"oneOf": [{"const": "a", "title": "A"}, {"const": "b"}, {"type": "null"}]},
        {"oneOf": [{"const": "a", "title": "A"}, {"const": "b"}]},
        True,
    ),
    (
        "inner annotations lose to outer ones",
        {
            "anyOf": [{"type": "string", "title": "in", "maxLength": 3}, {"type": "null"}],
            "title": "out",
        },
        {"type": "string", "title": "out", "maxLength": 3},
        True,
    ),
    ("a one-type list", {"type": ["boolean"]}, {"type": "boolean"}, False),
    ("plain", {"type": "string"}, {"type": "string"}, False),
    (
        "two types stay ambiguous",
        {"type": ["string", "integer", "null"]},
        {"type": ["string", "integer"]},
        True,
    ),
    ("null alone stays", {"type": "null"}, {"type": "null"}, False),
]


@pytest.mark.parametrize(
    ("label", "prop", "expected", "nullable"), NULLABLE, ids=[c[0] for c in NULLABLE]
)
def test_split_nullable(
    label: str, prop: dict[str, Any], expected: dict[str, Any] | None, nullable: bool
) -> None:
    before = copy.deepcopy(prop)
    got = split_nullable(prop)
    assert dict(got.schema) == (prop if expected is None else expected)
    assert got.nullable is nullable
    assert got.problems == ()
    assert prop == before


def test_split_nullable_conflict_is_a_problem() -> None:
    got = split_nullable(
        {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}], "maxLength": 4}, "p"
    )
    assert [str(p) for p in got.problems] == ["p: `maxLength` is given twice with different values"]


def test_choices_without_null_beside_a_type_list_keep_null_out() -> None:
    """Found by the property tests: null would fail the ``oneOf``, so it is not offered."""
    got = split_nullable({"type": ["string", "null"], "oneOf": [{"const": "a", "title": "A"}]})
    assert got.nullable is False
    assert dict(got.schema) == {"type": "string", "oneOf": [{"const": "a", "title": "A"}]}
