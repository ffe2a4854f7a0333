"""-32042 (URL elicitation required): its ``data.elicitations`` become URL-mode requests."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.config.servers import ProtocolMode, ServerSpec
from mcp_tui.session.elicitation_bridge import CallRef, url_requests_from_error
from tests.session.session_testkit import ScriptedHandler, connected, http_fixture


def test_valid_data_becomes_url_requests() -> None:
    data = {
        "elicitations": [
            {
                "mode": "url",
                "message": "Sign in",
                "url": "https://a.example/x",
                "elicitationId": "1",
            },
            {"mode": "url", "message": "Pay", "url": "https://b.example/", "elicitationId": "2"},
        ]
    }
    requests = url_requests_from_error(
        "srv", data, call=CallRef("tool", 3), protocol_version="2025-11-25"
    )
    assert [(r.mode, r.url, r.message, r.elicitation_id) for r in requests] == [
        ("url", "https://a.example/x", "Sign in", "1"),
        ("url", "https://b.example/", "Pay", "2"),
    ]
    assert all((r.server, r.tool, r.call_id) == ("srv", "tool", 3) for r in requests)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (None, "dictionary"),
        ("elicitations", "dictionary"),
        ({}, "elicitations"),
        ({"elicitations": []}, "no elicitations"),
        ({"elicitations": [{"mode": "url", "message": "m"}]}, "url"),
        (
            {"elicitations": [{"mode": "form", "message": "m", "requestedSchema": {}}]},
            "elicitations",
        ),
        ({"elicitations": "https://x.example"}, "elicitations"),
    ],
)
def test_invalid_data_is_a_readable_error(data: Any, why: str) -> None:
    with pytest.raises(ValueError) as info:
        url_requests_from_error("srv", data, call=None, protocol_version=None)
    assert why in str(info.value)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_tool_call_failing_with_32042(mode: ProtocolMode) -> None:
    handler = ScriptedHandler()
    async with (
        http_fixture() as target,
        connected(
            ServerSpec("fx", target, mode=mode),
            handler,
        ) as conn,
    ):
        outcome = await conn.call_tool("needs_auth", call_id=11)
    assert outcome.error_code == -32042
    assert outcome.error is not None and outcome.error.startswith(
        "-32042 (URL elicitation required)"
    )
    assert [(r.url, r.elicitation_id, r.message) for r in outcome.url_elicitations] == [
        ("https://example.com/auth", "auth-001", "Sign in"),
        ("https://example.com/pay", "pay-002", "Pay"),
    ]
    assert all(r.tool == "needs_auth" and r.call_id == 11 for r in outcome.url_elicitations)
    assert handler.seen == []  # nothing is shown until the UI decides to
