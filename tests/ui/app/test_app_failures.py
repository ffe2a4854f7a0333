"""What the person sees when a server fails, against a real ``mcp`` 2.3 server
(``tests/fixtures/failing_server.py``).

A call that failed while the server wrote a traceback says so in its transcript entry, naming the
exception (the SDK's answer is only "Error executing tool boom") and the keys that show the rest.
A server that crashes mid-call is reported with its exit status and only the stderr written
since the call started, never a line from an earlier call that reads as the cause.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from tests.ui.app_testkit import session_of, transcript_text, wait_for

pytestmark = pytest.mark.anyio

SERVER = Path(__file__).resolve().parents[2] / "fixtures" / "failing_server.py"


def _app(tmp_path: Path) -> McpTuiApp:
    spec = ServerSpec("failing", StdioTarget(sys.executable, (str(SERVER),)))
    return McpTuiApp([spec], AppOptions(stderr_log=tmp_path / "stderr.log"))


async def test_a_failed_call_names_the_exception_from_stderr(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        entry = app.entries["failing"]
        await wait_for(pilot, lambda: bool(entry.tools), 90)
        session_of(app).calls.call_tool("failing", "boom", {})
        await wait_for(pilot, lambda: "Error executing tool boom" in transcript_text(app), 50)
        await wait_for(pilot, lambda: "ValueError" in transcript_text(app), 10)
        summary = transcript_text(app)
        assert (
            "the server wrote to its stderr during the call: ValueError: the boom went off"
            in summary
        )
        assert "i: all of it · l: the log" in summary
        full = transcript_text(app, full=True)
        assert "UnexpectedToolError: Error executing" in full  # the rest is one key away


async def test_an_exception_line_the_servers_logging_wrapped_is_shown_whole(
    tmp_path: Path,
) -> None:
    """The SDK's Rich logging wraps a long exception line in its message column (80 columns
    when stderr is not a terminal): the excerpt read "ValueError: the booking service"."""
    what = "booking service refused the party size of 40: the restaurant seats twelve at most"
    env = {"COLUMNS": "80"}  # the width Rich wraps at, whatever the test runner's terminal
    spec = ServerSpec("failing", StdioTarget(sys.executable, (str(SERVER),), env=env))
    app = McpTuiApp([spec], AppOptions(stderr_log=tmp_path / "stderr.log"))
    async with app.run_test(size=(80, 24)) as pilot:
        entry = app.entries["failing"]
        await wait_for(pilot, lambda: bool(entry.tools), 90)
        session_of(app).calls.call_tool("failing", "boom", {"what": what})
        await wait_for(pilot, lambda: "ValueError" in transcript_text(app), 50)
        logged = (tmp_path / "stderr.log").read_text(encoding="utf-8")
        assert f"ValueError: the {what} went off" not in logged, "not wrapped: nothing shown"
        summary = transcript_text(app)
        assert f"during the call: ValueError: the {what} went off" in summary


async def test_a_crash_names_the_exit_status_and_only_this_calls_stderr(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        entry = app.entries["failing"]
        await wait_for(pilot, lambda: bool(entry.tools), 90)
        session = session_of(app)
        session.calls.call_tool("failing", "chatty", {})  # an earlier call writes to stderr
        await wait_for(pilot, lambda: "fine" in transcript_text(app), 50)
        session.calls.call_tool("failing", "crash", {})
        await wait_for(pilot, lambda: entry.state is ConnectionState.FAILED, 50)
        await wait_for(pilot, lambda: "exited with status 3" in transcript_text(app), 20)
        text = transcript_text(app, full=True)
        assert "the server exited with status 3 during the call" in text
        assert "The server exited with status 3." in (entry.detail or "")
        assert "about to exit: the disk is full" in (entry.detail or "")
        assert "chatty: an old line" not in (entry.detail or "")
        assert "-32000 (connection closed): Connection closed" not in text
