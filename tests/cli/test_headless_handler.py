"""The scripted elicitation handler on its own: no server, just requests and answers."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mcp_tui.answers import load_answers
from mcp_tui.headless_elicit import ScriptedHandler
from mcp_tui.schema.parse import parse_requested_schema
from mcp_tui.session.elicitation import ElicitationRequest

SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "integer", "default": 3}, "s": {"type": "string"}},
    "required": ["n"],
}


def form_request(message: str) -> ElicitationRequest:
    return ElicitationRequest(
        server="s", message=message, mode="form", form=parse_requested_schema(SCHEMA)
    )


@pytest.mark.anyio
async def test_recorded_message_mismatch_is_noted_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('[{"action": "accept", "content": {"s": "x"}, "message": "Old text"}]')
    err = io.StringIO()
    handler = ScriptedHandler(err, "t", answers=load_answers(path))
    outcome = await handler.elicit(form_request("New\x1b[31m text"))
    assert (outcome.action, outcome.content) == ("accept", {"n": 3, "s": "x"})
    text = err.getvalue()
    assert 'was recorded for a different message: "Old text"' in text
    assert "\x1b" not in text and "New\\e[31m text" in text


@pytest.mark.anyio
async def test_failure_stops_every_later_request() -> None:
    stopped: list[bool] = []
    handler = ScriptedHandler(
        io.StringIO(), "t", policy="accept-defaults", on_failure=lambda: stopped.append(True)
    )
    bad = ElicitationRequest(
        server="s",
        message="m",
        mode="form",
        form=parse_requested_schema(
            {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
        ),
    )
    assert (await handler.elicit(bad)).action == "cancel"
    assert handler.failure is not None and "field 'x'" in handler.failure and stopped == [True]
    assert (await handler.elicit(form_request("later"))).action == "cancel"
    assert stopped == [True], "on_failure is called once"
    assert [g[1] for g in handler.given] == ["cancel", "cancel"]
