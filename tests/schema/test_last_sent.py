"""The last arguments sent for a tool: kept per tool, offered while the schema and the values
still fit, dropped with a note otherwise; and the values load back into the form's model."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from mcp_tui.schema.arguments import ObjectNode, answer, build_arguments, state_for
from mcp_tui.schema.arguments.last_sent import Memory, Prefill, fingerprint, recall, remember
from mcp_tui.schema.arguments.state import ObjectState

AT = datetime(2026, 11, 25, 12, 3, 4)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "minimum": 1, "default": 10},
    },
    "required": ["query"],
}

NESTED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "owner": {
            "type": "object",
            "properties": {"id": {"type": "integer"}, "mail": {"type": "string"}},
            "required": ["id"],
        },
        "target": {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"kind": {"const": "file"}, "path": {"type": "string"}},
                    "required": ["kind", "path"],
                },
                {
                    "type": "object",
                    "properties": {"kind": {"const": "url"}, "url": {"type": "string"}},
                    "required": ["kind", "url"],
                },
            ]
        },
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["name"],
}


def test_nothing_remembered_starts_from_the_defaults_without_a_note() -> None:
    assert recall({}, "search", SCHEMA) == Prefill()


def test_the_last_call_is_offered_with_when_it_was_sent() -> None:
    memory: Memory = {}
    remember(memory, "search", SCHEMA, {"query": "first"}, at=AT)
    remember(memory, "search", SCHEMA, {"query": "second", "limit": 3}, at=AT)
    prefill = recall(memory, "search", SCHEMA)
    assert prefill == Prefill({"query": "second", "limit": 3}, "last sent 12:03:04")
    # Per tool: another tool of the same server starts from its defaults.
    assert recall(memory, "fetch", SCHEMA) == Prefill()
    # Offered again and again (the memory is not used up by recalling it).
    assert recall(memory, "search", SCHEMA).arguments == {"query": "second", "limit": 3}


def test_the_remembered_values_are_copies() -> None:
    memory: Memory = {}
    sent: dict[str, Any] = {"query": "x", "tags": ["a"]}
    remember(memory, "search", {"type": "object"}, sent, at=AT)
    sent["tags"].append("changed later")
    offered = recall(memory, "search", {"type": "object"}).arguments
    assert offered == {"query": "x", "tags": ["a"]}
    assert offered is not None
    offered["tags"].append("changed by the form")
    assert recall(memory, "search", {"type": "object"}).arguments == {"query": "x", "tags": ["a"]}


def test_a_changed_schema_drops_them_with_a_note() -> None:
    memory: Memory = {}
    remember(memory, "search", SCHEMA, {"query": "x"}, at=AT)
    changed = {**SCHEMA, "properties": {**SCHEMA["properties"], "page": {"type": "integer"}}}
    prefill = recall(memory, "search", changed)
    assert prefill.arguments is None
    assert prefill.note == (
        "The tool's schema changed since the call at 12:03:04: the form starts from the defaults."
    )
    assert "search" not in memory
    # Dropped for good: the same schema again does not bring them back, nor repeats the note.
    assert recall(memory, "search", SCHEMA) == Prefill()


def test_the_same_schema_with_its_keys_in_another_order_is_the_same_schema() -> None:
    reordered = {"required": ["query"], "properties": dict(reversed(SCHEMA["properties"].items()))}
    reordered["type"] = "object"
    assert fingerprint(reordered) == fingerprint(SCHEMA)
    memory: Memory = {}
    remember(memory, "search", SCHEMA, {"query": "x"}, at=AT)
    assert recall(memory, "search", reordered).arguments == {"query": "x"}


def test_values_that_no_longer_validate_are_dropped_with_the_first_reason() -> None:
    memory: Memory = {}
    remember(memory, "search", SCHEMA, {"query": "", "limit": 0}, at=AT, origin="--call")
    prefill = recall(memory, "search", SCHEMA)
    assert prefill.arguments is None
    assert prefill.note is not None
    assert prefill.note.startswith("The arguments from --call 12:03:04 do not fit the schema (")
    assert prefill.note.endswith("): the form starts from the defaults.")
    assert "search" not in memory


def test_a_schema_that_cannot_be_checked_keeps_the_values() -> None:
    broken = {"type": "object", "properties": {"a": {"type": "no-such-type"}}}
    memory: Memory = {}
    remember(memory, "t", broken, {"a": 1}, at=AT)
    assert recall(memory, "t", broken) == Prefill({"a": 1}, "last sent 12:03:04")


def test_call_flag_fills_an_empty_place_but_never_replaces_a_form_call() -> None:
    memory: Memory = {}
    remember(memory, "search", SCHEMA, {"query": "cli"}, at=AT, origin="--call")
    assert recall(memory, "search", SCHEMA) == Prefill({"query": "cli"}, "from --call 12:03:04")
    remember(memory, "search", SCHEMA, {"query": "form"}, at=AT)
    remember(memory, "search", SCHEMA, {"query": "cli again"}, at=AT, origin="--call")
    assert recall(memory, "search", SCHEMA) == Prefill({"query": "form"}, "last sent 12:03:04")


def test_values_typed_but_never_sent_say_so() -> None:
    """A form sent after its server went away: nothing was sent, so "last sent" would be false;
    the values are kept (the form opens with them) under a label that says they were not sent."""
    memory: Memory = {}
    remember(memory, "search", SCHEMA, {"query": "form"}, at=AT)
    remember(memory, "search", SCHEMA, {"query": "typed"}, at=AT, origin="unsent")
    prefill = recall(memory, "search", SCHEMA)
    assert prefill == Prefill({"query": "typed"}, "typed 12:03:04 (not sent)")
    assert "sent 12" not in (prefill.label or "")
    # A note about them never speaks of a call.
    assert recall(memory, "search", {"type": "object", "required": ["x"]}).note == (
        "The tool's schema changed since the values typed at 12:03:04: the form starts from the "
        "defaults."
    )
    remember(memory, "search", SCHEMA, {"query": "typed"}, at=AT, origin="unsent")
    # --call never replaces them either (the user typed them last).
    remember(memory, "search", SCHEMA, {"query": "cli"}, at=AT, origin="--call")
    assert recall(memory, "search", SCHEMA).arguments == {"query": "typed"}
    # Sent later: "last sent" again.
    remember(memory, "search", SCHEMA, {"query": "sent"}, at=AT)
    assert recall(memory, "search", SCHEMA).label == "last sent 12:03:04"


def test_the_values_load_back_into_the_tree_model_and_give_the_same_answer() -> None:
    """What the form will show from the values answers them again (lists, objects, variants,
    maps): pre-filling loses nothing."""
    sent: dict[str, Any] = {
        "name": "n",
        "tags": ["a", "b"],
        "owner": {"id": 7, "mail": "m@example.com"},
        "target": {"kind": "url", "url": "https://example.com"},
        "labels": {"env": "dev", "team": "core"},
    }
    memory: Memory = {}
    remember(memory, "t", NESTED, sent, at=AT)
    offered = recall(memory, "t", NESTED).arguments
    root = build_arguments(NESTED)
    assert isinstance(root, ObjectNode)
    state = state_for(root, offered)
    assert isinstance(state, ObjectState)
    value, errors = answer(root, state)
    assert errors == {}
    assert value == sent


def test_a_call_without_arguments_offers_nothing_and_says_nothing() -> None:
    """A tool that takes no arguments (or whose optional ones were left empty): the defaults
    are the same, so no "Values last sent" line over "No arguments."."""
    memory: Memory = {}
    remember(memory, "ping", {"type": "object", "properties": {}}, {}, at=AT)
    assert recall(memory, "ping", {"type": "object", "properties": {}}) == Prefill()
    assert recall(memory, "ping", {"type": "object", "properties": {"a": {}}}) == Prefill()


def test_tools_prompts_and_templates_are_remembered_apart() -> None:
    memory: Memory = {}
    schema = {"type": "object", "properties": {"who": {"type": "string"}}}
    remember(memory, "greet", schema, {"who": "tool"}, at=AT)
    remember(memory, "greet", schema, {"who": "prompt"}, at=AT, kind="prompt")
    assert recall(memory, "greet", schema).arguments == {"who": "tool"}
    assert recall(memory, "greet", schema, kind="prompt").arguments == {"who": "prompt"}
    assert recall(memory, "greet", schema, kind="template") == Prefill()
    changed = {"type": "object", "properties": {"whom": {"type": "string"}}}
    assert recall(memory, "greet", changed, kind="prompt").note == (
        "The prompt's arguments changed since the call at 12:03:04: "
        "the form starts from the defaults."
    )
    assert recall(memory, "greet", schema).arguments == {"who": "tool"}  # the tool's stays


def test_the_task_choice_comes_back_with_the_arguments() -> None:
    memory: Memory = {}
    remember(memory, "search", SCHEMA, {"query": "q"}, at=AT, as_task=True)
    assert recall(memory, "search", SCHEMA).as_task
    remember(memory, "search", SCHEMA, {"query": "q"}, at=AT)
    assert not recall(memory, "search", SCHEMA).as_task
