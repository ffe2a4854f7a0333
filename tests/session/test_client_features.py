"""Roots, cancelling a call, ping and the log level, on both eras, against a real stdio server
(``tests/fixtures/features_server.py``, which records what it saw in a file)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_tui.config.roots import (
    Root,
    RootError,
    command_line_directories,
    describe_roots,
    file_uri,
    initial_roots,
    make_root,
    spec_roots,
)
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import LogReceived, Notice, TrafficRecorded
from tests.session.session_testkit import FIXTURES, RAW_SERVER, Recorder, connected, stdio_spec
from tests.waits import wait_until

FEATURES_SERVER = FIXTURES / "features_server.py"
ERAS = [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")]


def spec(record: Path, mode: str, roots: tuple[str, ...] | None = None) -> ServerSpec:
    base = stdio_spec(FEATURES_SERVER, str(record), mode=mode)  # type: ignore[arg-type]
    return ServerSpec(base.name, base.target, mode=base.mode, roots=roots)


def seen(record: Path) -> list[dict[str, object]]:
    if not record.exists():
        return []
    return [json.loads(line) for line in record.read_text().splitlines()]


async def until(condition: Callable[[], object], timeout: float = 20) -> None:
    await wait_until(condition, timeout, message="what the test waited for never happened")


# ---- roots -----------------------------------------------------------------------------------


def test_file_uris_are_percent_encoded(tmp_path: Path) -> None:
    odd = tmp_path / "a b#c%d?é"
    odd.mkdir()
    root = make_root(odd)
    assert root.uri == "file://" + str(tmp_path).replace(" ", "%20") + "/a%20b%23c%25d%3F%C3%A9"
    assert root.name == "a b#c%d?é"
    assert file_uri("/") == "file:///"


def test_roots_are_existing_directories(tmp_path: Path) -> None:
    with pytest.raises(RootError, match="not an existing directory"):
        make_root(tmp_path / "missing")
    (tmp_path / "f").write_text("x")
    with pytest.raises(RootError, match="not a directory"):
        make_root(tmp_path / "f")
    with pytest.raises(RootError, match="empty"):
        make_root(" ")
    (tmp_path / "sub").mkdir()
    assert make_root("sub", base=str(tmp_path)).path == str(tmp_path / "sub")


def test_initial_roots_default_to_the_working_directory(tmp_path: Path) -> None:
    assert initial_roots(None) == (make_root(os.getcwd()),)
    assert initial_roots(()) == ()
    assert initial_roots((str(tmp_path), str(tmp_path), str(tmp_path / "gone"))) == (
        make_root(tmp_path),
    )


def test_a_server_given_directories_on_its_command_line_is_offered_none(
    tmp_path: Path,
) -> None:
    """server-filesystem replaces its directory arguments with the client's roots: a server
    started with directories keeps them unless roots were chosen for it."""
    data = tmp_path / "data"
    data.mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "server.py").write_text("")
    args = ("server.py", "-m", "pkg", "--dir=data", str(data), "~nobody-here", "-v")
    assert command_line_directories(args, str(tmp_path)) == (str(data),)
    given = ServerSpec("files", StdioTarget("npx", ("-y", "server-filesystem", str(data))))
    assert spec_roots(given) == ()
    assert "keeps the directories on its command line: " + str(data) in describe_roots(given)
    plain = ServerSpec("files", StdioTarget("npx", ("-y", "server-filesystem")))
    assert spec_roots(plain) == (make_root(os.getcwd()),)
    chosen = ServerSpec("files", given.target, roots=(str(tmp_path),))
    assert spec_roots(chosen) == (make_root(tmp_path),)


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_roots_are_offered_and_changed(tmp_path: Path, mode: str, version: str) -> None:
    record = tmp_path / "record.jsonl"
    first, second = tmp_path / "one", tmp_path / "two words"
    first.mkdir()
    second.mkdir()
    rec = Recorder()
    async with connected(spec(record, mode, (str(first),)), recorder=rec) as conn:
        assert conn.info.protocol_version == version
        outcome = await conn.call_tool("my_roots", {}, call_id=1)
        assert outcome.items[0].text == first.as_uri()
        await conn.set_roots([make_root(first), make_root(second), make_root(first)])
        assert [r.path for r in conn.roots] == [str(first), str(second)]
        outcome = await conn.call_tool("my_roots", {}, call_id=2)
        assert outcome.items[0].text == f"{first.as_uri()}\n{file_uri(second)}"
        assert "%20" in file_uri(second)
        sent = [e.method for e in rec.of(TrafficRecorded) if e.direction == "out"]
        notes = [n.text for n in rec.of(Notice)]
        if version == "2025-11-25":
            assert "notifications/roots/list_changed" in sent
            assert any("sent notifications/roots/list_changed" in t for t in notes)
        else:  # 2026-07-28 has no such notification
            assert "notifications/roots/list_changed" not in sent
            assert any("no roots/list_changed notification" in t for t in notes)
        assert any("asked for its roots; sent 2" in t for t in notes)
    assert [e["uris"] for e in seen(record) if e["event"] == "roots"][-1] == [
        first.as_uri(),
        file_uri(second),
    ]


@pytest.mark.anyio
async def test_roots_capability_is_advertised_with_list_changed(tmp_path: Path) -> None:
    rec = Recorder()
    async with connected(spec(tmp_path / "r", "legacy"), recorder=rec):
        init = next(e for e in rec.of(TrafficRecorded) if e.method == "initialize")
        assert init.message["params"]["capabilities"]["roots"] == {"listChanged": True}


# ---- cancel ------------------------------------------------------------------------------------


#: A server that never answers ``slow`` (the raw stdio server: it starts in milliseconds and
#: records every message it gets, so the test waits on the messages themselves).
SLOW_SCRIPT = {
    "tools": [
        {"name": "slow", "inputSchema": {"type": "object"}},
        {"name": "quick", "inputSchema": {"type": "object"}},
    ],
    "results": {
        "slow": {"never": True},
        "quick": {"result": {"content": [{"type": "text", "text": "quick answer"}]}},
    },
}


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_cancel_a_running_call(tmp_path: Path, mode: str, version: str) -> None:
    """Cancelling a call sends ``notifications/cancelled`` for its request: the test waits for
    that message where the server receives it (it used to wait for an MCP server to start and
    record, on its side, that its tool was cancelled: seconds for a millisecond behaviour)."""
    script, record = tmp_path / "script.json", tmp_path / "got.jsonl"
    script.write_text(json.dumps(SLOW_SCRIPT), encoding="utf-8")
    args = (str(RAW_SERVER), "--script", str(script), "--record", str(record))
    raw = ServerSpec("raw", StdioTarget(sys.executable, args), mode=mode)  # type: ignore[arg-type]

    def got(method: str) -> list[dict[str, Any]]:
        return [m for m in seen(record) if m.get("method") == method]

    async with connected(raw) as conn:
        assert conn.info is not None and conn.info.protocol_version == version
        result: list[object] = []

        async def call() -> None:
            result.append(await conn.call_tool("slow", {}, call_id=7))

        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                tg.start_soon(call)
                await until(lambda: got("tools/call"))  # the server has the call
                assert not conn.cancel_call(99)
                assert conn.cancel_call(7)
        (outcome,) = result
        assert outcome.cancelled and outcome.error.startswith("cancelled by you")  # type: ignore[attr-defined]
        await until(lambda: got("notifications/cancelled"))  # the message itself, received
        [request] = got("tools/call")
        assert got("notifications/cancelled")[0]["params"]["requestId"] == request["id"]
        assert not conn.cancel_call(7)  # it is over
        quick = await conn.call_tool("quick", {}, call_id=8)
        assert quick.items[0].text == "quick answer"


# ---- ping and log level ----------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("mode", "method"), [("legacy", "ping"), ("2026-07-28", "server/discover")]
)
async def test_ping_times_a_round_trip(tmp_path: Path, mode: str, method: str) -> None:
    rec = Recorder()
    async with connected(spec(tmp_path / "r", mode), recorder=rec) as conn:
        trip = await conn.ping()
        assert trip.method == method and trip.error is None
        assert trip.seconds is not None and 0 < trip.seconds < 30
        assert method in [e.method for e in rec.of(TrafficRecorded) if e.direction == "out"]


@pytest.mark.anyio
async def test_log_level_2026_rides_each_request(tmp_path: Path) -> None:
    rec = Recorder()
    async with connected(spec(tmp_path / "r", "2026-07-28"), recorder=rec) as conn:
        assert conn.features.log_level == "debug"
        await conn.call_tool("log_each_level", {}, call_id=1)
        await rec.wait_for(LogReceived, lambda e: e.level == "debug")
        assert "not a log level" in (await conn.set_log_level("loud") or "")
        assert await conn.set_log_level("warning") is None
        assert conn.features.log_level == "warning"
        before = len(rec.of(LogReceived))
        await conn.call_tool("log_each_level", {}, call_id=2)
        await until(lambda: len(rec.of(LogReceived)) >= before + 2)
        assert [e.level for e in rec.of(LogReceived)[before:]] == ["warning", "error"]
        sent = [e.message for e in rec.of(TrafficRecorded) if e.direction == "out"]
        call = [m for m in sent if m.get("method") == "tools/call"][-1]
        assert call["params"]["_meta"]["io.modelcontextprotocol/logLevel"] == "warning"


@pytest.mark.anyio
async def test_a_new_connection_starts_at_the_level_it_is_given(tmp_path: Path) -> None:
    """A reconnect passes the level the person chose: on 2026-07-28 the first call carries it."""
    rec = Recorder()
    server = spec(tmp_path / "r", "2026-07-28")
    async with connected(server, recorder=rec, log_level="warning") as conn:
        assert conn.features.log_level == "warning"
        await conn.call_tool("log_each_level", {}, call_id=1)
        await rec.wait_for(LogReceived, lambda e: e.level == "error")
        assert [e.level for e in rec.of(LogReceived)] == ["warning", "error"]


@pytest.mark.anyio
async def test_log_level_refused_by_a_2025_server_says_why(tmp_path: Path) -> None:
    """MCPServer has no logging/setLevel (server-everything, which has, is in tests/interop)."""
    async with connected(spec(tmp_path / "r", "legacy")) as conn:
        why = await conn.set_log_level("error")
        assert why == "logging/setLevel failed: -32601 (method not found): Method not found"
        assert conn.features.log_level == "debug"


def test_root_is_a_plain_struct() -> None:
    root = Root("/x", "file:///x", "x")
    assert root == Root("/x", "file:///x", "x")


def test_a_late_result_for_a_cancelled_request_is_noted() -> None:
    """The SDK drops it silently; the user is told the server finished anyway. Only for what
    the user asked for (a tool call): mcp-tui cancels its own requests too (a ``tasks/get`` poll
    once the task's result is in, a listing a ``list_changed`` superseded), and a note about
    those only puzzled (seen with the TypeScript SDK's task example and server-everything)."""
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

    from mcp_tui.session.recording import ConnectionTap

    rec = Recorder()
    tap = ConnectionTap("fx", rec, None, on_ended=lambda: None)

    def request(id: int, method: str) -> None:
        tap.outgoing(SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=id, method=method)))

    def cancel(id: int) -> None:
        params = {"requestId": id}
        tap.outgoing(
            SessionMessage(
                JSONRPCNotification(jsonrpc="2.0", method="notifications/cancelled", params=params)
            )
        )

    request(5, "tools/call")
    request(6, "tasks/get")
    request(7, "tools/list")
    for id in (5, 6, 7):
        cancel(id)
    tap.incoming(SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=4, result={})))
    assert rec.of(Notice) == []
    for id in (7, 6, 5, 5):  # the tool call's once only
        tap.incoming(SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=id, result={})))
    assert [n.text for n in rec.of(Notice)] == [
        "a result for cancelled request 5 arrived late and was dropped"
    ]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_cancel_over_streamable_http(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """2026-07-28 over HTTP: the SDK closes the request's POST; the server still stops."""
    from mcp_tui.config.servers import HttpTarget
    from tests.session.session_testkit import load_fixture, serve_http

    fixture = load_fixture("features_server")
    record = tmp_path / "record.jsonl"
    monkeypatch.setattr(fixture, "RECORD", record)
    async with serve_http(fixture.build_server().streamable_http_app()) as port:
        target = HttpTarget(f"http://127.0.0.1:{port}/mcp")
        async with connected(ServerSpec("h", target, mode=mode)) as conn:  # type: ignore[arg-type]
            result: list[object] = []

            async def call() -> None:
                result.append(await conn.call_tool("slow", {"seconds": 60}, call_id=3))

            async with anyio.create_task_group() as tg:
                tg.start_soon(call)
                await until(lambda: any(e["event"] == "slow started" for e in seen(record)))
                assert conn.cancel_call(3)
            assert result[0].cancelled
            await until(lambda: any(e["event"] == "slow cancelled" for e in seen(record)))
            assert (await conn.call_tool("quick", {}, call_id=4)).items[0].text == "quick answer"


@pytest.mark.anyio
async def test_subscriptions_2026_ride_subscriptions_listen(tmp_path: Path) -> None:
    """2026-07-28 has no resources/subscribe: the listen stream is reopened with the URIs.
    (The 2025 eras' resources/subscribe is tested against server-everything, in interop.)"""
    from mcp_tui.session.events import ResourceUpdated

    rec = Recorder()
    async with connected(spec(tmp_path / "r", "2026-07-28"), recorder=rec) as conn:
        assert conn.info.protocol_version == "2026-07-28" and conn.can_subscribe
        assert await conn.subscribe("features://counter") is None
        assert conn.features.subscriptions == {"features://counter"}

        def listened() -> list[dict[str, object]]:
            return [
                e.message["params"]["notifications"]
                for e in rec.of(TrafficRecorded)
                if e.method == "subscriptions/listen"
            ]

        await until(lambda: any(n.get("resourceSubscriptions") for n in listened()))
        # The server acknowledges the stream before it delivers: touch until an update comes.
        with anyio.fail_after(20):
            while not rec.of(ResourceUpdated):
                await conn.call_tool("touch", {}, call_id=1)
                await anyio.sleep(0.1)
        assert rec.of(ResourceUpdated)[0] == ResourceUpdated("fx", "features://counter")
        assert await conn.subscribe("features://counter", on=False) is None
        await until(lambda: not listened()[-1].get("resourceSubscriptions"))
        assert any("subscribed to features://counter" in n.text for n in rec.of(Notice))


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_cancelling_a_call_waiting_for_a_form_closes_the_form(mode: str) -> None:
    """2025 eras: the tools/call is in flight and gets notifications/cancelled. 2026-07-28: the
    form is asked between input_required rounds, so no request is in flight and nothing is sent;
    the open form (the callback) is cancelled all the same."""
    from tests.session.session_testkit import ELICIT_SERVER, ScriptedHandler

    handler = ScriptedHandler()  # never answers: the form stays open
    rec = Recorder()
    async with connected(
        stdio_spec(ELICIT_SERVER, mode=mode),  # type: ignore[arg-type]
        handler=handler,
        recorder=rec,
    ) as conn:
        result: list[object] = []

        async def call() -> None:
            result.append(await conn.call_tool("confirm", {}, call_id=9))

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            with anyio.fail_after(20):
                await handler.arrived.wait()
            assert conn.cancel_call(9)
        assert result[0].cancelled
        # 2025: the server withdraws its request when told (its own notifications/cancelled).
        await until(lambda: len(handler.cancelled) == 1)
        cancels = [
            e.direction for e in rec.of(TrafficRecorded) if e.method == "notifications/cancelled"
        ]
        assert cancels == (["out", "in"] if mode == "legacy" else [])
        assert ("no state for the call" in result[0].error) is (mode != "legacy")
