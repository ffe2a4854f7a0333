"""The real app signing in to an OAuth-protected server (no fakes between the app and the server).

The fixture is the SDK's own authorization server and resource server on a free 127.0.0.1 port
(``tests/oauth/fixtures/oauth_server.py``); ``BROWSER`` points at the follow-the-flow script, so
Ctrl+S on the consent screen really opens the authorization URL and the "browser" really comes
back to the app's loopback listener. What is checked is the app's wiring: ``McpTuiApp`` passes its
``TuiAuthorizationHandler`` to every connection, the consent screen appears, the server becomes
ready, a tool that needs the token answers, and quitting while the sign-in waits never hangs.
"""

from __future__ import annotations

import importlib.util
import shlex
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.sign_in import OAuthWaitScreen, TuiAuthorizationHandler
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from mcp_tui.url.browser import OpenResult
from mcp_tui.url.check import UrlVerdict
from tests.ui.app_testkit import make_app, open_node, session_of, wait_for

pytestmark = pytest.mark.anyio

OAUTH_FIXTURES = Path(__file__).resolve().parents[2] / "oauth" / "fixtures"


def load_oauth_server() -> ModuleType:
    """``tests/oauth/fixtures/oauth_server.py`` by path (the tests are not a package)."""
    key = "mcp_tui_oauth_fixture_oauth_server"  # the name tests/oauth uses: loaded once
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, OAUTH_FIXTURES / "oauth_server.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


@pytest.fixture
def browser_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Tokens go under ``tmp_path``; ``BROWSER`` follows the flow and logs what it visited."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in ("FOLLOW_TAMPER_STATE", "FOLLOW_SUBMIT", "FOLLOW_COOKIES"):
        monkeypatch.delenv(name, raising=False)
    script = OAUTH_FIXTURES / "follow_browser.py"
    monkeypatch.setenv("BROWSER", f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} %s")
    log = tmp_path / "browser.log"
    monkeypatch.setenv("FOLLOW_LOG", str(log))
    return log


def remote_app(url: str, tmp_path: Path) -> McpTuiApp:
    spec = ServerSpec("remote", HttpTarget(url), mode="legacy")
    return McpTuiApp([spec], AppOptions(stderr_log=tmp_path / "stderr.log"))


def summaries(app: McpTuiApp) -> list[str]:
    return [entry.summary.plain for entry in session_of(app).areas.transcript.entries]


async def no_browser(verdict: UrlVerdict) -> OpenResult:
    return OpenResult(False, verdict.url, error="no browser here")


async def test_the_app_signs_in_then_calls_a_tool(browser_log: Path, tmp_path: Path) -> None:
    fixture = load_oauth_server()
    async with fixture.oauth_server() as server:
        app = remote_app(server.url, tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, UrlConsentScreen), 90)
            consent = app.screen
            assert isinstance(consent, UrlConsentScreen)
            assert consent.verdict.allowed
            assert consent.verdict.url.startswith(f"{server.base_url}/authorize?")
            assert "requires you to sign in" in consent.request.message
            assert not browser_log.exists()  # nothing opened before the user says so
            assert app.entries["remote"].state is ConnectionState.CONNECTING
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: app.entries["remote"].state is ConnectionState.READY, 90)
            assert not isinstance(app.screen, UrlConsentScreen | OAuthWaitScreen)
            assert server.provider.events[-1] == "token:authorization_code"
            await wait_for(pilot, lambda: bool(app.entries["remote"].tools), 50)
            await open_node(pilot, app, "remote", "whoami")  # no arguments: Enter calls it
            await wait_for(pilot, lambda: summaries(app)[-1].startswith("◀ #1 remote"), 50)
            assert summaries(app)[-1].startswith("◀ #1 remote › whoami\nsigned in")
            await pilot.press("ctrl+q")
            await wait_for(pilot, lambda: not app.is_running, 50)
        assert len(browser_log.read_text().splitlines()) == 2  # /authorize, then our redirect


async def test_quitting_while_the_sign_in_waits_does_not_hang(
    browser_log: Path, tmp_path: Path
) -> None:
    fixture = load_oauth_server()
    async with fixture.oauth_server() as server:
        app = remote_app(server.url, tmp_path)
        # A browser that never opens: the user accepts anyway and the wait screen stays up.
        app.connections.auth_handler = TuiAuthorizationHandler(app, opener=no_browser)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, UrlConsentScreen), 90)
            consent = app.screen
            assert isinstance(consent, UrlConsentScreen)
            await pilot.press("ctrl+s")  # tries to open: fails, the screen stays
            await wait_for(pilot, lambda: consent.state == "failed", 50)
            await pilot.press("ctrl+s")  # "I open it myself"
            await wait_for(pilot, lambda: isinstance(app.screen, OAuthWaitScreen), 50)
            await pilot.press("ctrl+q")
            await wait_for(pilot, lambda: not app.is_running, 50)
        assert "token:authorization_code" not in server.provider.events
        assert not browser_log.exists()


async def test_every_connection_gets_the_apps_sign_in_handler() -> None:
    """Reconnecting builds a new connection with the same handler (one sign-in queue per app)."""
    app, factory = make_app(servers=("a", "b"))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: len(factory.made) == 2)
        handler = factory.made[0].authorization
        assert isinstance(handler, TuiAuthorizationHandler) and handler.app is app
        assert factory.made[1].authorization is handler
        app.reconnect("a")
        await wait_for(pilot, lambda: len(factory.made) == 3)
        assert factory.latest("a").authorization is handler
