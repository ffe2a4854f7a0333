"""``session/big_http.py``: over HTTP, a large message with an oversized ``_meta`` is parsed in a
worker thread and handed to the SDK with ``_meta`` cut; everything else passes byte for byte.

The SDK's own behaviour (it parses every HTTP message on the event loop) is shown in
``test_sdk_workarounds.py``.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx2
import mcp_types
import pytest

from mcp_tui.config.servers import ServerSpec
from mcp_tui.session import big_http
from mcp_tui.session.big_json import LARGE_LINE, MAX_META_KEYS
from mcp_tui.session.events import Notice, TrafficRecorded
from tests.session.session_testkit import Recorder, connected, http_fixture

pytestmark = pytest.mark.anyio

LIMIT = 32 << 20


class Chunks(httpx2.AsyncByteStream):
    def __init__(self, data: bytes, size: int) -> None:
        self.pieces = [data[i : i + size] for i in range(0, len(data), size)]

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self.pieces:
            yield piece


async def through(data: bytes, *, sse: bool, size: int = 4096) -> tuple[bytes, list[Any]]:
    heard: list[Any] = []
    stream = big_http.ShrinkingStream(
        Chunks(data, size), sse=sse, on_trimmed=heard.extend, limit=LIMIT
    )
    return b"".join([piece async for piece in stream]), heard


def message(keys: int, *, width: int = 600, in_meta: bool = True) -> dict[str, Any]:
    big = {f"k{i}": "m" * width for i in range(keys)}
    params: dict[str, Any] = {"level": "info", "data": "big"}
    params["_meta" if in_meta else "data"] = big
    return {"jsonrpc": "2.0", "method": "notifications/message", "params": params}


def compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


@pytest.mark.parametrize("size", [1, 7, 4096, 1 << 22])
async def test_small_events_pass_byte_for_byte(size: int) -> None:
    data = (
        b'event: message\r\nid: 1\r\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n'
        b': a comment\n\nretry: 100\ndata: {"a":\ndata: 1}\n\n'
        b"data: unterminated"
    )
    out, heard = await through(data, sse=True, size=size)
    assert out == data and heard == []


async def test_a_large_data_line_with_an_oversized_meta_is_cut() -> None:
    big = message(MAX_META_KEYS + 1000)
    data = b"event: message\r\nid: 7\r\ndata: " + compact(big) + b"\r\n\r\ndata: {}\n\n"
    assert len(data) > LARGE_LINE
    out, heard = await through(data, sse=True)
    head, line, tail = out.split(b"\r\n", 2)[0], out.split(b"\r\n")[2], out.split(b"\r\n\r\n")[1]
    assert head == b"event: message" and tail == b"data: {}\n\n"
    assert line.startswith(b"data: ") and len(line) < LARGE_LINE
    value = json.loads(line.removeprefix(b"data: "))
    assert list(value["params"]["_meta"]) == [f"k{i}" for i in range(MAX_META_KEYS)]
    assert value["params"]["data"] == "big"
    assert heard == [("params._meta", MAX_META_KEYS + 1000)]


async def test_large_lines_without_an_oversized_meta_pass_unchanged() -> None:
    data = b"data: " + compact(message(MAX_META_KEYS + 1000, in_meta=False)) + b"\n\n"
    assert len(data) > LARGE_LINE
    assert await through(data, sse=True) == (data, [])
    not_json = b"data: " + b"x" * (LARGE_LINE + 10) + b"\n\n"
    assert await through(not_json, sse=True) == (not_json, [])


async def test_a_large_json_body_is_cut_and_a_small_one_passes() -> None:
    big = {"jsonrpc": "2.0", "id": 3, "result": {"content": [], "_meta": message(1500)["params"]}}
    big["result"]["_meta"] = {f"k{i}": "v" * 800 for i in range(MAX_META_KEYS + 500)}
    out, heard = await through(compact(big), sse=False)
    assert len(json.loads(out)["result"]["_meta"]) == MAX_META_KEYS
    assert heard == [("result._meta", MAX_META_KEYS + 500)]
    small = compact({"jsonrpc": "2.0", "id": 3, "result": {}})
    assert await through(small, sse=False) == (small, [])


async def test_a_line_over_the_limit_passes_without_being_held() -> None:
    data = b"data: " + compact(message(MAX_META_KEYS + 1000)) + b"\n\n"
    heard: list[Any] = []
    stream = big_http.ShrinkingStream(
        Chunks(data, 4096), sse=True, on_trimmed=heard.extend, limit=LARGE_LINE // 2
    )
    pieces = [piece async for piece in stream]
    assert b"".join(pieces) == data and heard == []
    assert max(len(piece) for piece in pieces) <= LARGE_LINE // 2 + 4096


@pytest.mark.parametrize("transport", ["streamable-http", "sse"])
async def test_a_big_meta_over_http_is_parsed_off_the_event_loop(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop_thread = threading.get_ident()
    parsed_on: list[int] = []
    real_parse = big_http.parse_large

    def parse_large(text: str) -> Any:
        parsed_on.append(threading.get_ident())
        return real_parse(text)

    monkeypatch.setattr(big_http, "parse_large", parse_large)
    adapter = mcp_types.jsonrpc_message_adapter
    real_validate = adapter.validate_json
    sdk_read: list[int] = []

    def validate_json(data: Any, *args: Any, **kwargs: Any) -> Any:
        if sys._getframe(1).f_globals["__name__"].startswith("mcp.client"):  # not the server
            sdk_read.append(len(data))
        return real_validate(data, *args, **kwargs)

    monkeypatch.setattr(adapter, "validate_json", validate_json)
    rec = Recorder()
    async with (
        http_fixture(transport) as target,
        connected(ServerSpec("web", target, mode="legacy"), recorder=rec) as conn,
    ):
        outcome = await conn.call_tool("big_meta", {"keys": MAX_META_KEYS + 1000})
        assert outcome.error is None
        notice = await rec.wait_for(Notice, lambda n: "kept the first" in n.text)
    assert f"{MAX_META_KEYS + 1000:,} keys" in notice.text and notice.severity == "warning"
    assert parsed_on and loop_thread not in parsed_on
    assert sdk_read and max(sdk_read) < LARGE_LINE  # the SDK parsed only the cut message
    logs = [
        e.message
        for e in rec.of(TrafficRecorded)
        if e.direction == "in" and e.message.get("method") == "notifications/message"
    ]
    assert [len(m["params"]["_meta"]) for m in logs] == [MAX_META_KEYS]
    await anyio.sleep(0)


@pytest.mark.parametrize("transport", ["streamable-http", "sse"])
async def test_any_large_message_over_http_reaches_the_session_parsed_off_the_loop(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not only an oversized ``_meta``: a large log object and a large result are parsed in a
    worker thread too, the SDK parsing a small stand-in, and arrive whole."""
    from mcp_tui.session.events import LogReceived

    loop_thread = threading.get_ident()
    parsed_on: list[int] = []
    real_parse = big_http.parse_large

    def parse_large(text: str) -> Any:
        parsed_on.append(threading.get_ident())
        return real_parse(text)

    monkeypatch.setattr(big_http, "parse_large", parse_large)
    adapter = mcp_types.jsonrpc_message_adapter
    real_validate = adapter.validate_json
    sdk_read: list[int] = []

    def validate_json(data: Any, *args: Any, **kwargs: Any) -> Any:
        if sys._getframe(1).f_globals["__name__"].startswith("mcp.client"):  # not the server
            sdk_read.append(len(data))
        return real_validate(data, *args, **kwargs)

    monkeypatch.setattr(adapter, "validate_json", validate_json)
    rec = Recorder()
    text = "t" * (LARGE_LINE + 5000)
    async with (
        http_fixture(transport) as target,
        connected(ServerSpec("web", target, mode="legacy"), recorder=rec) as conn,
    ):
        logged = await conn.call_tool("big_meta", {"keys": 2000, "in_data": True})
        assert logged.error is None
        log = await rec.wait_for(LogReceived, lambda e: isinstance(e.data, dict))
        echoed = await conn.call_tool("echo", {"text": text})
    assert log.data == {f"k{i}": "m" * 600 for i in range(2000)}
    assert echoed.error is None and echoed.items[0].text == text
    assert len(parsed_on) == 2 and loop_thread not in parsed_on
    assert sdk_read and max(sdk_read) < 10_000  # stand-ins only
    assert not [n for n in rec.of(Notice) if n.severity != "information"]


def test_a_servers_own_stand_in_marker_is_left_alone() -> None:
    """A server cannot name a parsed message: tickets carry a nonce it never sees."""
    big = big_http.BigPayloads(lambda _cut: None, LIMIT)
    stand_in = big.stand_in({"jsonrpc": "2.0", "method": "notifications/message", "params": {}})
    assert stand_in is not None
    ticket = json.loads(stand_in)["params"]["_meta"][big_http.STAND_IN]
    forged_ticket = ticket.rsplit("-", 1)[0] + "-2"
    forged = mcp_types.JSONRPCNotification(
        jsonrpc="2.0",
        method="notifications/message",
        params={"_meta": {big_http.STAND_IN: forged_ticket}, "level": "info", "data": 1},
    )
    from mcp.shared.message import SessionMessage

    item = SessionMessage(forged)
    assert big.restore(item) is item
    read = SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(stand_in))
    other = big_http.BigPayloads(lambda _cut: None, LIMIT)
    assert other.restore(read) is read  # another connection's ticket
    restored = big.restore(read)
    assert isinstance(restored, SessionMessage) and restored is not read
    assert restored.message == mcp_types.JSONRPCNotification(
        jsonrpc="2.0", method="notifications/message", params={}
    )
    assert big.restore(read) is read  # once only
