"""The server's requests over Streamable HTTP: one that can no longer be answered is withdrawn,
and one already answered is never asked again.

- A server process that exits while its ``elicitation/create`` waits on a tool call's SSE stream:
  the SDK ends the call ("SSE stream ended without a response") but, HTTP having no session end to
  notice, kept the request open, so the form stayed and could be "sent". Over stdio the end of the
  stream withdraws it at once; over HTTP the abandoned stream now does the same.
- A server that replays an answered request on a resumed stream (``Last-Event-ID``): the SDK
  handed the replay to the callback like a new request, so a second form opened and a second
  answer went out for one id. An id answered on the connection is never asked again.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, ClassVar

import anyio
import pytest

from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.events import CatalogChanged, Notice, TrafficRecorded
from tests.session.session_testkit import FIXTURES, Recorder, ScriptedHandler, connected, serve_http

pytestmark = pytest.mark.anyio

EXIT_SERVER = FIXTURES / "http_exit_server.py"


@asynccontextmanager
async def exiting_server() -> AsyncIterator[tuple[HttpTarget, subprocess.Popen[str]]]:
    """``http_exit_server.py`` in its own process on 127.0.0.1; killed on the way out."""
    process = subprocess.Popen(
        [sys.executable, str(EXIT_SERVER)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        with anyio.fail_after(30):
            line = await anyio.to_thread.run_sync(process.stdout.readline)
        port = int(line.split()[1])
        yield HttpTarget(f"http://127.0.0.1:{port}/mcp"), process
    finally:
        process.kill()
        process.wait()


def answers_sent(rec: Recorder) -> list[dict[str, Any]]:
    """The responses mcp-tui sent to the server's requests."""
    return [
        e.message
        for e in rec.of(TrafficRecorded)
        if e.direction == "out" and "method" not in e.message and "id" in e.message
    ]


async def test_a_form_whose_http_server_exits_is_withdrawn_at_once() -> None:
    handler = ScriptedHandler()  # keeps the form open until it is withdrawn
    rec = Recorder()
    async with (
        exiting_server() as (target, process),
        connected(ServerSpec("web", target, mode="legacy"), handler, rec) as conn,
    ):
        await rec.wait_for(CatalogChanged)  # nothing else in flight: only the call's stream
        outcomes: list[Any] = []

        async def ask() -> None:
            outcomes.append(await conn.call_tool("ask", {}))

        async with anyio.create_task_group() as tg:
            tg.start_soon(ask)
            with anyio.fail_after(20):
                await handler.arrived.wait()
            process.kill()  # the server crashes with the form open
            with anyio.fail_after(10):  # stdio withdraws at once; HTTP must not wait for more
                while not (handler.cancelled and outcomes):
                    await anyio.sleep(0.01)
        assert handler.open == 0
        assert outcomes[0].error_code == -32000
        assert answers_sent(rec) == []  # nothing "sent" for the withdrawn form


class ReplayingServer:
    """A Streamable HTTP server (ASGI, by hand) that replays an answered request on resume.

    ``tools/call`` answers on an SSE stream: event ``e1`` is ``elicitation/create`` id 7; once the
    answer to 7 has arrived the stream ends without the call's result. The SDK resumes it with
    ``Last-Event-ID: e1``, and the resumed stream replays ``e1`` (the answered request, again)
    before event ``e2``, the call's result.
    """

    ASK: ClassVar[dict[str, Any]] = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": "Tell me something",
            "requestedSchema": {"type": "object", "properties": {"note": {"type": "string"}}},
        },
    }

    def __init__(self) -> None:
        self.answers: list[dict[str, Any]] = []
        self.answered = anyio.Event()
        self.resumed_from: list[str] = []
        self.call_id: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        if scope["method"] == "GET":
            last = headers.get("last-event-id")
            if last is None:
                await self._reply(send, 405, b"")
                return
            self.resumed_from.append(last)
            result = {"content": [{"type": "text", "text": "done"}]}
            done = {"jsonrpc": "2.0", "id": self.call_id, "result": result}
            await self._stream(send, [("e1", self.ASK), ("e2", done)], end=True)
            return
        if scope["method"] == "DELETE":
            await self._reply(send, 200, b"")
            return
        body = b""
        while True:
            part = await receive()
            body += part.get("body", b"")
            if not part.get("more_body"):
                break
        message = json.loads(body)
        if "method" not in message:  # an answer to the server's request
            self.answers.append(message)
            self.answered.set()
            await self._reply(send, 202, b"")
        elif "id" not in message:  # a notification
            await self._reply(send, 202, b"")
        elif message["method"] == "tools/call":
            self.call_id = message["id"]
            await self._stream(send, [("e1", self.ASK)], end=False)
            await self.answered.wait()
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        else:
            await self._reply(send, 200, json.dumps(self._answer(message)).encode())

    @staticmethod
    def _answer(message: dict[str, Any]) -> dict[str, Any]:
        if message["method"] == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "replayer", "version": "1"},
            }
        elif message["method"] == "tools/list":
            result = {"tools": [{"name": "ask", "inputSchema": {"type": "object"}}]}
        else:
            error = {"code": -32601, "message": "not here"}
            return {"jsonrpc": "2.0", "id": message["id"], "error": error}
        return {"jsonrpc": "2.0", "id": message["id"], "result": result}

    @staticmethod
    async def _reply(send: Any, status: int, body: bytes) -> None:
        headers = [(b"content-type", b"application/json"), (b"mcp-session-id", b"s1")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def _stream(send: Any, events: list[tuple[str, Any]], *, end: bool) -> None:
        headers = [(b"content-type", b"text/event-stream"), (b"mcp-session-id", b"s1")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for event_id, message in events:
            chunk = f"id: {event_id}\nretry: 10\nevent: message\ndata: {json.dumps(message)}\n\n"
            await send({"type": "http.response.body", "body": chunk.encode(), "more_body": True})
        if end:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


async def test_a_request_replayed_after_a_resume_is_not_asked_again() -> None:
    server = ReplayingServer()
    handler = ScriptedHandler(ElicitationOutcome("accept", {"note": "once"}))
    rec = Recorder()
    async with serve_http(server) as port:
        target = HttpTarget(f"http://127.0.0.1:{port}/mcp")
        async with connected(ServerSpec("replay", target, mode="legacy"), handler, rec) as conn:
            outcome = await conn.call_tool("ask", {})
            assert outcome.items[0].text == "done"
            assert server.resumed_from == ["e1"]  # the stream was resumed and replayed id 7
            # The replay was handled: dropped with a word to the user, or (the fault) asked again.
            with anyio.fail_after(10):
                while not (_replay_notices(rec) or len(handler.seen) > 1):
                    await anyio.sleep(0.01)
            assert len(handler.seen) == 1  # one form for id 7
            assert [a["id"] for a in server.answers] == [7]  # one answer for id 7
            assert [a["id"] for a in answers_sent(rec)] == [7]
            assert "7" in _replay_notices(rec)[0]


def _replay_notices(rec: Recorder) -> list[str]:
    return [n.text for n in rec.of(Notice) if "again after it was answered" in n.text]
