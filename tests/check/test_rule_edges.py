"""The branches of the checks that their one firing and one clean case (``test_rules.py``) do not
reach, each found by the mutation exercise of issue 36: a check that says the wrong reason, or
fires on a server it should leave alone, fails here."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.check.catalog import template_problem
from mcp_tui.check.elicitation import shape_of
from tests.check.test_rules import form, found, listing


@pytest.mark.parametrize(
    ("template", "why"),
    [
        ("users://{id}/posts", None),  # a literal after the last expression
        ("x://{a}/{b}/c", None),
        ("x://a}", "a '}' with no '{' before it"),
        ("x://}{a}", "a '}' with no '{' before it"),
        ("x://{id}}", "a '}' with no '{' before it"),
        ("x://{", "a '{' that is never closed"),
        ("x://{a{b}", "a '{' inside an expression"),
        ("x://{=bad}", "'{=bad}' is not a valid expression"),
        ("x://a b/{id}", "the character ' ' outside an expression"),
    ],
)
def test_a_template_s_problem_is_named(template: str, why: str | None) -> None:
    assert template_problem(template) == why


def test_p103_counts_a_prompt_s_arguments_and_leaves_unique_ones_alone() -> None:
    unique = {"name": "p", "arguments": [{"name": "a"}, {"name": "b"}]}
    assert not found("P103", listing(prompts=[unique]))
    twice = {"name": "p", "arguments": [{"name": "a"}, {"name": "a"}, {"name": "b"}]}
    [hit] = found("P103", listing(prompts=[twice]))
    assert "argument 'a' appears 2 times" in hit.message


TITLED = {"type": "string", "oneOf": [{"const": "a", "title": "A"}]}


@pytest.mark.parametrize(
    ("prop", "era", "shape"),
    [
        ({"type": "string", "enum": ["a"]}, "2025-06-18", "enum"),
        ({"type": "string", "enum": [1, 2]}, "2025-11-25", None),  # a string enum of numbers
        ({"type": "string", "enum": []}, "2025-11-25", None),  # no choice to make
        (TITLED, "2025-11-25", "titled"),  # the era that brought it
        (TITLED, "2025-06-18", None),
        ({"type": "string", "oneOf": [{"const": "a", "title": "A", "x": 1}]}, "2025-11-25", None),
        ({"type": "string", "oneOf": [{"const": 1, "title": "A"}]}, "2025-11-25", None),
        ({"type": "integer", "oneOf": [{"const": 1, "title": "one"}]}, "2025-11-25", None),
        ({"type": "integer", "enum": [1]}, "2025-11-25", None),
        ({"type": "number", "minimum": 0}, "2025-06-18", "number"),
        ({"type": "array", "items": {"type": "string", "enum": ["a"]}}, "2025-11-25", "multi"),
        # items that say more than a string enum are none of the shapes
        (
            {"type": "array", "items": {"type": "string", "enum": ["a"], "pattern": "a"}},
            "2025-11-25",
            None,
        ),
        (
            {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}},
            "2025-11-25",
            "multi",
        ),
        ({"type": "array", "items": {"type": "string"}}, "2025-11-25", None),
    ],
)
def test_each_spec_shape_is_told_from_what_only_looks_like_one(
    prop: dict[str, Any], era: str, shape: str | None
) -> None:
    assert shape_of(prop, era) == shape


def test_schema_at_the_root_is_in_the_subset_from_2025_11_25_on() -> None:
    sent = [
        form(
            {"a": {"type": "string"}}, **{"$schema": "https://json-schema.org/draft/2020-12/schema"}
        )
    ]
    assert not found("E101", listing("2025-11-25", elicitations=sent))
    [hit] = found("E101", listing("2025-06-18", elicitations=sent))
    assert hit.pointer == "/requestedSchema/$schema"


def test_e101_leaves_the_root_s_harmless_keys_alone_and_says_why_defs_matter() -> None:
    harmless = form(
        {"a": {"type": "string"}}, title="T", description="D", additionalProperties=False
    )
    assert not found("E101", listing(elicitations=[harmless]))
    for key in ("$defs", "definitions"):
        [hit] = found("E101", listing(elicitations=[form({"a": {"type": "string"}}, **{key: {}})]))
        assert "so references under it cannot be resolved" in hit.message
        assert hit.fix == f"remove '{key}' and inline what the properties refer to"


def test_e101_says_whether_mcp_tui_applies_the_keyword() -> None:
    [applied] = found(
        "E101", listing(elicitations=[form({"n": {"type": "string", "pattern": "^a"}})])
    )
    assert applied.message.endswith("; mcp-tui applies it")
    refused = form({"n": {"type": "string", "pattern": "^a"}, "x": {"type": "object"}})
    [hit] = found("E101", listing(elicitations=[refused]))
    assert "mcp-tui applies it" not in hit.message


def test_a_form_from_no_named_call_is_where_elicitation() -> None:
    sent = {k: v for k, v in form({"n": {"type": "string", "pattern": "^a"}}).items()}
    del sent["_mcp_tui_call"]
    [hit] = found("E101", listing(elicitations=[sent]))
    assert hit.where == "elicitation"
    [named] = found(
        "E101", listing(elicitations=[form({"n": {"type": "string", "pattern": "^a"}})])
    )
    assert named.where == "elicitation in book"


def test_a_number_field_mcp_tui_refuses_too_is_an_error_not_a_warning() -> None:
    """Strict clients take an integer enum as a plain number (a warning), but one mcp-tui cannot
    draw either (a choice that is not a number) is broken everywhere it matters."""
    sent = form({"p": {"type": "integer", "enum": [1, "a"]}})
    [hit] = found("E102", listing(elicitations=[sent]))
    assert hit.severity == "error" and "mcp-tui refuses it too" in hit.message


@pytest.mark.parametrize(
    ("prop", "era", "said", "fix"),
    [
        (
            {"type": "string", "oneOf": [{"const": 1, "title": "A"}]},
            "2025-11-25",
            "type 'string'",
            "use one of the spec's field shapes",
        ),
        (
            {"type": "number", "enum": [1.5, 2.5]},
            "2025-11-25",
            "number enum",
            "use string choices (a titled oneOf of const/title when the values are numbers)",
        ),
        (
            {"type": "array", "items": {"type": "string"}},
            "2025-11-25",
            "a list of free values",
            "use a multi-select (items with a string enum)",
        ),
        (
            {"type": "array", "items": {"type": "string", "enum": ["a"], "pattern": "a"}},
            "2025-11-25",
            "a list",
            "use a multi-select (items with a string enum)",
        ),
        (
            {"type": "array", "items": {"type": "string", "enum": ["a"]}},
            "2025-06-18",
            "a list",
            "ask for the values one at a time, or upgrade to 2025-11-25 multi-select",
        ),
    ],
)
def test_e102_describes_the_field_and_fits_the_fix_to_it(
    prop: dict[str, Any], era: str, said: str, fix: str
) -> None:
    [hit] = found("E102", listing(era, elicitations=[form({"f": prop})]))
    assert f"field 'f' ({said}) is none of the {era} shapes" in hit.message
    assert hit.fix == fix
