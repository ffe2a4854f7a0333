"""An answer that could not be delivered because the connection died is kept and shown.

The SDK drops a response it cannot write with only a debug log; mcp-tui reports an accepted
answer that was lost as an error ``Notice`` holding its JSON, so the user can copy it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import ConnectionState, Notice
from mcp_tui.session.recording import ConnectionTap
from mcp_tui.session.tap import TapWriteStream
from tests.session.session_testkit import RAW_SERVER, Recorder, ScriptedHandler

pytestmark = pytest.mark.anyio

FORM = {"message": "Your note?", "requestedSchema": {"type": "object", "properties": {}}}
ANSWER: dict[str, str | int | float | bool | list[str]] = {"note": "keep me ✓", "n": 3}


def raw_spec(tmp_path: Path, script: dict[str, Any]) -> ServerSpec:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    args = (str(RAW_SERVER), "--script", str(path), "--record", str(tmp_path / "got.jsonl"))
    return ServerSpec("raw", StdioTarget(sys.executable, args))


def lost_answers(rec: Recorder) -> list[Notice]:
    return [n for n in rec.of(Notice) if "NOT delivered" in n.text]


async def run_until_failed(
    tmp_path: Path, script: dict[str, Any], handler: ScriptedHandler, rec: Recorder
) -> ServerConnection:
    conn = ServerConnection(raw_spec(tmp_path, script), handler=handler, sink=rec)
    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:
            tg.start_soon(conn.run)
            while conn.state is not ConnectionState.FAILED:
                await anyio.sleep(0.02)
            await conn.close()
    return conn


async def test_an_answer_given_after_the_server_exited_is_shown_with_its_json(
    tmp_path: Path,
) -> None:
    """The server exits right after asking; the user answers afterwards (their form was open)."""
    exited = anyio.Event()

    async def answer_late(request: ElicitationRequest) -> ElicitationOutcome:
        # The user is still typing when the server dies: the answer comes after the exit.
        with anyio.CancelScope(shield=True):
            await exited.wait()
            await anyio.sleep(0.1)  # the process is gone and its stdin pipe closed
        return ElicitationOutcome("accept", ANSWER)

    handler = ScriptedHandler(answer_late)
    rec = Recorder()
    script = {"on_initialized": [{"elicit": FORM, "id": "q1"}, {"exit": 0}]}
    conn = ServerConnection(raw_spec(tmp_path, script), handler=handler, sink=rec)
    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:
            tg.start_soon(conn.run)
            await handler.arrived.wait()
            while not conn.link.stream_closed:
                await anyio.sleep(0.02)
            exited.set()
            notice = (await rec.wait_for(Notice, lambda n: "NOT delivered" in n.text)).text
            # The connection fails once its run sees the exit; closing it before then (a busy
            # machine can take that long) would end it as closed by the user instead.
            while conn.state is not ConnectionState.FAILED:
                await anyio.sleep(0.02)
            await conn.close()
    assert json.dumps(ANSWER, ensure_ascii=False, sort_keys=True) in notice
    assert '"Your note?"' in notice and "'q1'" in notice
    assert len(lost_answers(rec)) == 1
    assert conn.state is ConnectionState.FAILED


async def test_a_server_that_stops_reading_loses_the_answer_visibly(tmp_path: Path) -> None:
    """stdin closed, stdout open: the write fails with a broken pipe and the answer is shown."""
    handler = ScriptedHandler(ElicitationOutcome("accept", ANSWER))
    rec = Recorder()
    script = {
        "on_initialized": [{"close_stdin": True}, {"elicit": FORM, "id": "q2"}, {"sleep": 30}]
    }
    conn = await run_until_failed(tmp_path, script, handler, rec)
    [notice] = lost_answers(rec)
    assert notice.severity == "error"
    assert json.dumps(ANSWER, ensure_ascii=False, sort_keys=True) in notice.text
    assert "writing to the server failed" in notice.text
    assert conn.detail is not None and "Writing to the server failed" in conn.detail


async def test_declines_and_cancels_are_not_reported(tmp_path: Path) -> None:
    handler = ScriptedHandler(ElicitationOutcome("decline"))
    rec = Recorder()
    script = {
        "on_initialized": [{"close_stdin": True}, {"elicit": FORM, "id": "q3"}, {"sleep": 30}]
    }
    conn = await run_until_failed(tmp_path, script, handler, rec)
    assert handler.seen and lost_answers(rec) == []
    assert conn.detail is not None and "Writing to the server failed" in conn.detail


# ---- the tap's write stream, without a server --------------------------------------------------


def _tap() -> tuple[ConnectionTap, Recorder]:
    rec = Recorder()
    return ConnectionTap("srv", rec, None, on_ended=lambda: None), rec


def _ask(tap: ConnectionTap, request_id: int) -> None:
    request = JSONRPCRequest(jsonrpc="2.0", id=request_id, method="elicitation/create", params=FORM)
    tap.incoming(SessionMessage(request))


def _accept(request_id: int) -> SessionMessage:
    result = {"action": "accept", "content": ANSWER}
    return SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result))


async def test_a_send_on_a_closed_transport_reports_the_answer() -> None:
    tap, rec = _tap()
    _ask(tap, 1)
    send, receive = anyio.create_memory_object_stream[SessionMessage](0)
    receive.close()
    stream = TapWriteStream(send, tap)
    with pytest.raises(anyio.BrokenResourceError):
        await stream.send(_accept(1))
    [notice] = lost_answers(rec)
    assert "the connection was already closed" in notice.text and "keep me ✓" in notice.text
    # Other messages are recorded as undelivered but are not an answer to show.
    ping = JSONRPCNotification(jsonrpc="2.0", method="notifications/progress", params={})
    with pytest.raises(anyio.BrokenResourceError):
        await stream.send(SessionMessage(ping))
    assert len(lost_answers(rec)) == 1
    assert tap.write_failure is None  # a closed transport is not a write failure of its own


async def test_an_answer_sent_while_the_connection_is_cancelled_still_goes_out() -> None:
    """Teardown cancels the SDK's task just as it writes: the answer is written, not dropped."""
    tap, rec = _tap()
    _ask(tap, 2)
    send, receive = anyio.create_memory_object_stream[SessionMessage](1)
    stream = TapWriteStream(send, tap)
    with anyio.CancelScope() as scope:
        scope.cancel()
        await stream.send(_accept(2))
    assert receive.receive_nowait().message.id == 2  # type: ignore[union-attr]
    assert lost_answers(rec) == []


async def test_a_2026_retry_carrying_answers_is_reported_when_lost() -> None:
    tap, rec = _tap()
    params = {"name": "book", "inputResponses": {"form": {"action": "accept", "content": ANSWER}}}
    retry = JSONRPCRequest(jsonrpc="2.0", id=9, method="tools/call", params=params)
    send, receive = anyio.create_memory_object_stream[SessionMessage](0)
    receive.close()
    with pytest.raises(anyio.BrokenResourceError):
        await TapWriteStream(send, tap).send(SessionMessage(retry))
    [notice] = lost_answers(rec)
    assert "tools/call" in notice.text and '"form": {"n": 3' in notice.text
