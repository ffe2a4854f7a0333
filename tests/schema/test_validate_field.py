"""Raw widget input → exact JSON value or the exact human message, one field at a time."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.schema import OMIT, FieldSpec, RawValue, parse_requested_schema, validate_field


def field(prop: dict[str, Any], required: bool = False) -> FieldSpec:
    schema: dict[str, Any] = {"type": "object", "properties": {"f": prop}}
    if required:
        schema["required"] = ["f"]
    return parse_requested_schema(schema).fields[0]


S: dict[str, Any] = {"type": "string"}
CHOICES: dict[str, Any] = {"type": "array", "items": {"enum": ["a", "b", "c"]}}
ONE_TO_TWO: dict[str, Any] = {**CHOICES, "minItems": 1, "maxItems": 2}
PERCENT: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": 100}

# (label, property schema, required, raw input, expected value or OMIT, expected message)
CASES: list[tuple[str, dict[str, Any], bool, RawValue, object, str | None]] = [
    # text
    ("required empty", S, True, "", OMIT, "Required"),
    ("optional empty is omitted", S, False, "", OMIT, None),
    ("None is empty", S, True, None, OMIT, "Required"),
    ("text is sent exactly", S, False, " x ", " x ", None),
    ("whitespace is text", S, True, "  ", "  ", None),
    ("too short", {**S, "minLength": 3}, True, "ab", OMIT, "At least 3 characters"),
    ("one character", {**S, "minLength": 1}, True, "", OMIT, "Required"),
    ("too long", {**S, "maxLength": 3}, False, "abcd", OMIT, "At most 3 characters"),
    (
        "exact length",
        {**S, "minLength": 2, "maxLength": 2},
        False,
        "a",
        OMIT,
        "Exactly 2 characters",
    ),
    ("length counts code points", {**S, "maxLength": 1}, False, "😀", "😀", None),
    (
        "pattern",
        {**S, "pattern": "^[a-z]+$"},
        False,
        "ABC",
        OMIT,
        "Must match the pattern ^[a-z]+$",
    ),
    ("pattern is a search", {**S, "pattern": "[0-9]"}, False, "ab1", "ab1", None),
    (
        "catastrophic pattern, linear time",
        {**S, "pattern": "^(a+)+$"},
        False,
        "a" * 50_000 + "!",
        OMIT,
        "Must match the pattern ^(a+)+$",
    ),
    ("refused pattern is not enforced", {**S, "pattern": r"^(?=x)"}, False, "abc", "abc", None),
    # formats
    ("email", {**S, "format": "email"}, False, "a@b", OMIT, "Not a valid email address"),
    (
        "email trimmed",
        {**S, "format": "email"},
        False,
        " ada@example.com ",
        "ada@example.com",
        None,
    ),
    ("blank email is empty", {**S, "format": "email"}, True, "   ", OMIT, "Required"),
    (
        "uri without scheme",
        {**S, "format": "uri"},
        False,
        "example.com",
        OMIT,
        "Not a valid URI: it needs a scheme, like https://example.com",
    ),
    (
        "uri with space",
        {**S, "format": "uri"},
        False,
        "https://e.com/a b",
        OMIT,
        "Not a valid URI: spaces and non-ASCII characters must be %-encoded",
    ),
    (
        "uri without host",
        {**S, "format": "uri"},
        False,
        "https://",
        OMIT,
        "Not a valid URI: the host is missing",
    ),
    (
        "uri opaque http",
        {**S, "format": "uri"},
        False,
        "https:example.com",
        OMIT,
        "Not a valid URI: use https://host/…",
    ),
    (
        "uri bad escape",
        {**S, "format": "uri"},
        False,
        "https://e.com/%zz",
        OMIT,
        "Not a valid URI: spaces and non-ASCII characters must be %-encoded",
    ),
    ("uri mailto", {**S, "format": "uri"}, False, "mailto:a@b.c", "mailto:a@b.c", None),
    ("uri ipv6", {**S, "format": "uri"}, False, "http://[::1]:8080/x", "http://[::1]:8080/x", None),
    ("uri urn", {**S, "format": "uri"}, False, "urn:isbn:0451450523", "urn:isbn:0451450523", None),
    (
        "date not real",
        {**S, "format": "date"},
        False,
        "2026-02-30",
        OMIT,
        "Not a real calendar date",
    ),
    ("date form", {**S, "format": "date"}, False, "31/01/2026", OMIT, "Use the form YYYY-MM-DD"),
    ("leap day", {**S, "format": "date"}, False, "2024-02-29", "2024-02-29", None),
    (
        "date-time normalised",
        {**S, "format": "date-time"},
        False,
        "2026-01-31 09:00z",
        "2026-01-31T09:00:00Z",
        None,
    ),
    (
        "date-time fraction and offset",
        {**S, "format": "date-time"},
        False,
        "2026-01-31T09:00:00.123+05:30",
        "2026-01-31T09:00:00.123+05:30",
        None,
    ),
    (
        "date-time hour",
        {**S, "format": "date-time"},
        False,
        "2026-01-31T25:00:00Z",
        OMIT,
        "Not a real time of day",
    ),
    (
        "date-time offset",
        {**S, "format": "date-time"},
        False,
        "2026-01-31T09:00:00+24:00",
        OMIT,
        "Not a valid UTC offset",
    ),
    (
        "date-time form",
        {**S, "format": "date-time"},
        False,
        "tomorrow",
        OMIT,
        "Use the form 2026-01-31T09:00:00+01:00",
    ),
    # integer
    ("integer required", PERCENT, True, "", OMIT, "Required"),
    ("integer blank is empty", PERCENT, False, "   ", OMIT, None),
    ("integer below", PERCENT, False, "0", OMIT, "A whole number from 1 to 100"),
    ("integer fraction", PERCENT, False, "4.5", OMIT, "A whole number from 1 to 100"),
    ("integer text", PERCENT, False, "abc", OMIT, "A whole number from 1 to 100"),
    ("integer spaces", {"type": "integer"}, False, " 42 ", 42, None),
    ("integer 4.0", {"type": "integer"}, False, "4.0", 4, None),
    ("integer 1e3", {"type": "integer"}, False, "1e3", 1000, None),
    ("integer -0", {"type": "integer"}, False, "-0", 0, None),
    ("integer plus", {"type": "integer"}, False, "+7", 7, None),
    ("integer NaN", {"type": "integer"}, False, "NaN", OMIT, "A whole number"),
    ("integer huge exponent", {"type": "integer"}, False, "1e400", OMIT, "A whole number"),
    (
        "integer big exact",
        {"type": "integer"},
        False,
        "12345678901234567890123",
        12345678901234567890123,
        None,
    ),
    (
        "integer at least",
        {"type": "integer", "minimum": 0},
        False,
        "-1",
        OMIT,
        "A whole number of at least 0",
    ),
    (
        "integer exclusive",
        {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
        False,
        "10",
        OMIT,
        "A whole number from 1 to 9",
    ),
    (
        "integer fractional bound",
        {"type": "integer", "minimum": 0.5},
        False,
        "0",
        OMIT,
        "A whole number of at least 1",
    ),
    # number
    (
        "number range",
        {"type": "number", "minimum": 0, "maximum": 1},
        False,
        "1.5",
        OMIT,
        "A number from 0 to 1",
    ),
    ("number keeps int", {"type": "number"}, False, "30", 30, None),
    ("number keeps decimals", {"type": "number"}, False, "30.0", 30.0, None),
    ("number exponent", {"type": "number"}, False, "1e3", 1000.0, None),
    ("number leading dot", {"type": "number"}, False, ".5", 0.5, None),
    ("number -0", {"type": "number"}, False, "-0", 0, None),
    ("number -0.0", {"type": "number"}, False, "-0.0", 0.0, None),
    ("number inf", {"type": "number"}, False, "inf", OMIT, "A number"),
    ("number Infinity", {"type": "number"}, False, "Infinity", OMIT, "A number"),
    ("number overflow", {"type": "number"}, False, "1e400", OMIT, "A number"),
    ("number underflow", {"type": "number"}, False, "1e-400", OMIT, "A number"),
    ("number separators", {"type": "number"}, False, "1,000", OMIT, "A number"),
    ("number underscores", {"type": "number"}, False, "1_000", OMIT, "A number"),
    ("number hex", {"type": "number"}, False, "0x10", OMIT, "A number"),
    ("number arabic digit", {"type": "number"}, False, "٣", OMIT, "A number"),
    ("number too long", {"type": "number"}, False, "1" * 101, OMIT, "A number"),
    (
        "number at least",
        {"type": "number", "minimum": 18},
        False,
        "17",
        OMIT,
        "A number of at least 18",
    ),
    (
        "number at most",
        {"type": "number", "maximum": 10},
        False,
        "11",
        OMIT,
        "A number of at most 10",
    ),
    (
        "number greater",
        {"type": "number", "exclusiveMinimum": 0},
        False,
        "0",
        OMIT,
        "A number greater than 0",
    ),
    (
        "number mixed",
        {"type": "number", "exclusiveMinimum": 0, "maximum": 10},
        False,
        "0",
        OMIT,
        "A number greater than 0 and at most 10",
    ),
    (
        "number less",
        {"type": "number", "minimum": 0, "exclusiveMaximum": 1},
        False,
        "1",
        OMIT,
        "A number of at least 0 and less than 1",
    ),
    ("multiple of", {"type": "number", "multipleOf": 0.5}, False, "0.3", OMIT, "A multiple of 0.5"),
    ("multiple of ok", {"type": "number", "multipleOf": 0.5}, False, "1.5", 1.5, None),
    # boolean
    ("optional boolean unset", {"type": "boolean"}, False, None, OMIT, None),
    ("required boolean unset", {"type": "boolean"}, True, None, OMIT, "Required"),
    ("false is a value", {"type": "boolean"}, True, False, False, None),
    (
        "boolean from text",
        {"type": "boolean"},
        False,
        "yes",
        OMIT,
        "Unexpected input for this field",
    ),
    # single select
    ("select unset", {"enum": ["a", "b"]}, False, None, OMIT, None),
    ("select required", {"enum": ["a", "b"]}, True, None, OMIT, "Required"),
    ("select unknown", {"enum": ["a", "b"]}, False, "c", OMIT, "Not one of the choices"),
    (
        "select sends the const",
        {"type": "string", "oneOf": [{"const": "v", "title": "Shown"}]},
        False,
        "v",
        "v",
        None,
    ),
    (
        "select by title is refused",
        {"type": "string", "oneOf": [{"const": "v", "title": "T"}]},
        False,
        "T",
        OMIT,
        "Not one of the choices",
    ),
    # multi select
    ("too many", ONE_TO_TWO, False, ["a", "b", "c"], OMIT, "Pick between 1 and 2"),
    ("optional empty multi omitted", ONE_TO_TWO, False, [], OMIT, None),
    ("required empty multi", ONE_TO_TWO, True, [], OMIT, "Pick between 1 and 2"),
    ("required empty multi allowed", CHOICES, True, [], [], None),
    ("None multi is empty", CHOICES, True, None, [], None),
    ("schema order, no duplicates", CHOICES, False, ["c", "a", "c"], ["a", "c"], None),
    ("multi unknown", CHOICES, False, ["z"], OMIT, "Not one of the choices"),
    ("at least", {**CHOICES, "minItems": 2}, False, ["a"], OMIT, "Pick at least 2"),
    ("at most", {**CHOICES, "maxItems": 1}, False, ["a", "b"], OMIT, "Pick at most 1"),
    ("exactly", {**CHOICES, "minItems": 2, "maxItems": 2}, False, ["a"], OMIT, "Pick exactly 2"),
    # wrong raw types never raise
    ("int for text", S, False, 5, OMIT, "Unexpected input for this field"),  # type: ignore[list-item]
    ("bool for integer", {"type": "integer"}, False, True, OMIT, "Unexpected input for this field"),
    ("str for multi", CHOICES, False, "a", OMIT, "Unexpected input for this field"),
    ("list of ints", CHOICES, False, [1], OMIT, "Unexpected input for this field"),  # type: ignore[list-item]
]


@pytest.mark.parametrize(
    ("label", "prop", "required", "raw", "value", "message"), CASES, ids=[c[0] for c in CASES]
)
def test_validate_field(
    label: str,
    prop: dict[str, Any],
    required: bool,
    raw: RawValue,
    value: object,
    message: str | None,
) -> None:
    got_value, got_message = validate_field(field(prop, required), raw)
    assert (got_value, got_message) == (value, message)
    assert type(got_value) is type(value)  # 30 is not 30.0, 0 is not False
