"""A URL consent takes no Ctrl+S before it has been on screen for a moment (``screens/arming``).

What the black-box run found: Ctrl+S about 50 ms after a URL consent appeared opened it, and a
double Ctrl+S meant for form A opened URL B, which had arrived 125 ms earlier and was never seen.
Here the arming delay is on (0.6 s) and measured on a clock the test moves (``arming_clock``), so
"0 ms", "50 ms" and "after the delay" are exact; the browser is the recording stand-in behind
``$BROWSER`` (``browser_env``): what it was handed is what a real one would have opened.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.app.elicitation_handler import TuiElicitationHandler
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from tests.ui.burst_keys import burst
from tests.url.conftest import Recorder
from tests.url.test_url_consent import URL, ConsentHost, consent, settle, url_request
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

SIZE = (80, 24)


class LaterHost(ConsentHost):
    """Pushes its consent only when told (``show``), so a test can type before it appears."""

    def on_mount(self) -> None:
        pass

    def show(self) -> None:
        self.push_screen(UrlConsentScreen(self.request), self.outcomes.append)


async def shown(pilot: Pilot[None], app: Any) -> UrlConsentScreen:
    """The consent once it has appeared (its first frame painted, earlier keys handled)."""
    await wait_until(
        lambda: isinstance(app.screen, UrlConsentScreen) and app.screen.shown,
        pilot=pilot,
        message="the consent shown",
    )
    screen = app.screen
    assert isinstance(screen, UrlConsentScreen)
    return screen


def open_button(screen: UrlConsentScreen) -> Button:
    return screen.query_one("#url-open", Button)


async def test_ctrl_s_at_0_ms_and_50_ms_is_ignored_after_the_delay_it_opens(
    browser_env: Recorder, arming_clock: Any
) -> None:
    app = LaterHost(url_request())
    async with app.run_test(size=SIZE) as pilot:
        app.show()
        burst(app, "ctrl+s")  # 0 ms: typed as the screen was pushed, before it appeared
        screen = await shown(pilot, app)
        await pilot.pause()
        assert app.outcomes == [] and screen.state == "asking"
        # The accept button and key say they are arming.
        assert open_button(screen).disabled and open_button(screen).has_class("-arming")
        assert screen.check_action("accept", ()) is None  # the footer shows it, disabled
        arming_clock.advance(0.05)  # 50 ms
        await pilot.press("ctrl+s")
        await pilot.click("#url-open")
        await pilot.press("enter")
        await pilot.pause()
        assert app.outcomes == [] and screen.state == "asking"
        assert browser_env.calls() == []
        arming_clock.advance(0.6)  # 650 ms: the delay is over
        screen.update_arming()
        await pilot.pause()
        assert not open_button(screen).disabled and not open_button(screen).has_class("-arming")
        assert screen.check_action("accept", ()) is True
        await pilot.press("ctrl+s")
        await settle(pilot, app)
    assert browser_env.calls() == [[URL]]  # once, and exactly the URL shown
    assert [o.action for o in app.outcomes if o] == ["accept"]


@pytest.mark.parametrize(("key", "action"), [("ctrl+r", "decline"), ("escape", "cancel")])
async def test_decline_and_cancel_act_at_once(
    browser_env: Recorder, arming_clock: Any, key: str, action: str
) -> None:
    app = ConsentHost(url_request())
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, app)
        arming_clock.advance(0.05)
        await pilot.press(key)
        await wait_until(lambda: app.outcomes, pilot=pilot, message="the answer")
    assert browser_env.calls() == []
    assert [o.action for o in app.outcomes if o] == [action]


async def test_keys_typed_before_the_consent_appeared_never_reach_it(
    browser_env: Recorder, arming_clock: Any
) -> None:
    """Escape, Ctrl+R and Tab Enter typed before it appeared (meant for what was there before)
    neither cancel, decline nor press a button: the consent stays, unanswered."""
    app = LaterHost(url_request())
    async with app.run_test(size=SIZE) as pilot:
        app.show()
        burst(app, "tab", "enter", "ctrl+r", "escape")
        screen = await shown(pilot, app)
        await pilot.pause()
        arming_clock.advance(1.0)
        screen.update_arming()
        await pilot.pause()
        assert app.outcomes == [] and app.screen is screen
        await pilot.press("ctrl+r")  # typed now: acts
        await wait_until(lambda: app.outcomes, pilot=pilot, message="the answer")
    assert browser_env.calls() == []
    assert [o.action for o in app.outcomes if o] == ["decline"]


NAME = FieldSpec("name", FieldKind.TEXT, "Name")


async def test_a_double_ctrl_s_meant_for_a_form_does_not_open_the_url_behind_it(
    browser_env: Recorder, arming_clock: Any
) -> None:
    """Form A, then URL B queued behind it: Ctrl+S Ctrl+S sends A, and B, which appeared after
    the second Ctrl+S was typed, is neither opened nor answered; it opens on a Ctrl+S once armed.
    What the server receives is each ``elicit`` call's outcome."""
    app = ConsentHost(url_request())  # a host app; the handler pushes its own screens over it
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        handler = TuiElicitationHandler(app)
        form = asyncio.create_task(
            handler.elicit(ElicitationRequest("alpha", "one", "form", form=FormSpec((NAME,))))
        )
        await wait_until(
            lambda: isinstance(app.screen, ElicitationScreen) and app.screen.shown, pilot=pilot
        )
        url = asyncio.create_task(
            handler.elicit(
                ElicitationRequest("alpha", "Sign in", "url", url=URL, elicitation_id="e1")
            )
        )
        await pilot.pause()
        arming_clock.advance(1.0)  # the form has been seen
        burst(app, *"Ada", "ctrl+s", "ctrl+s")
        await wait_until(form.done, pilot=pilot, message="the form sent")
        screen = await shown(pilot, app)
        await pilot.pause()
        assert not url.done() and screen.state == "asking"
        assert browser_env.calls() == []
        arming_clock.advance(0.7)
        await pilot.press("ctrl+s")
        await wait_until(url.done, pilot=pilot, message="the URL answered")
    assert form.result() == ElicitationOutcome("accept", {"name": "Ada"})
    assert url.result().action == "accept"
    assert browser_env.calls() == [[URL]]


async def test_uncovered_it_arms_again(browser_env: Recorder, arming_clock: Any) -> None:
    """A screen shown again after something covered it (here the help) is newly shown."""
    from mcp_tui.ui.screens.confirm import ConfirmScreen

    app = ConsentHost(url_request())
    async with app.run_test(size=SIZE) as pilot:
        screen = await shown(pilot, app)
        arming_clock.advance(1.0)
        screen.update_arming()
        assert screen.armed
        app.push_screen(ConfirmScreen("Something else?", "A dialog over the consent."))
        await wait_until(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
        await pilot.press("n")
        await shown(pilot, app)
        assert not screen.armed and open_button(screen).disabled
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert browser_env.calls() == [] and app.outcomes == []
        assert consent(app) is screen
