"""The bounded stdio transport: linear line splitting, and a cap on message size."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from mcp_tui.session.big_json import LARGE_LINE, MAX_META_KEYS
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.events import ConnectionState, LogReceived, Notice, ServerStateChanged
from mcp_tui.session.stdio_transport import MessageTooLarge, split_lines
from tests.session.session_testkit import RAW_SERVER, Recorder, ScriptedHandler, stdio_spec


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


@pytest.mark.anyio
async def test_a_large_notification_with_a_huge_meta_arrives_cut_and_noted(
    tmp_path: Path,
) -> None:
    """Over a megabyte with thousands of keys in ``_meta``: parsed off the event loop, its
    ``_meta`` cut to its first keys with a warning, and the log message itself shown."""
    meta = {f"k{i}": "x" * 800 for i in range(MAX_META_KEYS + 400)}
    params = {"level": "info", "data": "the big one", "_meta": meta}
    notification = {"jsonrpc": "2.0", "method": "notifications/message", "params": params}
    assert len(json.dumps(notification)) > LARGE_LINE
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"on_call": {"hello": [{"send": notification}]}}))
    rec = Recorder()
    conn = ServerConnection(
        stdio_spec(RAW_SERVER, "--script", str(script)), handler=ScriptedHandler(), sink=rec
    )
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        assert await conn.wait_ready(10)
        await conn.call_tool("hello", {})
        note = await rec.wait_for(Notice, lambda n: "_meta" in n.text, timeout=60)
        assert note.text == (
            "the server sent a message whose params._meta had 1,400 keys; mcp-tui kept the"
            " first 1,000 (metadata that large would freeze the screen)"
        )
        await rec.wait_for(LogReceived, lambda e: e.data == "the big one", timeout=60)
        await conn.close()
