"""Unknown keywords and formats, dropped defaults and refused patterns are notes, never fatal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcp_tui.schema import parse_requested_schema
from mcp_tui.schema.validate import final_check

NOTES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    (
        "unknown keyword",
        {"type": "string", "x-widget": "textarea"},
        ("unknown keyword `x-widget` ignored",),
    ),
    ("unknown format", {"type": "string", "format": "phone"}, ('unknown format "phone" ignored',)),
    (
        "format not string",
        {"type": "string", "format": 5},
        ("`format` is not a string (integer); ignored",),
    ),
    (
        "other-type keyword",
        {"type": "number", "minLength": 3},
        ("`minLength` does not apply to a number field; ignored",),
    ),
    (
        "contentMediaType",
        {"type": "string", "contentMediaType": "text/plain"},
        ("`contentMediaType` is not shown in the form; it is checked on submit",),
    ),
    (
        "backreference",
        {"type": "string", "pattern": r"^(a+)\1$"},
        (
            "pattern ^(a+)\\1$ is not checked: the linear-time engine cannot run it (invalid "
            "escape sequence: \\1)",
        ),
    ),
    (
        "lookahead",
        {"type": "string", "pattern": r"^(?=.*\d).{8,}$"},
        (
            "pattern ^(?=.*\\d).{8,}$ is not checked: the linear-time engine cannot run it "
            "(invalid perl operator: (?=)",
        ),
    ),
    (
        "pattern not string",
        {"type": "string", "pattern": 5},
        ("`pattern` is not a string (integer); ignored",),
    ),
    (
        "long pattern",
        {"type": "string", "pattern": "a" * 1001},
        (
            "pattern " + "a" * 80 + "… [921 more characters] is not checked: longer than 1,000 "
            "characters",
        ),
    ),
    (
        "default wrong type",
        {"type": "integer", "default": "30"},
        ('default "30" dropped: Expected a whole number, got "30"',),
    ),
    (
        "default bool for int",
        {"type": "integer", "default": True},
        ("default true dropped: Expected a whole number, got true",),
    ),
    (
        "default out of range",
        {"type": "integer", "minimum": 1, "maximum": 10, "default": 11},
        ("default 11 dropped: A whole number from 1 to 10",),
    ),
    (
        "default fraction int",
        {"type": "integer", "default": 2.5},
        ("default 2.5 dropped: Expected a whole number, got 2.5",),
    ),
    (
        "default not option",
        {"type": "string", "enum": ["a"], "default": "b"},
        ('default "b" dropped: Not one of the choices',),
    ),
    (
        "default too short",
        {"type": "string", "minLength": 3, "default": "ab"},
        ('default "ab" dropped: At least 3 characters',),
    ),
    (
        "default bad email",
        {"type": "string", "format": "email", "default": "nope"},
        ('default "nope" dropped: Not a valid email address',),
    ),
    (
        "default bad pattern",
        {"type": "string", "pattern": "^[a-z]+$", "default": "ABC"},
        ('default "ABC" dropped: Must match the pattern ^[a-z]+$',),
    ),
    (
        "default multi not option",
        {"type": "array", "items": {"enum": ["a"]}, "default": ["z"]},
        ('default ["z"] dropped: Not one of the choices',),
    ),
    (
        "default multi too many",
        {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 1, "default": ["a", "b"]},
        ('default ["a", "b"] dropped: Pick at most 1',),
    ),
    ("default null", {"type": "string", "default": None}, ("default null ignored",)),
    (
        "default too long to edit",
        {"type": "integer", "default": 10**200},
        ("default 1" + "0" * 59 + "… [141 more characters] dropped: too large to edit as text",),
    ),
    (
        "default huge int",
        {"type": "integer", "default": 10**400},
        (
            "default a number with more than 300 digits dropped: Expected a whole number, got a "
            "number with more than 300 digits",
        ),
    ),
    (
        "default datetime no offset",
        {"type": "string", "format": "date-time", "default": "2026-01-31T09:00:00"},
        (
            'default "2026-01-31T09:00:00" dropped: Add a time zone, e.g. '
            "2026-01-31T09:00:00+00:00 (your local time)",
        ),
    ),
    (
        "select ignores minLength",
        {"type": "string", "enum": ["a"], "minLength": 2},
        ("`minLength` is not used for a list of choices",),
    ),
    (
        "items extra",
        {"type": "array", "items": {"enum": ["a"], "x": 1}},
        ("`items.x` is not shown in the form",),
    ),
    (
        "enumNames shorter than enum",
        {"type": "string", "enum": ["a", "b", "c"], "enumNames": ["A"]},
        ("`enumNames` has 1 name for 3 choices: the other 2 shown as their values",),
    ),
    (
        "enumNames longer than enum",
        {"type": "string", "enum": ["a"], "enumNames": ["A", "B"]},
        ("`enumNames` has 2 names for 1 choice: the extra 1 ignored",),
    ),
    (
        "array enum repeating items.enum",
        {"type": "array", "enum": ["b", "a"], "items": {"type": "string", "enum": ["a", "b"]}},
        ("`enum` beside `items.enum` repeats the choices; ignored",),
    ),
    (
        "enumNames alone",
        {"type": "string", "oneOf": [{"const": "a"}], "enumNames": ["A"]},
        ("`enumNames` without `enum` ignored",),
    ),
]


@pytest.mark.parametrize(("label", "prop", "notes"), NOTES, ids=[n[0] for n in NOTES])
def test_note(
    label: str, prop: dict[str, Any], notes: tuple[str, ...], local_tz: Callable[[str], None]
) -> None:
    local_tz("UTC")
    field = parse_requested_schema({"type": "object", "properties": {"a": prop}}).fields[0]
    assert field.notes == notes
    if "default" in label:
        assert field.has_default is False and field.default is None


def test_refused_pattern_is_not_enforced_and_kept_patterns_are() -> None:
    form = parse_requested_schema(
        {
            "type": "object",
            "properties": {
                "refused": {"type": "string", "pattern": r"^(a+)\1$"},
                "kept": {"type": "string", "pattern": "^[a-z]+$"},
            },
        }
    )
    assert form.field_named("refused").pattern is None
    assert form.field_named("kept").pattern == "^[a-z]+$"


ROOT_NOTES: list[tuple[dict[str, Any], tuple[str, ...]]] = [
    (
        {"$schema": "http://json-schema.org/draft-07/schema#"},
        (
            "declares http://json-schema.org/draft-07/schema#; answers are checked as JSON "
            "Schema 2020-12",
        ),
    ),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema"}, ()),
    ({"x-foo": 1}, ("unknown keyword `x-foo` ignored",)),
    (
        {"additionalProperties": {"type": "string"}},
        ("`additionalProperties` ignored: only the listed properties are ever sent",),
    ),
    ({"default": {}}, ("top-level `default` ignored",)),
    ({"$schema": 3}, ("`$schema` is not a string; ignored",)),
]


@pytest.mark.parametrize(("extra", "notes"), ROOT_NOTES)
def test_root_note(extra: dict[str, Any], notes: tuple[str, ...]) -> None:
    form = parse_requested_schema({"type": "object", "properties": {}, **extra})
    assert form.notes == notes


def test_notes_per_field_are_capped() -> None:
    prop: dict[str, Any] = {"type": "string", **{f"x-{i}": i for i in range(100)}}
    notes = parse_requested_schema({"type": "object", "properties": {"a": prop}}).fields[0].notes
    assert len(notes) == 21 and notes[-1] == "… more notes left out"


def test_missing_enum_names_are_the_raw_values() -> None:
    """The Inspector and fast-agent label the choices enumNames does not name by their value."""
    prop = {"type": "string", "enum": ["a", "b", "c"], "enumNames": ["Apple"]}
    field = parse_requested_schema({"type": "object", "properties": {"f": prop}}).fields[0]
    assert [(o.value, o.label) for o in field.options] == [("a", "Apple"), ("b", "b"), ("c", "c")]


def test_an_array_enum_repeating_items_enum_is_a_multi_select() -> None:
    prop = {"type": "array", "enum": ["a", "b"], "items": {"type": "string", "enum": ["a", "b"]}}
    form = parse_requested_schema({"type": "object", "properties": {"f": prop}})
    assert form.fields[0].kind.value == "multi_select"
    assert [o.value for o in form.fields[0].options] == ["a", "b"]
    # Read literally, the top-level enum allows no array at all: the final check ignores it.
    assert final_check(form, {"f": ["a"]}) == {}
    assert final_check(form, {"f": ["c"]}) != {}
