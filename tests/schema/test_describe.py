"""Rules in words for hint lines, and placeholders for inputs."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.schema import constraint_text, parse_requested_schema, placeholder


def describe(prop: dict[str, Any]) -> tuple[str, str]:
    field = parse_requested_schema({"type": "object", "properties": {"f": prop}}).fields[0]
    return constraint_text(field), placeholder(field)


ARRAY: dict[str, Any] = {"type": "array", "items": {"enum": ["a", "b", "c", "d"]}}


@pytest.mark.parametrize(
    ("prop", "constraint", "hint"),
    [
        ({"type": "string"}, "", ""),
        ({"type": "string", "minLength": 3, "maxLength": 20}, "3–20 characters", ""),
        ({"type": "string", "minLength": 3}, "at least 3 characters", ""),
        ({"type": "string", "minLength": 1}, "at least 1 character", ""),
        ({"type": "string", "maxLength": 20}, "at most 20 characters", ""),
        ({"type": "string", "minLength": 0, "maxLength": 20}, "at most 20 characters", ""),
        ({"type": "string", "minLength": 5, "maxLength": 5}, "exactly 5 characters", ""),
        ({"type": "string", "maxLength": 10000}, "at most 10,000 characters", ""),
        ({"type": "string", "pattern": "^[a-z]+$"}, "matching ^[a-z]+$", ""),
        ({"type": "string", "format": "email"}, "", "name@example.com"),
        ({"type": "string", "format": "uri"}, "", "https://…"),
        ({"type": "string", "format": "date"}, "", "YYYY-MM-DD"),
        ({"type": "string", "format": "date-time"}, "", "2026-01-31T09:00:00+01:00"),
        ({"type": "number", "minimum": 1, "maximum": 100}, "1 to 100", "number"),
        ({"type": "number", "minimum": 0.5}, "at least 0.5", "number"),
        (
            {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
            "greater than 0, at most 1",
            "number",
        ),
        ({"type": "number", "multipleOf": 0.25}, "multiple of 0.25", "number"),
        ({"type": "integer"}, "whole number", "whole number"),
        (
            {"type": "integer", "minimum": 1, "maximum": 100},
            "whole number, 1 to 100",
            "whole number",
        ),
        ({"type": "integer", "exclusiveMaximum": 10}, "whole number, at most 9", "whole number"),
        ({"type": "boolean"}, "", ""),
        ({"enum": ["a"]}, "", ""),
        ({**ARRAY, "minItems": 1, "maxItems": 3}, "pick 1–3", ""),
        ({**ARRAY, "minItems": 2}, "pick at least 2", ""),
        ({**ARRAY, "maxItems": 3}, "pick at most 3", ""),
        ({**ARRAY, "minItems": 2, "maxItems": 2}, "pick exactly 2", ""),
        (ARRAY, "", ""),
    ],
)
def test_describe(prop: dict[str, Any], constraint: str, hint: str) -> None:
    assert describe(prop) == (constraint, hint)


def test_server_text_in_descriptions_is_made_visible() -> None:
    constraint, _ = describe({"type": "string", "pattern": "a\x1b]0;x\x07"})
    assert constraint == "matching a\\e]0;x\\x07"


def test_plurals_read_as_english() -> None:
    from mcp_tui.schema.rules import plural

    assert [plural(1, "entry"), plural(2, "entry"), plural(3, "day"), plural(2, "item")] == [
        "1 entry",
        "2 entries",
        "3 days",
        "2 items",
    ]
