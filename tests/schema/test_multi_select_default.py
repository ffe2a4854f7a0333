"""An optional multi-select with a default sends ``[]`` when left empty; without one, left out.

Seen on the demo's booking form: ``"dietary": {"type": "array", ..., "default": []}`` untouched
sent ``content: {}``, though an untouched default is sent on accept (and headless answers already
sent ``[]``).
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.schema.parse import parse_requested_schema
from mcp_tui.schema.validate import complete_with_defaults, validate_form

ITEMS = {"type": "string", "enum": ["vegetarian", "vegan", "halal"]}


def form(**dietary: Any) -> Any:
    schema = {
        "type": "object",
        "properties": {
            "dietary": {"type": "array", "items": ITEMS, **dietary},
            "note": {"type": "string"},
        },
    }
    return parse_requested_schema(schema)


@pytest.mark.parametrize(
    ("dietary", "raws", "content"),
    [
        ({"default": []}, {}, {"dietary": []}),  # untouched empty default: sent as []
        ({"default": []}, {"dietary": []}, {"dietary": []}),
        ({"default": ["vegan"]}, {}, {"dietary": ["vegan"]}),
        ({"default": ["vegan"]}, {"dietary": []}, {"dietary": []}),  # the user unticked it
        ({}, {}, {}),  # optional, no default, left empty: omitted
        ({}, {"dietary": []}, {}),
        ({"default": ["vegan"], "minItems": 1}, {"dietary": []}, {}),  # [] would be invalid
        ({"default": []}, {"dietary": ["halal", "vegan"]}, {"dietary": ["vegan", "halal"]}),
    ],
)
def test_empty_multi_select(
    dietary: dict[str, Any], raws: dict[str, Any], content: dict[str, Any]
) -> None:
    result = validate_form(form(**dietary), raws)
    assert result.errors == {}
    assert result.content == content


def test_headless_answers_agree_with_the_form() -> None:
    spec = form(default=[])
    assert (
        complete_with_defaults(spec, {}).content
        == validate_form(spec, {}).content
        == {"dietary": []}
    )
