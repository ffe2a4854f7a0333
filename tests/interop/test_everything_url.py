"""server-everything's ``trigger-url-elicitation``: the request path and the -32042 path (issue 5).

``$BROWSER`` is a recording script and there is no display, so nothing real can ever open; the
recording proves nothing was opened before Ctrl+S, and exactly the URL shown after it.

The request path runs through the whole app (``--call``). For the -32042 path the app's retry flow
is not what is under test: the session's ``ServerConnection`` makes the call, and its
``url_elicitations`` are answered through the real ``TuiElicitationHandler`` and consent screen
(inside a bare Textual app), then the call is retried, as the issue describes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.worker import Worker

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.events import CallOutcome, SessionEvent
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.app.elicitation_handler import TuiElicitationHandler
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from tests.interop.interop_peers import EVERYTHING_JS, LOOPBACK_PRELOAD, NODE
from tests.interop.tui_driver import (
    elicitation_answers,
    everything_raw_result,
    quit_app,
    tool_results,
    wait_for,
)

pytestmark = [pytest.mark.interop, pytest.mark.anyio]

TOOL = "trigger-url-elicitation"
URL = "https://example.com/connect?account=ada&step=2"
PREREQUISITE = "https://modelcontextprotocol.io"  # what server-everything's -32042 asks for


class Browser:
    """A ``$BROWSER`` stand-in that records every URL it is asked to open."""

    def __init__(self, directory: Path) -> None:
        self.log = directory / "opened.jsonl"
        self.script = directory / "record-browser"
        self.script.write_text(
            f"#!{sys.executable}\nimport json, sys\n"
            f"with open({str(self.log)!r}, 'a', encoding='utf-8') as f:\n"
            "    f.write(json.dumps(sys.argv[1:]) + '\\n')\n",
            encoding="utf-8",
        )
        self.script.chmod(0o755)

    def opened(self) -> list[list[str]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text("utf-8").splitlines()]


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Browser:
    recorder = Browser(tmp_path)
    monkeypatch.setenv("BROWSER", str(recorder.script))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return recorder


def everything() -> ServerSpec:
    target = StdioTarget(str(NODE), ("-r", str(LOOPBACK_PRELOAD), str(EVERYTHING_JS), "stdio"))
    return ServerSpec(name="everything", target=target)


def build_app(tmp_path: Path, arguments: dict[str, Any]) -> McpTuiApp:
    options = AppOptions(
        call=ToolCallRequest(TOOL, arguments),
        traffic_log=tmp_path / "traffic.jsonl",
        stderr_log=tmp_path / "stderr.log",
    )
    return McpTuiApp([everything()], options)


async def test_request_path_opens_exactly_the_shown_url_only_after_ctrl_s(
    peers: None, tmp_path: Path, browser: Browser
) -> None:
    app = build_app(tmp_path, {"url": URL, "message": "Connect your account"})
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, UrlConsentScreen) and app.screen, "consent"
        )
        assert screen.request.url == URL
        assert screen.request.elicitation_id  # 2025-11-25: the server's id, kept for completion
        # Settled (mounted, a control focused, its messages handled) before checking.
        await wait_for(pilot, lambda: screen.is_mounted and app.focused is not None, "focus")
        await pilot.pause()
        assert browser.opened() == []  # nothing opens before Ctrl+S
        await pilot.press("ctrl+s")
        responses = await wait_for(pilot, lambda: tool_results(log, TOOL), "the tool result")
        await quit_app(pilot)

    assert browser.opened() == [[URL]]
    [sent] = elicitation_answers(log)
    assert sent["result"] == {"action": "accept"}  # URL mode: consent only, no content
    assert everything_raw_result(responses[0]) == {"action": "accept"}


async def test_request_path_decline_opens_nothing(
    peers: None, tmp_path: Path, browser: Browser
) -> None:
    app = build_app(tmp_path, {"url": URL})
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, UrlConsentScreen), "consent")
        await pilot.press("ctrl+r")
        responses = await wait_for(pilot, lambda: tool_results(log, TOOL), "the tool result")
        await quit_app(pilot)

    assert browser.opened() == []
    assert everything_raw_result(responses[0]) == {"action": "decline"}


class Host(App[None]):
    """A bare Textual app: the elicitation handler and its screens need one to show in."""


async def test_error_path_32042_consent_then_retry(
    peers: None, tmp_path: Path, browser: Browser
) -> None:
    events: list[SessionEvent] = []
    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        handler = TuiElicitationHandler(app)
        connection = ServerConnection(
            everything(), handler=handler, sink=events.append, stderr_log=tmp_path / "err.log"
        )
        app.run_worker(connection.run(), exit_on_error=False)
        ready = app.run_worker(connection.wait_ready(60), exit_on_error=False)
        assert await wait_for(pilot, lambda: ready.is_finished and ready.result, "connected")

        arguments = {"url": URL, "errorPath": True}
        first: Worker[CallOutcome] = app.run_worker(connection.call_tool(TOOL, arguments))
        outcome = await wait_for(pilot, lambda: first.is_finished and first.result, "-32042")
        assert outcome.error_code == -32042, outcome
        [request] = outcome.url_elicitations
        assert (request.mode, request.url, request.server) == ("url", PREREQUISITE, "everything")
        assert request.elicitation_id
        assert request.tool == TOOL

        # Shown through the same consent screen; opened only on Ctrl+S.
        shown: Worker[ElicitationOutcome] = app.run_worker(handler.elicit(request))
        await wait_for(pilot, lambda: isinstance(app.screen, UrlConsentScreen), "consent")
        assert browser.opened() == []
        await pilot.press("ctrl+s")
        answer = await wait_for(pilot, lambda: shown.is_finished and shown.result, "accept")
        assert answer.action == "accept"
        assert browser.opened() == [[PREREQUISITE]]

        # The retry: server-everything now takes the request path and asks for URL itself.
        retry: Worker[CallOutcome] = app.run_worker(connection.call_tool(TOOL, arguments))
        screen = await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, UrlConsentScreen)
                and app.screen.request.url == URL
                and app.screen
            ),
            "the retry's consent screen",
        )
        assert screen.request.tool == TOOL
        await pilot.press("ctrl+s")
        final = await wait_for(pilot, lambda: retry.is_finished and retry.result, "the result")
        await connection.close()

    assert final.error is None and not final.is_error, final
    assert browser.opened() == [[PREREQUISITE], [URL]]
    text = "\n".join(item.text or "" for item in final.items)
    assert "User completed the URL elicitation flow" in text
