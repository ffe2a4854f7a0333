"""``check --fuzz``'s values: every valid set fits the schema, every invalid one does not, and a
call's outcome is judged the way the report says."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mcp_tui.check.fuzz_values import fuzzable, invalid_arguments, valid_arguments
from mcp_tui.headless.fuzz import FuzzPlan, chosen_tools, judge
from mcp_tui.session.events import CallOutcome

SCHEMAS: list[dict[str, Any]] = [
    {
        "type": "object",
        "properties": {
            "word": {"type": "string", "minLength": 2, "maxLength": 5},
            "size": {"type": "integer", "minimum": 1, "maximum": 9},
            "color": {"$ref": "#/$defs/Color"},
            "when": {
                "type": "object",
                "properties": {"day": {"type": "integer", "minimum": 1}},
                "required": ["day"],
            },
        },
        "required": ["word", "size"],
        "additionalProperties": False,
        "$defs": {"Color": {"type": "string", "enum": ["red", "green"]}},
    },
    {
        "type": "object",
        "properties": {"flag": {"type": "boolean"}, "n": {"type": "number"}},
        "required": ["flag"],
    },
]

QUICK = settings(
    max_examples=40, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)


@pytest.mark.parametrize("schema", SCHEMAS, ids=["rich", "plain"])
def test_valid_sets_fit_and_invalid_sets_do_not(schema: dict[str, Any]) -> None:
    validator = Draft202012Validator(schema)

    @QUICK
    @given(valid_arguments(schema), invalid_arguments(schema))
    def check(valid: dict[str, Any], invalid: tuple[str, dict[str, Any]]) -> None:
        assert validator.is_valid(valid), valid
        assert not validator.is_valid(invalid[1]), invalid

    check()


def test_invalid_sets_cover_each_kind_of_break() -> None:
    seen: set[str] = set()

    @QUICK
    @given(st.data())
    def collect(data: st.DataObject) -> None:
        seen.add(data.draw(invalid_arguments(SCHEMAS[0]))[0].split("'")[-1])

    collect()
    assert {
        " left out",
        " of the wrong type",
        " past its minimum",
        " not one of its choices",
    } & seen


def test_only_read_only_or_named_tools_are_chosen() -> None:
    listed = [
        {"name": "read", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
        {
            "name": "delete",
            "inputSchema": {"type": "object"},
            "annotations": {"destructiveHint": True},
        },
        {"name": "plain", "inputSchema": {"type": "object"}},
    ]
    tools, _ = chosen_tools(listed, FuzzPlan(5))
    assert [t["name"] for t in tools] == ["read"]
    tools, notes = chosen_tools(listed, FuzzPlan(5, tools=("plain", "gone")))
    assert [t["name"] for t in tools] == ["plain"] and "gone" in notes[0]
    _, notes = chosen_tools(listed[1:], FuzzPlan(5))
    assert "nothing was fuzzed" in notes[0]


def test_schemas_that_cannot_be_fuzzed_say_why() -> None:
    assert fuzzable({"type": "object"}) is None
    assert "not an object" in (fuzzable({"type": "string"}) or "")
    assert "another document" in (
        fuzzable({"type": "object", "properties": {"a": {"$ref": "https://x/y"}}}) or ""
    )


def test_judging_outcomes() -> None:
    ok, tool_error = CallOutcome(), CallOutcome(is_error=True)
    protocol = CallOutcome(error="-32603 boom", error_code=-32603)
    url = CallOutcome(error="-32042 url", error_code=-32042)
    assert judge(ok, valid=True) is None and judge(tool_error, valid=True) is None
    assert judge(url, valid=True) is None
    assert judge(protocol, valid=True) == ("protocol-error", "-32603 boom")
    assert judge(ok, valid=False) == ("accepted-invalid", "the call succeeded")
    assert judge(tool_error, valid=False) is None and judge(protocol, valid=False) is None
    assert judge(("crash", "gone"), valid=True) == ("crash", "gone")


async def _sampled(policy: str) -> str:
    import io

    from mcp_tui.headless.check import CallAnswers
    from mcp_tui.headless.elicit import ScriptedHandler
    from mcp_tui.session.sampling import SamplingRequest

    answers = CallAnswers()
    answers.current = ScriptedHandler(io.StringIO(), "t", sampling_policy=policy)  # type: ignore[arg-type]
    outcome = await answers.sample(SamplingRequest("s", messages=(), max_tokens=10))
    return str(outcome.action)


def test_check_call_answers_sampling_as_mcp_tui_call_does() -> None:
    """``check --call`` hands sampling requests to the call's own script (``--sampling``,
    the answers file), not a fixed refusal."""
    import anyio

    assert anyio.run(_sampled, "cancel") == "cancel"
    assert anyio.run(_sampled, "decline") == "decline"
