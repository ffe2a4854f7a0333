"""Every screen that answers a server arms before it accepts (``screens/arming``), not only the
URL consent (``tests/url/test_consent_arming.py``): the elicitation form, the sampling review and
the -32042 "Retry now?" question ignore their accepting keys and buttons at 0 ms and 50 ms after
they appeared and take them after the delay; decline, cancel and "no" act at once. The delay is
measured on a clock the test moves (``arming_clock``); what the server would receive is what the
screen is dismissed with.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Button, Input, Static, TextArea

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest
from mcp_tui.ui.screens.arming import ArmedScreen
from mcp_tui.ui.screens.confirm import ArmedConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from tests.ui.burst_keys import burst
from tests.waits import wait_until

pytestmark = pytest.mark.anyio


class Host(App[None]):
    """Pushes one screen when told to (``show``) and keeps what it was dismissed with."""

    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make
        self.answers: list[object] = []

    def compose(self) -> ComposeResult:
        yield Static("session")

    def show(self) -> Screen[Any]:
        screen: Screen[Any] = self.make()
        self.push_screen(screen, self.answers.append)
        return screen


async def appeared(pilot: Any, screen: ArmedScreen) -> None:
    await wait_until(lambda: screen.shown, pilot=pilot, message="the screen shown")
    await pilot.pause()


def form_screen() -> ElicitationScreen:
    field = FieldSpec("name", FieldKind.TEXT, "Name")
    request = ElicitationRequest("alpha", "Your name?", "form", form=FormSpec((field,)))
    return ElicitationScreen(request)


def sampling_screen() -> SamplingScreen:
    message = SamplingMessage("user", (SamplingPart("text", "Say hi"),))
    return SamplingScreen(SamplingRequest(server="alpha", messages=(message,), max_tokens=10))


def retry_screen() -> ArmedConfirmScreen:
    return ArmedConfirmScreen("Retry book?", "The page is finished.", yes="Retry now", danger=False)


async def test_a_form_takes_ctrl_s_only_once_armed(arming_clock: Any) -> None:
    app = Host(form_screen)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.show()
        assert isinstance(screen, ElicitationScreen)
        burst(app, "ctrl+s")  # 0 ms: before it appeared
        await appeared(pilot, screen)
        accept = screen.query_one("#elicitation-accept", Button)
        assert accept.disabled and accept.has_class("-arming")
        assert "ctrl+s" in screen.active_bindings  # shown in the footer...
        assert screen.check_action("accept", ()) is None  # ...disabled
        await pilot.press(*"Ada")
        arming_clock.advance(0.05)
        await pilot.press("ctrl+s")
        await pilot.click("#elicitation-accept")
        await pilot.pause()
        assert app.answers == [] and app.screen is screen
        arming_clock.advance(0.6)
        screen.update_arming()
        await pilot.pause()
        assert not accept.disabled and not accept.has_class("-arming")
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.answers, pilot=pilot)
    assert [(a.action, a.content) for a in app.answers] == [("accept", {"name": "Ada"})]


async def test_the_first_key_typed_after_the_first_frame_lands_on_a_slow_loop(
    arming_clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A form appeared when its first frame was written, not when the loop next got round to
    its callbacks: here Textual's after-refresh callbacks come 0.3 s late (a loaded machine), and
    a key the terminal reads meanwhile (from another thread, as Textual's input thread does) is
    the person's answer to the form they see; a key read before the frame is not."""
    app = Host(form_screen)
    slowed, typed = threading.Event(), threading.Event()
    callbacks = Screen._invoke_and_clear_callbacks

    async def late_callbacks(screen: Screen[Any]) -> None:
        if isinstance(screen, ElicitationScreen) and not slowed.is_set():
            slowed.set()
            typed.wait(5)  # the loop is busy; the terminal reads a key meanwhile
        await callbacks(screen)

    monkeypatch.setattr(Screen, "_invoke_and_clear_callbacks", late_callbacks)

    def terminal() -> None:  # types "b" once the form is on screen and the loop is slow
        if slowed.wait(10):
            time.sleep(0.3)
            burst(app, "b")
        typed.set()

    async with app.run_test(size=(80, 24)) as pilot:
        reader = threading.Thread(target=terminal, daemon=True)
        reader.start()
        screen = app.show()
        assert isinstance(screen, ElicitationScreen)
        burst(app, "a")  # read before the form's first frame: never reaches it
        await appeared(pilot, screen)
        reader.join(10)
        field = screen.query_one("#field-0-control", Input)
        await wait_until(lambda: field.value == "b", pilot=pilot, message="b typed in the field")
        await pilot.press("c")
    assert field.value == "bc"


@pytest.mark.parametrize(("key", "action"), [("ctrl+r", "decline"), ("escape", "cancel")])
async def test_a_form_declines_and_cancels_at_once(
    arming_clock: Any, key: str, action: str
) -> None:
    app = Host(form_screen)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.show()
        assert isinstance(screen, ElicitationScreen)
        await appeared(pilot, screen)
        await pilot.press(key)
        await wait_until(lambda: app.answers, pilot=pilot)
    assert [a.action for a in app.answers] == [action]


async def test_the_sampling_review_sends_only_once_armed(arming_clock: Any) -> None:
    app = Host(sampling_screen)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.show()
        assert isinstance(screen, SamplingScreen)
        burst(app, *"early", "ctrl+s")  # before it appeared: never reach the reply box
        await appeared(pilot, screen)
        reply = screen.query_one("#sampling-reply", TextArea)
        assert reply.has_focus and reply.text == ""
        await pilot.press(*"hi")
        arming_clock.advance(0.05)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.answers == [] and screen.query_one("#sampling-accept", Button).disabled
        arming_clock.advance(0.6)
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.answers, pilot=pilot)
    [answer] = app.answers
    assert (answer.action, answer.text) == ("accept", "hi")  # type: ignore[attr-defined]


async def test_the_sampling_review_declines_at_once(arming_clock: Any) -> None:
    app = Host(sampling_screen)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.show()
        assert isinstance(screen, SamplingScreen)
        await appeared(pilot, screen)
        await pilot.press("ctrl+r")
        await wait_until(lambda: app.answers, pilot=pilot)
    assert [a.action for a in app.answers] == ["decline"]  # type: ignore[attr-defined]


async def test_the_retry_question_takes_yes_only_once_armed(arming_clock: Any) -> None:
    app = Host(retry_screen)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.show()
        assert isinstance(screen, ArmedConfirmScreen)
        burst(app, "y", "enter")  # before it appeared
        await appeared(pilot, screen)
        yes = screen.query_one("#confirm-yes", Button)
        assert yes.disabled and screen.focused is None
        arming_clock.advance(0.05)
        await pilot.press("y")
        await pilot.press("enter")
        await pilot.pause()
        assert app.answers == []
        arming_clock.advance(0.6)
        screen.update_arming()
        await pilot.pause()
        assert not yes.disabled and screen.focused is yes  # Enter alone now retries
        await pilot.press("enter")
        await wait_until(lambda: app.answers, pilot=pilot)
    assert app.answers == [True]


async def test_the_retry_question_says_no_at_once(arming_clock: Any) -> None:
    app = Host(retry_screen)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.show()
        await appeared(pilot, screen)  # type: ignore[arg-type]
        await pilot.press("n")
        await wait_until(lambda: app.answers, pilot=pilot)
    assert app.answers == [False]


def test_the_config_sets_the_delay() -> None:
    """``[app] arming_delay`` (``AppOptions.arming_delay``) is the delay the app's screens use;
    unset, the built-in stays (here the tests' 0)."""
    from mcp_tui.config.options import AppOptions
    from mcp_tui.ui.app import McpTuiApp
    from mcp_tui.ui.arming_delay import ARMING

    McpTuiApp([], AppOptions())
    assert ARMING.delay == 0
    McpTuiApp([], AppOptions(arming_delay=1.5))
    assert ARMING.delay == 1.5  # the conftest's monkeypatch puts it back after the test
