"""``schema.parse_cache``: a form asked again is the same immutable form, never another's."""

from __future__ import annotations

import pytest

from mcp_tui.errors import SchemaError
from mcp_tui.schema.compiled import VALIDATORS
from mcp_tui.schema.parse import parse_requested_schema
from mcp_tui.schema.parse_cache import ParseCache
from mcp_tui.schema.validate import complete_with_defaults


def text_form(name: str = "a", default: str = "x") -> dict[str, object]:
    return {"type": "object", "properties": {name: {"type": "string", "default": default}}}


def test_a_hit_is_the_same_form_a_fresh_parse_would_give() -> None:
    cache = ParseCache()
    first = cache.parse(text_form())
    again = cache.parse(text_form())  # an equal schema in a new dict
    assert again is first
    assert first == parse_requested_schema(text_form())
    assert first.schema == text_form()
    assert len(cache) == 1


def test_different_schemas_never_share_a_form() -> None:
    cache = ParseCache()
    forms = [
        cache.parse(text_form("a")),
        cache.parse(text_form("b")),
        cache.parse(text_form("a", "y")),
        cache.parse({"type": "object", "properties": {"a": {"type": "integer", "default": 1}}}),
        # Same keys in another order: another form (the property order is the field order).
        cache.parse(
            {"type": "object", "properties": {"p": {"type": "string"}, "q": {"type": "string"}}}
        ),
        cache.parse(
            {"type": "object", "properties": {"q": {"type": "string"}, "p": {"type": "string"}}}
        ),
    ]
    assert len({id(f) for f in forms}) == len(forms)
    assert [f.name for f in forms[4].fields] == ["p", "q"]
    assert [f.name for f in forms[5].fields] == ["q", "p"]
    assert complete_with_defaults(forms[3], {}).content == {"a": 1}
    assert complete_with_defaults(forms[2], {}).content == {"a": "y"}


def test_changing_the_servers_dict_afterwards_changes_nothing() -> None:
    cache = ParseCache()
    schema = text_form()
    form = cache.parse(schema)
    schema["properties"]["a"]["default"] = "changed"  # type: ignore[index]
    assert form.schema == text_form()
    assert form.schema is not schema
    assert complete_with_defaults(cache.parse(text_form()), {}).content == {"a": "x"}


def test_refused_schemas_are_refused_every_time_and_never_cached() -> None:
    cache = ParseCache()
    bad = {"type": "object", "properties": {"a": {"type": "object"}}}
    for _ in range(2):
        with pytest.raises(SchemaError):
            cache.parse(bad)
    assert len(cache) == 0


def test_bounded_by_size_and_by_length() -> None:
    cache = ParseCache(size=2, largest=200)
    a, b = cache.parse(text_form("a")), cache.parse(text_form("b"))
    cache.parse(text_form("c"))
    assert len(cache) == 2
    assert cache.parse(text_form("b")) is b  # kept
    assert cache.parse(text_form("a")) is not a  # the oldest went first
    long = text_form("a", "x" * 500)
    assert cache.parse(long) is not cache.parse(long)  # too long to keep


def test_a_hit_finds_its_validator_by_identity() -> None:
    cache = ParseCache()
    VALIDATORS.clear()
    form = cache.parse(text_form("v"))
    first = VALIDATORS.validator(form)
    assert VALIDATORS.validator(cache.parse(text_form("v"))) is first
