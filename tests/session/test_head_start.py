"""Head start: a stdio server spawned before ``import mcp``, adopted by its connection.

The process must be started exactly as the SDK starts it (same arguments to ``anyio.open_process``,
same environment), adopted without a second spawn, and never leaked when nobody adopts it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session import head_start
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.events import ConnectionState, StderrReceived
from tests.session.session_testkit import (
    ELICIT_SERVER,
    RAW_SERVER,
    Recorder,
    ScriptedHandler,
    stdio_spec,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no head start on Windows")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); it is gone once reaped (its /proc entry says so).
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_default_environment_is_the_sdks(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp.client.stdio import DEFAULT_INHERITED_ENV_VARS, get_default_environment

    assert tuple(DEFAULT_INHERITED_ENV_VARS) == head_start.INHERITED_ENV_VARS
    monkeypatch.setenv("SHELL", "() { evil; }")  # a shell function is never passed on
    monkeypatch.setenv("USER", "someone")
    monkeypatch.delenv("LOGNAME", raising=False)
    assert head_start.default_environment() == get_default_environment()
    target = StdioTarget("srv", env={"PATH": "/opt/bin", "EXTRA": "1"})
    assert head_start.server_environment(target) == get_default_environment() | target.env


@pytest.mark.anyio
async def test_spawned_with_the_sdks_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both call ``anyio.open_process`` the same way (the SDK's ``_create_platform_...``)."""
    from mcp.client import stdio as sdk_stdio

    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    class Stop(Exception):
        pass

    async def fake_open_process(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, {k: v for k, v in kwargs.items() if k != "stderr"}))
        raise Stop

    monkeypatch.setattr(anyio, "open_process", fake_open_process)
    target = StdioTarget("python3", args=("-m", "srv"), env={"A": "1"}, cwd="/")
    spec = ServerSpec(name="s", target=target)
    assert await head_start.start_stdio(spec, None) is None  # a failed spawn: no head start
    with pytest.raises(Stop):
        await sdk_stdio._create_platform_compatible_process(
            command=await sdk_stdio._get_executable_command(target.command),
            args=list(target.args),
            env=sdk_stdio.get_default_environment() | target.env,
            errlog=sys.stderr,
            cwd=target.cwd,
        )
    assert len(calls) == 2
    assert calls[0] == calls[1]


async def started(script: Path = ELICIT_SERVER, log: Path | None = None) -> tuple[ServerSpec, Any]:
    """A head-started fixture server (its spec and ``HeadStart``)."""
    spec = stdio_spec(script)
    head = await head_start.start_stdio(spec, log)
    assert head is not None
    return spec, head


@pytest.mark.anyio
async def test_a_connection_adopts_the_process_and_stops_it() -> None:
    spec, head = await started()
    pid = head.process.pid
    rec = Recorder()
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=rec, head_start=head)
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        assert await conn.wait_ready(30)
        assert head.adopted
        outcome = await conn.call_tool("echo", {"text": "hi"})
        assert not outcome.is_error, outcome.error
        assert alive(pid)
        await conn.close()
    assert conn.state is ConnectionState.CLOSED
    assert not alive(pid)


@pytest.mark.anyio
async def test_stderr_before_adoption_reaches_the_connection(tmp_path: Path) -> None:
    spec, head = await started(RAW_SERVER, tmp_path / "srv.stderr.log")
    await anyio.sleep(0.5)  # the server writes its first stderr lines before anyone listens
    rec = Recorder()
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=rec, head_start=head)
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn.run)
        await rec.wait_for(StderrReceived, lambda e: "raw-server ready" in e.line)
        await conn.close()
    assert "raw-server ready" in (tmp_path / "srv.stderr.log").read_text()


@pytest.mark.anyio
async def test_unadopted_head_start_is_discarded() -> None:
    _, head = await started()
    pid = head.process.pid
    assert alive(pid)
    await head.discard()
    assert not alive(pid)
    await head.discard()  # idempotent
    with pytest.raises(RuntimeError):
        head.adopt(Recorder())


@pytest.mark.anyio
async def test_a_connection_closed_before_running_discards_its_head_start() -> None:
    spec, head = await started()
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=Recorder(), head_start=head)
    await conn.close()
    await conn.run()
    assert head.discarded and not alive(head.process.pid)


@pytest.mark.anyio
async def test_nothing_to_start_early() -> None:
    from mcp_tui.config.servers import HttpTarget

    http = ServerSpec(name="h", target=HttpTarget("http://127.0.0.1:9/mcp"))
    assert await head_start.start_stdio(http, None) is None
    missing = ServerSpec(name="m", target=StdioTarget("/nonexistent/mcp-tui-test-server"))
    assert await head_start.start_stdio(missing, None) is None
