"""A stdio server end to end: handshake, catalog, calls, notifications, failures, closing."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import anyio
import pytest

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.events import (
    CatalogChanged,
    ConnectionState,
    LogReceived,
    Notice,
    ProgressReceived,
    ServerStateChanged,
    StderrReceived,
    TrafficRecorded,
)
from tests.session.session_testkit import (
    ELICIT_SERVER,
    RAW_SERVER,
    Recorder,
    ScriptedHandler,
    connected,
    stdio_spec,
)


def states(recorder: Recorder) -> list[ConnectionState]:
    return [e.state for e in recorder.of(ServerStateChanged)]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("mode", "version"),
    [("legacy", "2025-11-25"), ("auto", "2025-11-25"), ("2026-07-28", "2026-07-28")],
)
async def test_handshake_catalog_calls_and_notifications(mode: str, version: str) -> None:
    rec = Recorder()
    async with connected(stdio_spec(ELICIT_SERVER, mode=mode), recorder=rec) as conn:  # type: ignore[arg-type]
        info = conn.info
        assert info is not None
        assert (info.name, info.version, info.protocol_version) == (
            "fixture-server",
            "1.2.3",
            version,
        )
        assert info.instructions == "Test fixture; says hello."
        assert "tools" in info.capabilities
        ready = rec.of(ServerStateChanged)[-1]
        assert ready.state is ConnectionState.READY and ready.info == info

        catalog = await rec.wait_for(CatalogChanged)
        assert catalog.tools is not None and "all_fields" in {t.name for t in catalog.tools}
        echo = next(t for t in conn.tools if t.name == "echo")
        assert echo.input_schema["required"] == ["text"]
        assert [p.name for p in conn.prompts] == ["greet", "greeting"]
        assert conn.prompts[0].arguments[0].name == "name" and conn.prompts[0].arguments[0].required
        resources = {(r.uri, r.template) for r in conn.resources}
        assert resources == {
            ("fixture://readme", False),
            ("fixture://items/{item}", True),
            ("order://{item}", True),
        }

        result = await conn.call_tool("echo", {"text": "héllo"}, call_id=1)
        assert [(i.kind, i.text) for i in result.items] == [("text", "héllo")]
        assert result.structured == {"result": "héllo"} and result.error is None

        failing = await conn.call_tool("fails")
        assert failing.is_error and failing.error is None

        unknown = await conn.call_tool("no_such_tool")
        assert unknown.is_error or unknown.error is not None

        prompt = await conn.get_prompt("greet", {"name": "Ada"})
        assert [(i.role, i.text) for i in prompt.items] == [("user", "Hello, Ada!")]
        assert prompt.description == "A greeting prompt."

        resource = await conn.read_resource("fixture://readme")
        assert [(i.kind, i.uri, i.text, i.mime_type) for i in resource.items] == [
            ("resource", "fixture://readme", "read me", "text/plain")
        ]
        missing = await conn.read_resource("fixture://nothing")
        assert missing.error is not None and missing.error_code is not None

        await conn.call_tool("progress_log", call_id=42)
        progress = [e for e in rec.of(ProgressReceived) if e.call_id == 42]
        assert [(p.progress, p.total, p.message) for p in progress] == [
            (1, 3, "step 1"),
            (2, 3, "step 2"),
            (3, 3, "step 3"),
        ]
        log = await rec.wait_for(LogReceived, lambda e: e.level == "debug")
        assert log.data == {"detail": 42}
        assert any(
            e.data == "hello from the server" and e.logger == "fixture" for e in rec.of(LogReceived)
        )

        # list_changed refreshes the catalog on both eras (2026: subscriptions/listen).
        await conn.call_tool("add_tool")
        changed = await rec.wait_for(
            CatalogChanged,
            lambda e: e.tools is not None and "extra_tool" in {t.name for t in e.tools},
        )
        assert changed.server == "fx"
        assert "extra_tool" in {t.name for t in conn.tools}
    assert states(rec) == [
        ConnectionState.CONNECTING,
        ConnectionState.READY,
        ConnectionState.CLOSED,
    ]
    assert conn.state is ConnectionState.CLOSED
    after = await conn.call_tool("echo", {"text": "x"})
    assert after.error is not None and "not connected" in after.error


@pytest.mark.anyio
async def test_missing_command_fails_with_one_sentence() -> None:
    rec = Recorder()
    spec = ServerSpec("nope", StdioTarget("mcp-tui-no-such-command-xyz", ("--flag",)))
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=rec)
    await conn.run()  # never raises
    assert conn.state is ConnectionState.FAILED
    assert (
        conn.detail
        == "Cannot start 'mcp-tui-no-such-command-xyz': no such command (not found on PATH)."
    )
    assert states(rec) == [ConnectionState.CONNECTING, ConnectionState.FAILED]
    assert await conn.wait_ready(0) is False


@pytest.mark.anyio
async def test_missing_working_directory_is_named(tmp_path: Path) -> None:
    spec = ServerSpec("nope", StdioTarget(sys.executable, cwd=str(tmp_path / "gone")))
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=Recorder())
    await conn.run()
    assert conn.state is ConnectionState.FAILED
    assert conn.detail is not None and "working directory" in conn.detail and "gone" in conn.detail


@pytest.mark.anyio
async def test_server_that_exits_at_start_quotes_its_stderr() -> None:
    spec = ServerSpec(
        "crash",
        StdioTarget(
            sys.executable,
            ("-c", "import sys; print('cannot open database', file=sys.stderr); sys.exit(3)"),
        ),
    )
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=Recorder())
    await conn.run()
    assert conn.state is ConnectionState.FAILED
    assert conn.detail is not None
    assert "closed the connection during start-up" in conn.detail
    assert "cannot open database" in conn.detail


@pytest.mark.anyio
async def test_server_dying_while_ready_is_failed() -> None:
    rec = Recorder()
    spec = stdio_spec(RAW_SERVER, "--exit-after-init")
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=rec)
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        await rec.wait_for(ServerStateChanged, lambda e: e.state is ConnectionState.FAILED)
    assert conn.detail is not None and conn.detail.startswith("The server exited with status")
    assert "raw-server ready" in conn.detail  # the last stderr lines help find out why
    outcome = await conn.call_tool("hello")
    assert outcome.error is not None


@pytest.mark.anyio
async def test_environment_and_working_directory_reach_the_server(tmp_path: Path) -> None:
    script = "import os, sys; print(os.environ['MCP_TUI_TEST'], os.getcwd(), file=sys.stderr)"
    spec = ServerSpec(
        "env",
        StdioTarget(sys.executable, ("-c", script), env={"MCP_TUI_TEST": "yes"}, cwd=str(tmp_path)),
    )
    rec = Recorder()
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=rec)
    await conn.run()  # the script exits: FAILED, but its stderr is what we want
    assert f"yes {tmp_path}" in [e.line for e in rec.of(StderrReceived)]


@pytest.mark.anyio
async def test_malformed_output_is_reported_not_fatal() -> None:
    rec = Recorder()
    async with connected(stdio_spec(RAW_SERVER, "--garbage"), recorder=rec) as conn:
        assert (await conn.call_tool("hello", {"name": "x"})).items[0].text == "hello x"
    notices = [n for n in rec.of(Notice) if "not a JSON-RPC message" in n.text]
    assert len(notices) == 1 and notices[0].severity == "warning"
    assert "\x1b" not in notices[0].text  # the quoted line is made visible, not raw


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.anyio
@pytest.mark.timeout(40)  # the runner's bound, should a hang escape everything below
async def test_close_kills_a_server_that_ignores_eof_and_sigterm() -> None:
    rec = Recorder()
    spec = stdio_spec(RAW_SERVER, "--ignore-eof", "--ignore-term")
    async with connected(spec, recorder=rec) as conn:
        pid_line = await rec.wait_for(StderrReceived, lambda e: e.line.startswith("pid="))
        pid = int(pid_line.line.removeprefix("pid="))
        assert _alive(pid)
        try:
            # A generous bound (EOF, SIGTERM, then SIGKILL), enforced while close() runs.
            with anyio.fail_after(10):
                await conn.close()
            assert not _alive(pid), "close() returned with the server still running"
        finally:
            # Had close() failed to kill it, the connection's shielded shutdown would wait for
            # this process forever, and so would leaving ``connected``: end it here instead.
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert conn.state is ConnectionState.CLOSED


@pytest.mark.anyio
async def test_close_before_run_and_twice() -> None:
    conn = ServerConnection(stdio_spec(RAW_SERVER), handler=ScriptedHandler(), sink=Recorder())
    await conn.close()
    await conn.close()
    assert conn.state is ConnectionState.CLOSED
    await conn.run()  # returns at once
    assert conn.state is ConnectionState.CLOSED


@pytest.mark.anyio
async def test_close_while_connecting_stops_the_server() -> None:
    # A server that never answers the handshake: reads stdin forever.
    spec = ServerSpec(
        "mute", StdioTarget(sys.executable, ("-c", "import sys\nfor _ in sys.stdin: pass"))
    )
    rec = Recorder()
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=rec)
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        await rec.wait_for(TrafficRecorded)  # the initialize request went out
        await conn.close()
    assert states(rec) == [ConnectionState.CONNECTING, ConnectionState.CLOSED]


@pytest.mark.anyio
async def test_handshake_timeout_fails_readably() -> None:
    spec = ServerSpec(
        "mute", StdioTarget(sys.executable, ("-c", "import sys\nfor _ in sys.stdin: pass"))
    )
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=Recorder(), connect_timeout=0.5)
    await conn.run()
    assert conn.state is ConnectionState.FAILED
    assert conn.detail is not None
    assert conn.detail.startswith("The server did not answer the handshake within 0.5 s ")
    assert "--connect-timeout" in conn.detail


@pytest.mark.anyio
async def test_a_raising_sink_cannot_break_the_connection() -> None:
    calls: list[object] = []

    def sink(event: object) -> None:
        calls.append(event)
        raise RuntimeError("UI bug")

    async with connected(stdio_spec(RAW_SERVER), recorder=sink) as conn:  # type: ignore[arg-type]
        assert (await conn.call_tool("hello", {"name": "z"})).items[0].text == "hello z"
    assert len(calls) > 5
