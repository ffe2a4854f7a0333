"""The bounded stdio transport: linear line splitting, and a cap on message size."""

from __future__ import annotations

import anyio
import pytest
from session_testkit import RAW_SERVER, Recorder, ScriptedHandler, stdio_spec

from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.events import ConnectionState, ServerStateChanged
from mcp_tui.session.stdio_transport import MessageTooLarge, split_lines


def test_split_lines_scans_once_and_keeps_the_rest() -> None:
    buffer = bytearray(b'{"a":1}\n{"b"')
    lines, scan = split_lines(buffer, 0)
    assert lines == [b'{"a":1}'] and buffer == bytearray(b'{"b"') and scan == 4
    buffer += b':2}\n\n{"c":3}\npartial'
    lines, scan = split_lines(buffer, scan)
    assert lines == [b'{"b":2}', b"", b'{"c":3}'] and buffer == bytearray(b"partial")
    assert scan == len(b"partial")
    lines, scan = split_lines(buffer, scan)
    assert lines == [] and buffer == bytearray(b"partial")


def test_the_message_names_the_limit() -> None:
    assert "larger than 2 MiB" in str(MessageTooLarge(2 * 1024 * 1024))


async def _run_until_failed(conn: ServerConnection, rec: Recorder) -> None:
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        with anyio.fail_after(20):
            await rec.wait_for(ServerStateChanged, lambda e: e.state is ConnectionState.FAILED)


@pytest.mark.anyio
@pytest.mark.parametrize("size", [3 * 1024 * 1024, -1], ids=["huge-line", "endless-output"])
async def test_oversized_output_ends_the_connection_with_a_clear_reason(size: int) -> None:
    rec = Recorder()
    spec = stdio_spec(RAW_SERVER, "--flood-after-init", str(size))
    conn = ServerConnection(
        spec, handler=ScriptedHandler(), sink=rec, max_message_bytes=1024 * 1024, connect_timeout=15
    )
    await _run_until_failed(conn, rec)
    assert conn.detail is not None
    assert conn.detail.startswith("The server sent a message larger than 1 MiB")
    assert "closed the connection" in conn.detail


@pytest.mark.anyio
async def test_a_normal_session_is_unaffected_by_the_bound() -> None:
    rec = Recorder()
    conn = ServerConnection(
        stdio_spec(RAW_SERVER), handler=ScriptedHandler(), sink=rec, max_message_bytes=4096
    )
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        assert await conn.wait_ready(10)
        assert (await conn.call_tool("hello", {"name": "bound"})).items[0].text == "hello bound"
        await conn.close()
