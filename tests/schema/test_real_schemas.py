"""Real schemas captured from server-everything, the TypeScript SDK examples and conformance."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mcp_tui.schema import (
    FieldKind,
    initial_values,
    parse_requested_schema,
    validate_form,
)

Loader = Callable[[str], dict[str, Any]]
Oracle = Callable[[object, dict[str, Any]], None]


def test_conformance_defaults_are_sent_with_exact_types(
    load_schema: Loader, oracle: Oracle
) -> None:
    schema = load_schema("conformance_sep1034_client_defaults")
    form = parse_requested_schema(schema)
    assert initial_values(form) == {
        "name": "John Doe",
        "age": "30",
        "score": "95.5",
        "status": "active",
        "verified": True,
    }
    result = validate_form(form, {})
    assert result.ok
    assert json.dumps(result.content) == (
        '{"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true}'
    )
    oracle(result.content, schema)


def test_server_everything_trigger_elicitation_request(load_schema: Loader, oracle: Oracle) -> None:
    schema = load_schema("server_everything_trigger_elicitation_request")
    form = parse_requested_schema(schema)
    assert [(f.name, f.kind) for f in form.fields] == [
        ("name", FieldKind.TEXT),
        ("check", FieldKind.BOOLEAN),
        ("firstLine", FieldKind.TEXT),
        ("email", FieldKind.TEXT),
        ("homepage", FieldKind.TEXT),
        ("birthdate", FieldKind.TEXT),
        ("integer", FieldKind.INTEGER),
        ("number", FieldKind.NUMBER),
        ("untitledSingleSelectEnum", FieldKind.SELECT),
        ("untitledMultipleSelectEnum", FieldKind.MULTI_SELECT),
        ("titledSingleSelectEnum", FieldKind.SELECT),
        ("titledMultipleSelectEnum", FieldKind.MULTI_SELECT),
        ("legacyTitledEnum", FieldKind.SELECT),
    ]
    assert all(f.notes == () for f in form.fields) and form.notes == ()
    assert [o.label for o in form.field_named("legacyTitledEnum").options][:2] == ["Cats", "Dogs"]
    assert validate_form(form, {}).errors == {"name": "Required"}

    untouched = validate_form(form, {"name": "Ada Lovelace"})
    assert untouched.content == {
        "name": "Ada Lovelace",
        "firstLine": "It was a dark and stormy night.",
        "integer": 42,
        "number": 3.14,
        "untitledSingleSelectEnum": "Monica",
        "untitledMultipleSelectEnum": ["Guitar"],
        "titledSingleSelectEnum": "hero-1",
        "titledMultipleSelectEnum": ["fish-1"],
        "legacyTitledEnum": "pet-1",
    }
    oracle(untouched.content, schema)

    everything = validate_form(
        form,
        {
            "name": "Ada",
            "check": True,
            "email": "ada@example.com",
            "homepage": "https://example.com/ada",
            "birthdate": "1815-12-10",
            "integer": "7",
            "number": "2.5",
            "untitledMultipleSelectEnum": ["Drums", "Piano"],
            "titledSingleSelectEnum": "hero-3",
            "titledMultipleSelectEnum": [],
            "legacyTitledEnum": "pet-5",
        },
    )
    assert everything.ok and everything.content is not None
    assert everything.content["untitledMultipleSelectEnum"] == ["Piano", "Drums"]
    assert "titledMultipleSelectEnum" not in everything.content
    assert everything.content["integer"] == 7 and type(everything.content["integer"]) is int
    oracle(everything.content, schema)

    wrong = validate_form(
        form,
        {
            "name": "",
            "email": "ada",
            "homepage": "portfolio",
            "birthdate": "1990-13-01",
            "integer": "101",
            "number": "1000.5",
            "untitledMultipleSelectEnum": ["Guitar", "Piano", "Violin", "Drums"],
            "titledSingleSelectEnum": "Superman",
        },
    )
    assert wrong.content is None
    assert wrong.errors == {
        "name": "Required",
        "email": "Not a valid email address",
        "homepage": "Not a valid URI: it needs a scheme, like https://example.com",
        "birthdate": "Not a real calendar date",
        "integer": "A whole number from 1 to 100",
        "number": "A number from 0 to 1000",
        "untitledMultipleSelectEnum": "Pick between 1 and 3",
        "titledSingleSelectEnum": "Not one of the choices",
    }
    assert list(wrong.errors) == [f.name for f in form.fields if f.name in wrong.errors]


def test_sdk_register_user(load_schema: Loader, oracle: Oracle) -> None:
    schema = load_schema("sdk_register_user")
    form = parse_requested_schema(schema)
    ok = validate_form(
        form, {"username": "ada", "email": "ada@example.com", "password": "correct horse"}
    )
    assert ok.content == {
        "username": "ada",
        "email": "ada@example.com",
        "password": "correct horse",
        "newsletter": False,
        "role": "developer",
    }
    oracle(ok.content, schema)
    bad = validate_form(
        form,
        {"username": "ab", "email": "a@b", "password": "short", "interests": ["ai", "x"]},
    )
    assert bad.errors == {
        "username": "At least 3 characters",
        "email": "Not a valid email address",
        "password": "At least 8 characters",
        "interests": "Not one of the choices",
    }
    too_many = validate_form(
        form,
        {
            "username": "ada",
            "email": "ada@example.com",
            "password": "correct horse",
            "interests": ["ai", "mobile", "backend", "devops"],
        },
    )
    assert too_many.errors == {"interests": "Pick between 1 and 3"}


def test_sdk_create_event_two_forms(load_schema: Loader, oracle: Oracle) -> None:
    step1 = load_schema("sdk_create_event_step1")
    first = validate_form(parse_requested_schema(step1), {"title": "Launch"})
    assert first.content == {"title": "Launch"}
    oracle(first.content, step1)

    step2 = load_schema("sdk_create_event_step2")
    form = parse_requested_schema(step2)
    assert validate_form(
        form, {"date": "2026-02-29", "startTime": "9", "duration": "14"}
    ).errors == {
        "date": "Not a real calendar date",
        "duration": "A whole number from 15 to 480",
    }
    second = validate_form(form, {"date": "2026-03-01", "startTime": "09:30", "duration": "90"})
    assert second.content == {"date": "2026-03-01", "startTime": "09:30", "duration": 90}
    oracle(second.content, step2)


def test_sdk_update_shipping_address(load_schema: Loader, oracle: Oracle) -> None:
    schema = load_schema("sdk_update_shipping_address")
    form = parse_requested_schema(schema)
    answer = {"name": "Ada", "street": "1 Main St", "city": "London", "zipCode": "12345"}
    assert validate_form(form, {**answer, "state": "CAL"}).errors == {
        "state": "Exactly 2 characters"
    }
    result = validate_form(form, {**answer, "state": "CA", "phone": ""})
    assert result.content == {**answer, "state": "CA"}
    oracle(result.content, schema)


@pytest.mark.parametrize(
    ("name", "answer", "content"),
    [
        (
            "sdk_collect_user_info_contact",
            {"name": "Ada", "email": "ada@example.com"},
            {"name": "Ada", "email": "ada@example.com"},
        ),
        (
            "sdk_collect_user_info_preferences",
            {"theme": "dark"},
            {"theme": "dark", "notifications": True},
        ),
        (
            "sdk_collect_user_info_feedback",
            {"rating": "5"},
            {"rating": 5, "recommend": False},
        ),
        (
            "conformance_sep1330_enums",
            {
                "untitledSingle": "option1",
                "titledSingle": "value1",
                "legacyEnum": "opt1",
                "untitledMulti": ["option2", "option1"],
                "titledMulti": ["value1", "value2"],
            },
            {
                "untitledSingle": "option1",
                "titledSingle": "value1",
                "legacyEnum": "opt1",
                "untitledMulti": ["option1", "option2"],
                "titledMulti": ["value1", "value2"],
            },
        ),
    ],
)
def test_more_real_forms(
    load_schema: Loader, oracle: Oracle, name: str, answer: dict[str, Any], content: Any
) -> None:
    schema = load_schema(name)
    result = validate_form(parse_requested_schema(schema), answer)
    assert result.content == content
    oracle(result.content, schema)


def test_python_sdk_all_fields(load_schema: Loader, oracle: Oracle) -> None:
    schema = load_schema("python_sdk_all_fields")
    form = parse_requested_schema(schema)
    assert form.field_named("name").pattern == "^[A-Za-z ]+$"
    bad = validate_form(form, {"name": "Ada1", "email": "ada@example.com", "age": "151"})
    assert bad.errors == {
        "name": "Must match the pattern ^[A-Za-z ]+$",
        "age": "A whole number from 0 to 150",
    }
    good = validate_form(
        form,
        {
            "email": "ada@example.com",
            "homepage": "https://example.com",
            "meeting": "2026-01-31T09:00:00Z",
            "age": "36",
            "tags": ["b", "a"],
        },
    )
    assert good.content == {
        "name": "Ada",
        "email": "ada@example.com",
        "homepage": "https://example.com",
        "birthday": "1815-12-10",
        "meeting": "2026-01-31T09:00:00Z",
        "ratio": 0.5,
        "age": 36,
        "subscribe": True,
        "color": "green",
        "size": "m",
        "tags": ["a", "b"],
        "toppings": ["ham"],
        "legacy": "y",
    }
    oracle(good.content, schema)
