"""The server's requests over Streamable HTTP: one that can no longer be answered is withdrawn,
and one already answered is never asked again.

- A server process that exits while its ``elicitation/create`` waits on a tool call's SSE stream:
  the SDK ends the call ("SSE stream ended without a response") but, HTTP having no session end to
  notice, kept the request open, so the form stayed and could be "sent". Over stdio the end of the
  stream withdraws it at once; over HTTP the abandoned stream now does the same.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest
from session_testkit import FIXTURES, Recorder, ScriptedHandler, connected

from mcp_tui.session.events import CatalogChanged, TrafficRecorded
from mcp_tui.session.servers import HttpTarget, ServerSpec

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
