"""URL mode through the whole TUI on the real demo server, on both protocol eras.

The demo's `connect_account` and `list_files` send the user to a page the demo serves on
127.0.0.1. Here ``$BROWSER`` is a script that only records what it was asked to open, and the
test presses the page's button itself with plain HTTP, as the user would in a browser:

- 2025-11-25: `connect_account` asks with `elicitation/create` (URL mode, with an id) and the
  press sends `notifications/elicitation/complete`; `list_files` fails with -32042 until then,
  and the retry is offered once the page is finished; the same URL after a retry stops the loop.
- 2026-07-28: no -32042, no id, no notification: the URL request arrives in an
  `input_required` result, the SDK repeats the call, and that call waits for the page.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import urllib.request
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urljoin

import pytest
from msgspec.structs import replace
from textual.pilot import Pilot

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ProtocolMode
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from tests.ui.app.test_app_real import needs_proc, processes_with, python_server
from tests.ui.app_testkit import events_shown, session_of, transcript_text, wait_for

pytestmark = [pytest.mark.anyio, needs_proc]

LISTING = "Files in / of demo-user@example.com:"
CONNECTED = "Connected as demo-user@example.com."


@pytest.fixture
def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$BROWSER`` records each URL it is given (one JSON line) and opens nothing."""
    return recording_browser(tmp_path, monkeypatch)


def recording_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Set ``$BROWSER`` to a script that records each URL (one JSON line) and opens nothing;
    returns the record's path."""
    log = tmp_path / "browser.jsonl"
    script = tmp_path / "record-browser"
    script.write_text(
        f"#!{sys.executable}\nimport json, sys\n"
        f"open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    monkeypatch.setenv("BROWSER", str(script))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return log


def browser_calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def press_page(url: str) -> str:
    """What the user does in the browser: open the page, press "Connect account"."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, no proxy
    with opener.open(url, timeout=10) as page:
        html = page.read().decode()
    action = re.search(r"<form method='post' action='([^']+)'>", html)
    assert action is not None, html
    with opener.open(urllib.request.Request(urljoin(url, action.group(1)), b""), timeout=10) as r:
        return str(r.read().decode())


@asynccontextmanager
async def demo_app(mode: ProtocolMode) -> AsyncIterator[tuple[McpTuiApp, Pilot[None]]]:
    marker = uuid.uuid4().hex
    spec = python_server("demo", ("-m", "mcp_tui.demo"), marker)
    app = McpTuiApp([replace(spec, mode=mode)], AppOptions())
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY, 90)
        await wait_for(pilot, lambda: bool(app.entries["demo"].tools), 30)
        yield app, pilot
    assert processes_with(marker) == []


async def consent(app: McpTuiApp, pilot: Pilot[None]) -> str:
    """Wait for the consent screen, accept with Ctrl+S; returns the URL it showed."""
    await wait_for(pilot, lambda: isinstance(app.screen, UrlConsentScreen), 50)
    screen = app.screen
    assert isinstance(screen, UrlConsentScreen)
    url = screen.verdict.url
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: not isinstance(app.screen, UrlConsentScreen), 50)
    return url


async def test_connect_account_2025_waits_until_the_server_completes(opened: Path) -> None:
    async with demo_app("legacy") as (app, pilot):
        session_of(app).calls.call_tool("demo", "connect_account", {})
        url = await consent(app, pilot)
        assert browser_calls(opened) == [[url]]
        await wait_for(pilot, lambda: bool(app.url_waits.waiting), 30)
        wait = app.url_waits.waiting[0]
        assert wait.elicitation_id and wait.request.tool == "connect_account"
        assert "Connected" in await asyncio.to_thread(press_page, url)
        await wait_for(pilot, lambda: CONNECTED in transcript_text(app, full=True), 50)
        # The notification comes through the batched events, the result through the call.
        await wait_for(pilot, lambda: not app.url_waits.waiting, 20)
        assert wait.state == "completed"
        assert f"completed elicitation {wait.elicitation_id}" in transcript_text(app, full=True)


async def test_list_files_2025_32042_retry_after_the_page_is_pressed(opened: Path) -> None:
    async with demo_app("legacy") as (app, pilot):
        session_of(app).calls.call_tool("demo", "list_files", {"folder": "/"})
        url = await consent(app, pilot)
        await wait_for(pilot, lambda: bool(app.url_waits.waiting), 30)
        assert "-32042" in transcript_text(app, full=True)
        await events_shown(pilot, app)
        assert not isinstance(app.screen, ConfirmScreen)  # not before the page is finished
        await asyncio.to_thread(press_page, url)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 50)
        await pilot.press("y")
        await wait_for(pilot, lambda: LISTING in transcript_text(app, full=True), 50)
        assert browser_calls(opened) == [[url]]


async def test_list_files_2025_same_url_after_retry_stops(opened: Path) -> None:
    async with demo_app("legacy") as (app, pilot):
        session_of(app).calls.call_tool("demo", "list_files", {})
        url = await consent(app, pilot)
        await wait_for(pilot, lambda: bool(app.url_waits.waiting), 30)
        await pilot.press("d")  # "done", without pressing the page
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 30)
        await pilot.press("y")
        await wait_for(pilot, lambda: "not retried" in transcript_text(app, full=True), 50)
        assert "asked for the same page again" in transcript_text(app, full=True)
        assert url in transcript_text(app, full=True)
        await events_shown(pilot, app)
        assert not isinstance(app.screen, (ConfirmScreen, UrlConsentScreen))
        assert browser_calls(opened) == [[url]]  # opened once, not again


@pytest.mark.parametrize("tool", ["list_files", "connect_account"])
async def test_2026_the_url_comes_in_input_required_and_the_call_waits(
    opened: Path, tool: str
) -> None:
    async with demo_app("2026-07-28") as (app, pilot):
        assert app.entries["demo"].info is not None
        assert app.entries["demo"].info.protocol_version == "2026-07-28"
        session_of(app).calls.call_tool("demo", tool, {})
        url = await consent(app, pilot)
        await wait_for(pilot, lambda: bool(app.url_waits.waiting), 30)
        wait = app.url_waits.waiting[0]
        assert wait.elicitation_id is None and wait.request.call_id is not None
        assert [e for e in session_of(app).areas.transcript.entries if e.kind == "error"] == []
        await asyncio.to_thread(press_page, url)
        expected = LISTING if tool == "list_files" else CONNECTED
        await wait_for(pilot, lambda: expected in transcript_text(app, full=True), 50)
        await wait_for(pilot, lambda: not app.url_waits.waiting, 10)
        assert wait.state == "call_ended"
        assert browser_calls(opened) == [[url]]
