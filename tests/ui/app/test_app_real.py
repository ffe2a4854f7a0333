"""The app against real stdio servers: the bundled demo, a missing command, a hostile server.

These start real processes through ``ServerConnection`` (no fakes): the catalog is listed, a tool
is called through its form with progress and logs, a server that cannot start fails on its own
while the other keeps working, hostile text stays literal, and quitting leaves no process behind.
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest
from textual.widgets import Input

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from tests.proc_kit import processes_with
from tests.ui.app_testkit import (
    RAW_CONTROLS,
    catalog_has,
    events_shown,
    guard_markup,
    mounted_screen,
    open_node,
    session_of,
    transcript_text,
    wait_for,
    wait_until,
)

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[3]
HOSTILE_SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "hostile_text_server.py"


@pytest.fixture
def markup_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return guard_markup(monkeypatch)


def python_server(name: str, args: tuple[str, ...], marker: str) -> ServerSpec:
    env = {"PYTHONPATH": str(ROOT), "MCP_TUI_TEST_MARKER": marker}
    return ServerSpec(name, StdioTarget(sys.executable, args, env=env, cwd=str(ROOT)))


needs_proc = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


@needs_proc
async def test_demo_server_tool_call_through_form_with_a_failed_neighbour(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    servers = [
        python_server("demo", ("-m", "mcp_tui.demo"), marker),
        ServerSpec("missing", StdioTarget(str(tmp_path / "no-such-server"))),
    ]
    traffic = tmp_path / "traffic.jsonl"
    options = AppOptions(traffic_log=traffic, stderr_log=tmp_path / "stderr.log")
    app = McpTuiApp(servers, options)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["missing"].state is ConnectionState.FAILED, 50)
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY, 90)
        assert app.entries["missing"].detail
        await wait_for(pilot, lambda: bool(app.entries["demo"].tools), 20)
        await wait_until(lambda: catalog_has(app, "demo", "long_task"), pilot=pilot)
        await open_node(pilot, app, "demo", "long_task")
        await wait_for(pilot, lambda: mounted_screen(app, ArgumentsScreen) is not None)
        first = app.screen.query(Input).first()
        first.value = "0.3"  # duration in seconds
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: "Finished 6 steps in 0.3 s." in transcript_text(app, full=True), 50
        )
        logs = session_of(app).areas.logs
        await wait_for(pilot, lambda: "Task finished" in "".join(x.text for x in logs.lines), 20)
        assert '"duration": 0.3' in transcript_text(app, full=True)
        assert processes_with(marker), "the demo server should be running"
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, 50)
    assert processes_with(marker) == []
    lines = traffic.read_text().splitlines()
    assert any('"tools/call"' in line for line in lines)
    assert (tmp_path / "stderr.demo.log").exists()


@needs_proc
async def test_hostile_server_text_stays_literal(markup_calls: list[str]) -> None:
    marker = uuid.uuid4().hex
    server = python_server("evil", (str(HOSTILE_SERVER),), marker)
    app = McpTuiApp([server], AppOptions(stderr_log=Path(os.devnull)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.entries["evil"].state is ConnectionState.READY, 90)
        await wait_for(pilot, lambda: bool(app.entries["evil"].tools), 20)
        session_of(app).calls.call_tool("evil", "shout", {"text": "hi"})
        await wait_for(
            pilot,
            lambda: (
                "hi" in transcript_text(app, full=True)
                and "◀" in session_of(app).areas.transcript.entries[-1].summary.plain
            ),
            50,
        )
        await wait_for(pilot, lambda: session_of(app).areas.logs.lines_written >= 2, 20)
        await events_shown(pilot, app)
        screen = app.export_screenshot()
        for control in RAW_CONTROLS:
            assert control not in screen
        plain = "\n".join(e.summary.plain for e in session_of(app).areas.transcript.entries)
        assert "[@click=app.quit]q[/]" in plain and "\\e]0;pwned\\x07" in plain
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, 50)
    assert markup_calls == []
    assert processes_with(marker) == []
