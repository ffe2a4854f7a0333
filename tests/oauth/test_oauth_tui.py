"""Signing in through the TUI's screens: the URL consent screen, then the wait-or-paste screen.

A small host app runs a real ``ServerConnection`` (in a worker, as the app does) against the OAuth
fixture with :class:`TuiAuthorizationHandler`; Pilot plays the person. ``BROWSER`` points at the
follow-the-flow script, so Ctrl+S on the consent screen really opens the URL and the browser
really comes back to the loopback listener.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import pytest
from textual.app import App
from textual.widgets import Input

from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.elicitation import CancelAll
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.screens.sign_in import OAuthWaitScreen, TuiAuthorizationHandler
from mcp_tui.ui.screens.url_consent import Opener, UrlConsentScreen
from mcp_tui.url.browser import OpenResult
from mcp_tui.url.check import UrlVerdict
from tests.oauth.oauth_testkit import Recorder, load_fixture, use_fake_browser
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

fx = load_fixture("oauth_server")
WAIT = 30.0


class Host(App[None]):
    """Runs one connection in a worker with the TUI's authorization handler."""

    def __init__(self, url: str, opener: Opener | None = None) -> None:
        super().__init__()
        self.url = url
        self.handler = TuiAuthorizationHandler(self, **({"opener": opener} if opener else {}))
        self.conn: Any = None
        self.recorder = Recorder()

    def on_mount(self) -> None:
        from mcp_tui.session.connection import ServerConnection

        spec = ServerSpec("remote", HttpTarget(self.url), mode="legacy")
        self.conn = ServerConnection(
            spec, handler=CancelAll(), sink=self.recorder, authorization=self.handler
        )
        self.run_worker(self.conn.run(), exit_on_error=False)


async def until(pilot: Any, condition: Any, what: str) -> Any:
    return await wait_until(condition, WAIT, pilot=pilot, message=f"waiting for {what}")


def state(app: Host) -> ConnectionState | None:
    return app.conn.state if app.conn is not None else None


async def test_sign_in_through_the_consent_screen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server() as server:
        app = Host(server.url)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await until(
                pilot, lambda: isinstance(app.screen, UrlConsentScreen) and app.screen, "consent"
            )
            # The same checks as URL-mode elicitation: the verdict of exactly this URL.
            assert screen.verdict.allowed and screen.verdict.host == "127.0.0.1"
            assert screen.verdict.url.startswith(f"{server.base_url}/authorize?")
            assert "requires you to sign in" in screen.request.message
            assert browser.visits() == []  # nothing opened before the user says so
            await pilot.press("ctrl+s")
            await until(pilot, lambda: state(app) is ConnectionState.READY, "ready")
            assert not isinstance(app.screen, UrlConsentScreen | OAuthWaitScreen)
            await app.conn.close()
        assert len(browser.visits()) == 2
        assert server.provider.events[-1] == "token:authorization_code"


async def test_declining_on_the_consent_screen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server() as server:
        app = Host(server.url)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, UrlConsentScreen), "consent")
            await pilot.press("ctrl+r")
            await until(pilot, lambda: state(app) is ConnectionState.FAILED, "failed")
            assert "declined" in app.conn.detail
        assert browser.visits() == []
        assert "authorize" not in server.provider.events


async def no_browser(verdict: UrlVerdict) -> OpenResult:
    return OpenResult(False, verdict.url, error="no browser here")


async def test_paste_when_no_browser_opens(tmp_path: Path) -> None:
    async with fx.oauth_server() as server:
        app = Host(server.url, opener=no_browser)
        async with app.run_test(size=(100, 30)) as pilot:
            consent = await until(
                pilot, lambda: isinstance(app.screen, UrlConsentScreen) and app.screen, "consent"
            )
            await pilot.press("ctrl+s")  # tries to open: fails, the screen stays
            await until(pilot, lambda: consent.state == "failed", "the open failure")
            await pilot.press("ctrl+s")  # accept: "I open it myself"
            wait = await until(
                pilot, lambda: isinstance(app.screen, OAuthWaitScreen) and app.screen, "wait"
            )
            # The person opens the URL elsewhere; the browser ends on our redirect address.
            async with httpx2.AsyncClient() as http:
                location = (await http.get(consent.verdict.url)).headers["location"]
            field = wait.query_one("#oauth-paste", Input)
            field.value = location.replace("state=", "state=x")
            await pilot.press("enter")
            await until(pilot, lambda: wait.problems, "a refusal")
            assert "state" in wait.problems[-1]
            field.value = location
            await pilot.press("enter")
            await until(pilot, lambda: state(app) is ConnectionState.READY, "ready")
            await app.conn.close()


async def test_cancel_while_waiting(tmp_path: Path) -> None:
    async with fx.oauth_server() as server:
        app = Host(server.url, opener=no_browser)
        async with app.run_test(size=(100, 30)) as pilot:
            consent = await until(
                pilot, lambda: isinstance(app.screen, UrlConsentScreen) and app.screen, "consent"
            )
            await pilot.press("ctrl+s")
            await until(pilot, lambda: consent.state == "failed", "the open failure")
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, OAuthWaitScreen), "wait")
            await pilot.press("escape")
            await until(pilot, lambda: state(app) is ConnectionState.FAILED, "failed")
            assert "cancelled" in app.conn.detail
            assert not isinstance(app.screen, OAuthWaitScreen)
        assert "token:authorization_code" not in server.provider.events
