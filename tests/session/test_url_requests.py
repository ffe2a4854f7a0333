"""URL-mode requests and their completions, against what each protocol version allows.

- 2025-06-18 has no URL mode. The SDK checks every ``elicitation/create`` against the 2025-11-25
  shapes, so a URL request on a session negotiated as 2025-06-18 reached the client and was shown
  as a consent screen; it is answered -32602, like any mode the client did not declare.
- ``notifications/elicitation/complete`` for an id no request carried is ignored (the spec).
  Handed on, an early one was remembered, and a later URL request with that id started out
  "completed" while its real completion was ignored.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.events import ElicitationCompleted, ElicitationRefused, LogReceived
from tests.session.session_testkit import RAW_SERVER, Recorder, ScriptedHandler, connected

pytestmark = pytest.mark.anyio

URL_ASK = {
    "mode": "url",
    "message": "Connect your account",
    "url": "https://example.com/connect",
    "elicitationId": "u1",
}
COMPLETE_U1 = {
    "jsonrpc": "2.0",
    "method": "notifications/elicitation/complete",
    "params": {"elicitationId": "u1"},
}


def raw_spec(tmp_path: Path, script: dict[str, Any]) -> ServerSpec:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return ServerSpec("raw", StdioTarget(sys.executable, (str(RAW_SERVER), "--script", str(path))))


def asking(version: str, **extra: Any) -> dict[str, Any]:
    """``go`` asks ``URL_ASK`` and answers with the client's JSON response to it."""
    return {
        "protocol_version": version,
        "tools": [{"name": "go", "inputSchema": {"type": "object"}}],
        "on_call": {"go": [{"elicit": URL_ASK, "id": "q1"}, {"await": "q1"}]},
        "results": {"go": {"result_from": "q1"}},
        **extra,
    }


async def test_url_mode_on_a_2025_06_18_session_is_answered_invalid_params(
    tmp_path: Path,
) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept"))
    rec = Recorder()
    async with connected(raw_spec(tmp_path, asking("2025-06-18")), handler, rec) as conn:
        assert conn.info is not None and conn.info.protocol_version == "2025-06-18"
        outcome = await conn.call_tool("go", {})
    answer = json.loads(outcome.items[0].text)
    assert answer["error"]["code"] == -32602
    assert handler.seen == []  # no consent screen
    [refused] = rec.of(ElicitationRefused)
    assert refused.mode == "url" and "2025-06-18" in refused.problems[0]


async def test_url_mode_on_a_2025_11_25_session_is_asked(tmp_path: Path) -> None:
    handler = ScriptedHandler(ElicitationOutcome("accept"))
    async with connected(raw_spec(tmp_path, asking("2025-11-25")), handler) as conn:
        outcome = await conn.call_tool("go", {})
    assert json.loads(outcome.items[0].text)["result"] == {"action": "accept"}
    assert [r.elicitation_id for r in handler.seen] == ["u1"]


async def test_a_completion_for_an_id_never_asked_for_is_ignored(tmp_path: Path) -> None:
    script = asking(
        "2025-11-25",
        on_initialized=[{"send": COMPLETE_U1}],  # before any request carried u1
    )
    script["on_call"]["go"].append({"send": COMPLETE_U1})  # the real one, after the answer
    handler = ScriptedHandler(ElicitationOutcome("accept"))
    rec = Recorder()
    async with connected(raw_spec(tmp_path, script), handler, rec) as conn:
        await conn.call_tool("go", {})
        await rec.wait_for(ElicitationCompleted)  # the real completion
        ignored = [
            e
            for e in rec.of(LogReceived)
            if "ignored notifications/elicitation/complete" in str(e.data)
        ]
        assert len(ignored) == 1 and "'u1'" in str(ignored[0].data)
    assert rec.of(ElicitationCompleted) == [ElicitationCompleted("raw", "u1")]
