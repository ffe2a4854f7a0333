"""The ``--log`` JSON Lines file, on its own and as written by a live connection."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from mcp_types import jsonrpc_message_adapter

from mcp_tui.session.events import TrafficRecorded
from mcp_tui.session.recording import ConnectionTap
from mcp_tui.session.stdio_transport import LargeSessionMessage
from mcp_tui.session.traffic import TrafficLog
from tests.session.session_testkit import RAW_SERVER, Recorder, connected, stdio_spec


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="ascii").splitlines()]


def test_each_message_is_one_flushed_ascii_line(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "traffic.jsonl"
    log = TrafficLog(path)
    log.record("srv", "out", {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    # Flushed per message: readable while the log is still open.
    first = read_lines(path)
    assert len(first) == 1
    assert first[0]["server"] == "srv" and first[0]["dir"] == "out"
    assert first[0]["message"] == {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert isinstance(first[0]["t"], str) and first[0]["t"].endswith("+00:00")
    log.record("srv", "in", {"text": "\x1b]52;c;aGk=\x07 ünïcode"})
    log.record_error("srv", "in", "not json")
    log.close()
    raw = path.read_bytes()
    assert b"\x1b" not in raw and raw.isascii()  # escapes stay escaped in the file
    lines = read_lines(path)
    assert lines[1]["message"] == {"text": "\x1b]52;c;aGk=\x07 ünïcode"}
    assert lines[2]["error"] == "not json" and "message" not in lines[2]
    assert log.lines_written == 3


def test_appends_and_survives_closing(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with TrafficLog(path) as log:
        log.record("a", "out", {"n": 1})
    with TrafficLog(path) as log:
        log.record("a", "out", {"n": 2})
    assert [line["message"] for line in read_lines(path)] == [{"n": 1}, {"n": 2}]
    log.record("a", "out", {"n": 3})  # after close: ignored, never raises
    assert len(read_lines(path)) == 2


@pytest.mark.anyio
async def test_connection_writes_every_message_in_and_out(tmp_path: Path) -> None:
    path = tmp_path / "traffic.jsonl"
    recorder = Recorder()
    log = TrafficLog(path)
    async with connected(stdio_spec(RAW_SERVER), recorder=recorder, traffic_log=log) as conn:
        outcome = await conn.call_tool("hello", {"name": "log"})
        assert outcome.items[0].text == "hello log"
    log.close()
    lines = read_lines(path)
    assert {line["server"] for line in lines} == {"fx"}
    outgoing = [line["message"] for line in lines if line["dir"] == "out"]
    incoming = [line["message"] for line in lines if line["dir"] == "in"]
    methods = [m.get("method") for m in outgoing]
    assert methods[:2] == ["initialize", "notifications/initialized"]
    assert "tools/call" in methods
    call = next(m for m in outgoing if m.get("method") == "tools/call")
    answer = next(m for m in incoming if m.get("id") == call["id"])
    assert answer["result"]["content"] == [{"type": "text", "text": "hello log"}]
    # The same messages went to the UI as events, in the same order.
    events = recorder.of(TrafficRecorded)
    assert [(e.direction, e.message) for e in events] == [
        (line["dir"], line["message"]) for line in lines
    ]


def test_a_large_message_is_written_from_a_thread_and_later_lines_wait_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large message is encoded by the writer thread (json.dumps would hold the UI for the
    whole message); a line recorded meanwhile is written after it, never before."""
    release = threading.Event()
    threads: list[int] = []

    class Gated(json.JSONEncoder):
        def iterencode(self, o: Any, _one_shot: bool = False) -> Any:
            if not _one_shot:  # the incremental encoder, not json.dumps
                threads.append(threading.get_ident())
                release.wait(30)
            return super().iterencode(o, _one_shot)

    monkeypatch.setattr(json, "JSONEncoder", Gated)
    path = tmp_path / "traffic.jsonl"
    log = TrafficLog(path)
    log.record("srv", "in", {"big": "x" * 1000}, large=True)
    log.record("srv", "out", {"small": 1})
    assert path.read_text(encoding="ascii") == "", "written before the large one"
    release.set()
    log.close()
    assert [line["message"] for line in read_lines(path)] == [{"big": "x" * 1000}, {"small": 1}]
    assert threads and threads[0] != threading.get_ident()
    assert log.lines_written == 2


def test_a_large_message_is_recorded_from_the_value_it_was_read_from(tmp_path: Path) -> None:
    """No second dump of the SDK's model on the event loop: the traffic event holds the parsed
    value, and the log file gets it from the writer thread."""
    value = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info"}}
    message = LargeSessionMessage(jsonrpc_message_adapter.validate_python(value), wire=value)
    events: list[Any] = []
    log = TrafficLog(tmp_path / "traffic.jsonl")
    tap = ConnectionTap("srv", events.append, log, on_ended=lambda: None)
    tap.incoming(message)
    log.close()
    (event,) = [e for e in events if isinstance(e, TrafficRecorded)]
    assert event.raw is value and event.message is value
    assert read_lines(tmp_path / "traffic.jsonl")[0]["message"] == value
