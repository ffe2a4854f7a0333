"""Everything outside the subset is refused with every problem and its property path."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.errors import SchemaError
from mcp_tui.schema import parse_requested_schema
from mcp_tui.schema.limits import (
    MAX_DEFAULT_LENGTH,
    MAX_FIELDS,
    MAX_NAME_LENGTH,
    MAX_OPTIONS,
    MAX_PROBLEMS,
    MAX_TITLE_LENGTH,
    MAX_TOTAL_OPTIONS,
)


def P(props: dict[str, Any], **root: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **root}


def problems(schema: object) -> list[str]:
    with pytest.raises(SchemaError) as caught:
        parse_requested_schema(schema)
    return [str(p) for p in caught.value.problems]


REFUSALS: list[tuple[str, object, list[str]]] = [
    (
        "huge minimum",
        P({"a": {"type": "integer", "minimum": 10**5000}}),
        ["a: `minimum` has more than 300 digits"],
    ),
    ("non-object root", ["x"], ["the schema must be a JSON object, got array"]),
    ("array root", {"type": "array"}, ['type: the root must be "object", got "array"']),
    ("no type root", {"properties": {}}, ['type: the root must be "object", got nothing']),
    (
        "nested object",
        P({"a": {"type": "object", "properties": {}}}),
        ["a: nested objects are not supported: a form holds only flat fields"],
    ),
    (
        "array of objects",
        P({"a": {"type": "array", "items": {"type": "object"}}}),
        ["a.items: arrays of objects are not supported"],
    ),
    (
        "array of free booleans",
        P({"a": {"type": "array", "items": {"type": "boolean"}}}),
        ['a.items: lists of "boolean" are not supported: only text, numbers or choices'],
    ),
    (
        "array without items",
        P({"a": {"type": "array"}}),
        ["a: a list needs `items` with its choices"],
    ),
    (
        "array of numbers",
        P({"a": {"type": "array", "items": {"type": "number", "enum": [1]}}}),
        ['a.items: choices in a list must be strings, not "number"'],
    ),
    (
        "ref prop",
        P({"a": {"$ref": "#/$defs/x"}}),
        ["a: `$ref` #/$defs/x points to nothing in the schema"],
    ),
    (
        "ref in items",
        P({"a": {"type": "array", "items": {"$ref": "#"}}}),
        ["a.items: `$ref` # refers to itself: recursive schemas cannot be a form"],
    ),
    (
        "allOf that contradicts itself",
        P({"a": {"type": "string", "allOf": [{"type": "integer"}]}}),
        ["a: `type` is given twice with different values"],
    ),
    (
        "not prop",
        P({"a": {"type": "string", "not": {"const": "x"}}}),
        ["a: `not` is not supported in a form"],
    ),
    (
        "if root",
        P({}, **{"if": {}, "then": {}}),
        [
            "if: `if` at the top level is not supported",
            "then: `then` at the top level is not supported",
        ],
    ),
    (
        "type list",
        P({"a": {"type": ["string", "integer", "null"]}}),
        ["a: a choice between types ([string, integer]) cannot be one field: give one type"],
    ),
    ("type null", P({"a": {"type": "null"}}), ['a: type "null" is not supported']),
    ("unknown type", P({"a": {"type": "text"}}), ['a: unknown type "text"']),
    ("type not string", P({"a": {"type": 5}}), ['a: "type" must be a string, got integer']),
    ("no type", P({"a": {"title": "A"}}), ['a: has no "type"']),
    (
        "required unknown",
        P({"a": {"type": "string"}}, required=["a", "b"]),
        ['required: names "b", which is not a property'],
    ),
    (
        "required not list",
        P({}, required="a"),
        ["required: must be a list of property names, got string"],
    ),
    (
        "required non-string",
        P({}, required=[1]),
        ["required[0]: must be a property name, got integer"],
    ),
    (
        "min>max",
        P({"a": {"type": "number", "minimum": 10, "maximum": 5}}),
        ["a: minimum (10) is greater than maximum (5)"],
    ),
    (
        "int no whole",
        P({"a": {"type": "integer", "minimum": 1.2, "maximum": 1.8}}),
        ["a: no whole number lies between the minimum and the maximum"],
    ),
    (
        "excl empty",
        P({"a": {"type": "number", "exclusiveMinimum": 1, "maximum": 1}}),
        ["a: no number lies between the minimum and the maximum"],
    ),
    (
        "minLength>maxLength",
        P({"a": {"type": "string", "minLength": 5, "maxLength": 2}}),
        ["a: minLength (5) is greater than maxLength (2)"],
    ),
    (
        "negative minLength",
        P({"a": {"type": "string", "minLength": -1}}),
        ["a: `minLength` must be between 0 and 10,000,000"],
    ),
    (
        "fraction maxLength",
        P({"a": {"type": "string", "maxLength": 2.5}}),
        ["a: `maxLength` must be a whole number, got 2.5"],
    ),
    (
        "bool minLength",
        P({"a": {"type": "string", "minLength": True}}),
        ["a: `minLength` must be a whole number, got boolean"],
    ),
    (
        "minItems>maxItems",
        P({"a": {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 2, "maxItems": 1}}),
        ["a: minItems (2) is greater than maxItems (1)"],
    ),
    (
        "minItems > options",
        P({"a": {"type": "array", "items": {"enum": ["a"]}, "minItems": 2}}),
        ["a: minItems (2) is more than the number of choices (1)"],
    ),
    (
        "array enum beside other items.enum",
        P({"a": {"type": "array", "enum": ["a", "z"], "items": {"enum": ["a", "b"]}}}),
        [
            'a.enum: lists other choices than `items.enum` ("z" is not one of them, "b" is '
            "missing); the choices of a multi-select are its `items`"
        ],
    ),
    (
        "enumNames not list",
        P({"a": {"type": "string", "enum": ["a"], "enumNames": "A"}}),
        ["a.enumNames: must be a list, got string"],
    ),
    ("empty enum", P({"a": {"type": "string", "enum": []}}), ["a.enum: has no choices"]),
    ("empty oneOf", P({"a": {"type": "string", "oneOf": []}}), ["a.oneOf: has no choices"]),
    (
        "duplicate enum",
        P({"a": {"type": "string", "enum": ["a", "b", "a"]}}),
        ['a.enum: duplicate choices: "a"'],
    ),
    (
        "duplicate const",
        P(
            {
                "a": {
                    "type": "array",
                    "items": {
                        "anyOf": [{"const": "x", "title": "X"}, {"const": "x", "title": "Y"}]
                    },
                }
            }
        ),
        ['a.items.anyOf: duplicate choices: "x"'],
    ),
    (
        "non-string enum",
        P({"a": {"type": "string", "enum": ["a", 1, None]}}),
        [
            "a.enum[1]: a choice's value must be a string, got integer",
            "a.enum[2]: a choice's value must be a string, got null",
        ],
    ),
    (
        "non-string title",
        P({"a": {"type": "string", "oneOf": [{"const": "a", "title": 3}]}}),
        ["a.oneOf[0].title: a choice's title must be a string, got integer"],
    ),
    (
        "option without const",
        P({"a": {"type": "string", "oneOf": [{"title": "A"}]}}),
        ['a.oneOf[0]: each choice must be {"const": ..., "title": ...}'],
    ),
    (
        "non-string field title",
        P({"a": {"type": "string", "title": 7}}),
        ["a: `title` must be a string, got integer"],
    ),
    ("non-string form title", P({}, title=["x"]), ["title: must be a string, got array"]),
    (
        "nan minimum",
        P({"a": {"type": "number", "minimum": float("nan")}}),
        ["a: `minimum` must be a finite number, got NaN"],
    ),
    (
        "inf maximum",
        P({"a": {"type": "number", "maximum": float("inf")}}),
        ["a: `maximum` must be a finite number, got Infinity"],
    ),
    (
        "bool minimum",
        P({"a": {"type": "number", "minimum": False}}),
        ["a: `minimum` must be a number, got boolean"],
    ),
    (
        "string maximum",
        P({"a": {"type": "integer", "maximum": "9"}}),
        ["a: `maximum` must be a number, got string"],
    ),
    (
        "multipleOf zero",
        P({"a": {"type": "number", "multipleOf": 0}}),
        ["a: `multipleOf` must be greater than 0"],
    ),
    (
        "enum and oneOf",
        P({"a": {"type": "string", "enum": ["a"], "oneOf": [{"const": "a"}]}}),
        ["a: has both `enum` and `oneOf`: give the choices once"],
    ),
    (
        "boolean enum",
        P({"a": {"type": "boolean", "enum": [True]}}),
        ["a: `enum` is only supported for string choices"],
    ),
    ("prop not object", P({"a": "string"}), ["a: must be a schema object, got string"]),
    (
        "properties not object",
        {"type": "object", "properties": []},
        ["properties: must be an object, got array"],
    ),
    (
        "minProperties root",
        P({}, minProperties=1),
        ["minProperties: `minProperties` at the top level is not supported"],
    ),
]


@pytest.mark.parametrize(("label", "schema", "expected"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusal(label: str, schema: object, expected: list[str]) -> None:
    assert problems(schema) == expected


def test_every_problem_is_listed_at_once() -> None:
    schema = P(
        {
            "a": {"type": "object"},
            "b": {"type": "integer", "minimum": 10, "maximum": 5},
            "c": {"type": "string", "enum": ["x", "x"]},
        },
        required=["nope"],
        oneOf=[],
    )
    assert problems(schema) == [
        "oneOf: `oneOf` at the top level is not supported",
        'required: names "nope", which is not a property',
        "a: nested objects are not supported: a form holds only flat fields",
        "b: minimum (10) is greater than maximum (5)",
        'c.enum: duplicate choices: "x"',
    ]
    with pytest.raises(SchemaError) as caught:
        parse_requested_schema(schema)
    message = str(caught.value)
    assert message.startswith("The requested schema cannot be shown as a form:\n- oneOf: ")
    assert message.count("\n- ") == 5


def test_too_many_fields() -> None:
    schema = P({f"f{i}": {"type": "string"} for i in range(MAX_FIELDS + 1)})
    assert problems(schema) == [
        f"properties: has {MAX_FIELDS + 1:,} fields; a form shows at most {MAX_FIELDS:,}"
    ]
    parse_requested_schema(P({f"f{i}": {"type": "string"} for i in range(MAX_FIELDS)}))


def test_too_many_options() -> None:
    many = [str(i) for i in range(MAX_OPTIONS + 1)]
    assert problems(P({"a": {"type": "string", "enum": many}})) == [
        f"a.enum: has {MAX_OPTIONS + 1:,} choices; at most {MAX_OPTIONS:,} are shown"
    ]
    assert len(parse_requested_schema(P({"a": {"enum": many[:-1]}})).fields[0].options) == (
        MAX_OPTIONS
    )


def test_too_many_options_in_all() -> None:
    enum = [str(i) for i in range(MAX_OPTIONS)]
    count = MAX_TOTAL_OPTIONS // MAX_OPTIONS + 1
    schema = P({f"s{i}": {"type": "string", "enum": enum} for i in range(count)})
    assert problems(schema) == [
        f"properties: {count * MAX_OPTIONS:,} choices in all; a form shows at most "
        f"{MAX_TOTAL_OPTIONS:,}"
    ]


def test_megabyte_strings() -> None:
    big = "x" * 1_000_000
    assert problems(P({"a": {"type": "string", "title": big}})) == [
        f"a: `title` is longer than {MAX_TITLE_LENGTH:,} characters"
    ]
    assert problems(P({"a": {"type": "string", "enum": [big]}})) == [
        "a.enum[0]: a choice's value is longer than 1,000 characters"
    ]
    assert problems(P({big: {"type": "string"}})) == [
        f"{'x' * 60}… [{len(big) - 60:,} more characters]: the name is longer than "
        f"{MAX_NAME_LENGTH:,} characters"
    ]
    assert problems(P({}, description=big)) == ["description: is longer than 20,000 characters"]
    # An oversized default is dropped (the field stays usable), not fatal.
    field = parse_requested_schema(P({"a": {"type": "string", "default": big}})).fields[0]
    assert field.has_default is False
    assert field.notes == (f"default dropped: longer than {MAX_DEFAULT_LENGTH:,} characters",)


def test_problem_list_is_capped() -> None:
    schema = P({f"f{i}": {"type": "object"} for i in range(MAX_PROBLEMS + 50)})
    listed = problems(schema)
    assert len(listed) == MAX_PROBLEMS + 1
    assert listed[-1] == "… and 50 more problems"


def test_property_names_in_paths_are_made_visible() -> None:
    assert problems(P({"a\x1b]0;pwned\x07": {"type": "object"}})) == [
        "a\\e]0;pwned\\x07: nested objects are not supported: a form holds only flat fields"
    ]
