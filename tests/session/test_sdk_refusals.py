"""Requests the SDK refuses before mcp-tui's callback runs are still reported to the user."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.shared.message import SessionMessage
from mcp_types import ErrorData, JSONRPCError, JSONRPCRequest

from mcp_tui.session.events import ElicitationRefused, SessionEvent
from mcp_tui.session.recording import ConnectionTap
from mcp_tui.session.sdk_refusals import sdk_refusal

FORM = {"type": "object", "properties": {"a": {"type": "string"}}}


@pytest.mark.parametrize(
    ("params", "version", "expected"),
    [
        (
            {"message": "m", "requestedSchema": {"type": "array", "items": {}}},
            None,
            'root must be "type": "object" (it is \'array\')',
        ),
        ({"message": "m", "requestedSchema": {"type": "object"}}, None, "no properties object"),
        ({"message": "m", "requestedSchema": "object"}, None, "requestedSchema is missing"),
        ({"message": "m"}, "2025-06-18", "requestedSchema is missing"),
        (
            {"message": "m", "mode": "url", "url": "https://example.com"},
            "2025-11-25",
            "must carry an elicitationId",
        ),
        ({"message": 5, "requestedSchema": FORM}, None, "message: Input should be a valid string"),
        (None, None, "no params object"),
        ({"message": "m", "requestedSchema": FORM}, "2026-07-28", "-32601 Method not found"),
    ],
)
def test_what_the_sdk_refuses_is_described(params: Any, version: str | None, expected: str) -> None:
    problems = sdk_refusal(params, version)
    assert problems is not None
    assert any(expected in p for p in problems), problems
    # Only the branch the request meant: no URL-mode noise for a form, and a short list.
    if isinstance(params, dict) and params.get("mode") != "url":
        assert not any("elicitationId" in p for p in problems), problems
    assert len(problems) <= 5


@pytest.mark.parametrize(
    "params",
    [
        {"message": "m", "requestedSchema": FORM},
        # Nested objects pass the SDK: the schema engine refuses those itself, with -32602.
        {"message": "m", "requestedSchema": {"type": "object", "properties": {"o": {}}}},
        {"message": "m", "mode": "url", "url": "https://x.example", "elicitationId": "e1"},
    ],
)
def test_what_the_sdk_accepts_is_left_to_the_callback(params: dict[str, Any]) -> None:
    assert sdk_refusal(params, "2025-11-25") is None
    assert sdk_refusal(params, None) is None


def _request(method: str, params: dict[str, Any], id: int = 7) -> SessionMessage:
    return SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=id, method=method, params=params))


def _error(id: int, code: int = -32602) -> SessionMessage:
    return SessionMessage(
        JSONRPCError(jsonrpc="2.0", id=id, error=ErrorData(code=code, message="Invalid params"))
    )


def test_the_tap_reports_a_request_the_sdk_refused() -> None:
    """Checked when the SDK's error answer goes out (not on arrival: it costs a validation)."""
    events: list[SessionEvent] = []
    tap = ConnectionTap("srv", events.append, None, on_ended=lambda: None)
    bad = {"message": "pick \x1b]0;x\x07", "requestedSchema": {"type": "string"}}
    tap.incoming(_request("elicitation/create", bad, id=1))
    tap.incoming(_request("elicitation/create", {"message": "ok", "requestedSchema": FORM}, id=2))
    tap.incoming(_request("sampling/createMessage", {"messages": []}, id=3))
    assert not [e for e in events if isinstance(e, ElicitationRefused)]  # nothing refused yet
    tap.outgoing(_error(2))  # mcp-tui's own -32602 (a schema its engine refuses): not the SDK's
    tap.outgoing(_error(3, -32601))  # not an elicitation
    tap.outgoing(_error(1))  # the SDK refused the bad one
    refused = [e for e in events if isinstance(e, ElicitationRefused)]
    assert len(refused) == 1
    assert refused[0].server == "srv" and refused[0].message == bad["message"]
    assert any('"type": "object"' in p for p in refused[0].problems)
