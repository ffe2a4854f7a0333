"""The branches of the checks that their one firing and one clean case (``test_rules.py``) do not
reach, each found by the mutation exercise of issue 36: a check that says the wrong reason, or
fires on a server it should leave alone, fails here."""

from __future__ import annotations

import pytest

from mcp_tui.check.catalog import template_problem
from tests.check.test_rules import found, listing


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
