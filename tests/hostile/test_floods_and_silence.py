"""Floods of stderr and log notifications; servers that never answer or refuse to stop.

Buffers stay bounded (the log panel keeps at most its line limit and says what it dropped), the
display is batched, keys keep working, and quitting ends every server process — even one that
ignores the end of its stdin and SIGTERM — within the close timeout.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Label

from mcp_tui.session.events import ConnectionState
from mcp_tui.session.stderr import DEFAULT_CAP_BYTES
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.widgets.session.running_calls import RunningCalls
from tests.hostile.hostile_kit import (
    HostileServer,
    assert_answers_keys,
    done,
    hostile,
    ready,
    session_of,
    transcript_text,
    wait_for,
)

pytestmark = pytest.mark.anyio

SLOW_TOOL = {"name": "slow", "inputSchema": {"type": "object", "properties": {}}}


def log_text(app: McpTuiApp) -> str:
    """The log panel's text with all whitespace removed (lines wrap wherever the width says)."""
    return "".join("".join(line.text for line in session_of(app).areas.logs.lines).split())


def flat(text: str) -> str:
    return "".join(text.split())


async def test_a_flood_of_log_notifications_and_stderr_stays_bounded(tmp_path: Path) -> None:
    log = {"level": "info", "logger": hostile("logger"), "data": hostile("log")}
    script = {
        "on_initialized": [
            {"log": log, "count": 3_000},
            {"stderr_bytes": DEFAULT_CAP_BYTES + 1024 * 1024},
            {"stderr": "after the flood"},
        ]
    }
    server = HostileServer(tmp_path, script)
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        logs = session_of(app).areas.logs
        limit_note = "stderr limit of 5 MiB reached; further output is discarded"
        await wait_for(pilot, lambda: limit_note in transcript_text(app), 90)
        await wait_for(pilot, lambda: not app._buffer.pending, 10)
        assert len(logs.lines) <= logs.max_lines
        text = log_text(app)
        assert flat("log lines dropped") in text
        assert flat("\\e]52;c;aGk=\\x07") in text and "\x1b" not in text
        # Written in batches: far fewer lines than the 3,000 notifications plus stderr lines.
        assert logs.lines_written < 3_000
        # What came after the cap is discarded, not shown; the server itself is fine.
        assert flat("after the flood") not in text
        assert app.entries["evil"].state is ConnectionState.READY
        await assert_answers_keys(pilot, app)
    log_file = tmp_path / "evil.stderr.log"
    assert log_file.stat().st_size < DEFAULT_CAP_BYTES + 64 * 1024


async def test_a_call_that_is_never_answered(tmp_path: Path) -> None:
    script = {"tools": [SLOW_TOOL], "results": {"slow": {"never": True}}}
    server = HostileServer(tmp_path, script)
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: bool(app.entries["evil"].tools), 20)
        session_of(app).calls.call_tool("evil", "slow", {})
        running = app.screen.query_one(RunningCalls)
        await wait_for(pilot, done(lambda: "slow" in str(running.query_one(Label).render())), 20)
        await assert_answers_keys(pilot, app)
        assert "#1 evil › slow" in transcript_text(app)
        # A call still runs: Ctrl+Q asks first, and a second Ctrl+Q answers "quit".
        await pilot.press("ctrl+q", "ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, 50)
    assert server.alive() == []


async def test_a_handshake_that_never_ends(tmp_path: Path) -> None:
    server = HostileServer(tmp_path, {"silent": ["initialize"]})
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: len(server.received()) >= 1, 30)
        assert app.entries["evil"].state is ConnectionState.CONNECTING
        assert "connecting" in app.sub_title
        await assert_answers_keys(pilot, app)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, 50)
    assert server.alive() == []


async def test_a_server_that_ignores_eof_and_sigterm_is_killed_on_quit(tmp_path: Path) -> None:
    server = HostileServer(tmp_path, {"ignore_eof": True, "ignore_term": True})
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        assert server.alive(), "the server should be running"
        await pilot.press("ctrl+q")
        # Closing says so at once, and the app stays drawn while it waits.
        await wait_for(pilot, lambda: any("Closing" in str(n.message) for n in app._notifications))
        # stdin closed, 2 s, SIGTERM (ignored), 2 s, SIGKILL: well inside this bound.
        await wait_for(pilot, lambda: not app.is_running, 60)
    assert server.alive() == []
