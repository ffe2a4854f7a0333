"""Tool ``inputSchema``s: flat ones become forms, richer ones go to the JSON editor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcp_tui.errors import SchemaProblem
from mcp_tui.schema import FormSpec, NeedsJsonEditor, classify_input_schema, validate_form

Loader = Callable[[str], dict[str, Any]]


def test_zod_schema_is_a_form(load_schema: Loader) -> None:
    form = classify_input_schema(load_schema("tool_input_zod_collect_user_info"))
    assert isinstance(form, FormSpec)
    assert validate_form(form, {"infoType": "contact"}).content == {"infoType": "contact"}


def test_pydantic_nested_schema_needs_the_editor(load_schema: Loader) -> None:
    schema = load_schema("tool_input_pydantic_nested")
    result = classify_input_schema(schema)
    assert isinstance(result, NeedsJsonEditor)
    assert result.schema is schema
    # The reference and the Optional are read; the nested object is what needs the editor.
    assert result.problems == (
        SchemaProblem("address", "nested objects are not supported: a form holds only flat fields"),
    )
    assert result.reason == (
        "needs the JSON editor: address: nested objects are not supported: a form holds only "
        "flat fields"
    )


@pytest.mark.parametrize(
    ("schema", "kind"),
    [
        ({"type": "object", "properties": {}}, FormSpec),
        ({"type": "object"}, FormSpec),
        ({"type": "object", "additionalProperties": True}, NeedsJsonEditor),
        ({"type": "object", "additionalProperties": {"type": "string"}}, NeedsJsonEditor),
        (
            {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}},
            FormSpec,  # a list editor
        ),
        (
            {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}}}},
            NeedsJsonEditor,
        ),
        ({"type": "object", "properties": {"a": {"type": "object"}}}, NeedsJsonEditor),
        (None, NeedsJsonEditor),
        ("junk", NeedsJsonEditor),
    ],
)
def test_classify(schema: object, kind: type) -> None:
    assert isinstance(classify_input_schema(schema), kind)


def test_free_form_reason() -> None:
    result = classify_input_schema({"type": "object", "additionalProperties": True})
    assert result == NeedsJsonEditor("the tool accepts free-form arguments")
