"""The sign-in wait-or-paste screen arms like every screen that answers a server
(``ui/screens/arming``): keys typed for the consent before it (a second Enter or Ctrl+S, text)
never land in its paste box or press "Use pasted address", and the pasted address is used only
once the screen has been on screen for the delay (a clock the test moves); Escape gives up at
once. The redirect is a stand-in that records what was pasted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input, Static

from mcp_tui.session.oauth.authorization import AuthorizationOutcome, AuthorizationRequest
from mcp_tui.ui.screens.sign_in import OAuthWaitScreen
from tests.ui.burst_keys import burst
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

URI = "http://127.0.0.1:33418/callback"
PASTED = URI + "?code=abc&state=s1"


class Redirect:
    """Never arrives by itself; takes any paste."""

    redirect_uri = URI
    refused: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.pasted: list[str] = []

    async def wait(self) -> Any:
        await asyncio.Event().wait()

    def paste(self, text: str) -> str | None:
        self.pasted.append(text)
        return None

    def on_refused(self, callback: Callable[[str], None]) -> None:
        pass


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.redirect = Redirect()
        self.outcomes: list[AuthorizationOutcome | None] = []

    def compose(self) -> Any:
        yield Static("session")

    def show(self) -> OAuthWaitScreen:
        request = AuthorizationRequest(
            "alpha", "http://a.test", "http://a.test/auth", self.redirect
        )
        screen = OAuthWaitScreen(request)
        self.push_screen(screen, self.outcomes.append)
        return screen


async def test_early_keys_never_reach_it_and_a_paste_counts_once_armed(arming_clock: Any) -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.show()
        burst(app, *"typed", "enter", "ctrl+s")  # before it appeared
        await wait_until(lambda: screen.shown, pilot=pilot, message="the screen shown")
        await pilot.pause()
        field = screen.query_one("#oauth-paste", Input)
        assert field.value == "" and screen.problems == []  # nothing landed, nothing said
        field.value = PASTED
        arming_clock.advance(0.05)
        await pilot.press("enter")
        await pilot.click("#oauth-use")
        await pilot.pause()
        assert app.redirect.pasted == [] and app.outcomes == []
        assert field.value == PASTED  # kept: nothing the person typed is lost
        arming_clock.advance(0.6)
        screen.update_arming()
        await pilot.press("enter")
        await wait_until(lambda: app.outcomes, pilot=pilot)
    assert app.redirect.pasted == [PASTED]
    assert [o.action for o in app.outcomes if o] == ["accept"]


async def test_escape_gives_up_at_once(arming_clock: Any) -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.show()
        await wait_until(lambda: screen.shown, pilot=pilot, message="the screen shown")
        await pilot.press("escape")
        await wait_until(lambda: app.outcomes, pilot=pilot)
    assert [o.action for o in app.outcomes if o] == ["cancel"]
