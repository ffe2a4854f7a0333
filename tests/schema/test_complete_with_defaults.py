"""Headless, scripted answers: defaults fill the gaps, exact JSON types are enforced."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcp_tui.schema import complete_with_defaults, parse_requested_schema

Loader = Callable[[str], dict[str, Any]]
DEFAULTS = {"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": True}


@pytest.mark.parametrize(
    ("answer", "content", "errors"),
    [
        ({}, DEFAULTS, {}),
        ({"age": 31}, {**DEFAULTS, "age": 31}, {}),
        ({"age": 30.0}, DEFAULTS, {}),  # JSON Schema counts 30.0 as an integer; sent as 30
        ({"name": None}, DEFAULTS, {}),  # null means "not given"
        ({"name": ""}, {**DEFAULTS, "name": ""}, {}),  # a scripted "" is an explicit value
        ({"score": 1}, {**DEFAULTS, "score": 1}, {}),
        ({"age": True}, None, {"age": "Expected a whole number, got true"}),
        ({"age": 30.5}, None, {"age": "Expected a whole number, got 30.5"}),
        ({"age": "30"}, None, {"age": 'Expected a whole number, got "30"'}),
        ({"score": True}, None, {"score": "Expected a number, got true"}),
        ({"score": float("nan")}, None, {"score": "Expected a number, got NaN"}),
        ({"verified": 1}, None, {"verified": "Expected true or false, got 1"}),
        (
            {"age": 10**5000},
            None,
            {"age": "Expected a whole number, got a number with more than 300 digits"},
        ),
        ({"name": ["x"]}, None, {"name": 'Expected a string, got ["x"]'}),
        (
            {"status": "x"},
            None,
            {"status": 'Not one of the choices (one of "active", "inactive", "pending")'},
        ),
        (
            {"extra": 1, "age": "x"},
            None,
            {"age": 'Expected a whole number, got "x"', "extra": "Not a field of this form"},
        ),
    ],
)
def test_conformance_defaults(
    load_schema: Loader,
    answer: dict[str, Any],
    content: dict[str, Any] | None,
    errors: dict[str, str],
) -> None:
    form = parse_requested_schema(load_schema("conformance_sep1034_client_defaults"))
    result = complete_with_defaults(form, answer)
    assert (result.content, result.errors) == (content, errors)
    if content is not None:
        assert result.content is not None
        assert [type(v) for v in result.content.values()] == [type(v) for v in content.values()]


def test_rules_and_required(load_schema: Loader) -> None:
    form = parse_requested_schema(load_schema("server_everything_trigger_elicitation_request"))
    assert complete_with_defaults(form, {}).errors == {"name": "Required"}
    result = complete_with_defaults(
        form,
        {
            "name": "Ada",
            "email": "nope",
            "integer": 0,
            "untitledMultipleSelectEnum": ["Guitar", "Guitar"],
            "titledMultipleSelectEnum": [],
        },
    )
    assert result.errors == {
        "email": "Not a valid email address",
        "integer": "A whole number from 1 to 100",
        "untitledMultipleSelectEnum": "Pick each choice at most once",
        "titledMultipleSelectEnum": "Pick between 1 and 3",
    }
    ordered = complete_with_defaults(
        form, {"name": "Ada", "untitledMultipleSelectEnum": ["Bass", "Guitar"]}
    )
    assert ordered.content is not None
    assert ordered.content["untitledMultipleSelectEnum"] == ["Guitar", "Bass"]


def test_answer_that_is_not_an_object() -> None:
    form = parse_requested_schema({"type": "object", "properties": {"a": {"type": "string"}}})
    result = complete_with_defaults(form, ["a"])  # type: ignore[arg-type]
    assert result.errors == {"a": 'The answer must be a JSON object, not ["a"]'}
