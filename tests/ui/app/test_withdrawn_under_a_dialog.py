"""A request the server withdraws while something is open over its screen.

Textual's ``Screen.dismiss`` pops the top screen, whichever it is. A form withdrawn while the
person had "Cancel this request?" (or the help screen) open over it closed the dialog instead and
stayed on screen, answered, deaf to every key. Now the form leaves the stack wherever it is, with
the dialogs it opened itself; any other screen over it (the help) stays where it is, the next
request gets its own screen, and closing a screen the app already took away raises nothing (the
sampling screen did, when a connection ended while the app was closing)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.app import App
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest
from mcp_tui.ui.app.elicitation_handler import TuiElicitationHandler
from mcp_tui.ui.app.help import HelpScreen
from mcp_tui.ui.closing import close_wherever, open_dialog
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from tests.ui.app.test_elicitation_handler import SIZE, Host, form_request, url_request
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

REQUEST_SCREENS = (ElicitationScreen, UrlConsentScreen, SamplingScreen)


def request_screens(app: App[Any]) -> list[Screen[Any]]:
    return [s for s in app.screen_stack if isinstance(s, REQUEST_SCREENS)]


async def withdraw(pilot: Any, task: asyncio.Task[Any], left: int = 1) -> None:
    """What the SDK does on ``notifications/cancelled`` or a dead connection; ``left`` screens
    stay (the base one, and whatever was not the request's own)."""
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    app = pilot.app
    await wait_until(
        lambda: len(app.screen_stack) == left,
        pilot=pilot,
        message=f"closed {app.screen_stack}",
    )


async def help_stays_then_closes(pilot: Any) -> None:
    """The help screen opened over the request is not the request's: it stays, focused."""
    app = pilot.app
    assert isinstance(app.screen, HelpScreen) and app.focused is not None
    assert app.focused.screen is app.screen
    await pilot.press("escape")
    await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)


async def the_next_request_still_works(pilot: Any, handler: TuiElicitationHandler) -> None:
    nxt = asyncio.create_task(handler.elicit(form_request("next")))
    app = pilot.app
    await wait_until(lambda: isinstance(app.screen, ElicitationScreen), pilot=pilot)
    await pilot.press(*"Ada", "ctrl+s")
    assert await asyncio.wait_for(nxt, 10) == ElicitationOutcome("accept", {"name": "Ada"})


async def test_a_form_withdrawn_under_its_cancel_question_closes_with_it() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        task = asyncio.create_task(handler.elicit(form_request("withdrawn")))
        await wait_until(lambda: isinstance(app.screen, ElicitationScreen), pilot=pilot)
        await pilot.press(*"half", "escape")
        await wait_until(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
        await withdraw(pilot, task)
        assert request_screens(app) == []
        await the_next_request_still_works(pilot, handler)
    assert [m.outcome.action for m in app.finished] == ["cancel", "accept"]
    assert app.finished[0].abandoned_input == {"name": "half"}


async def test_a_url_request_withdrawn_under_the_help_screen_leaves_the_help_open() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        task = asyncio.create_task(handler.elicit(url_request()))
        await wait_until(lambda: isinstance(app.screen, UrlConsentScreen), pilot=pilot)
        await app.push_screen(HelpScreen())
        await withdraw(pilot, task, left=2)
        assert request_screens(app) == []
        await help_stays_then_closes(pilot)
        await the_next_request_still_works(pilot, handler)


async def test_a_sampling_request_withdrawn_under_another_screen_leaves_that_screen() -> None:
    app = Host()
    request = SamplingRequest(
        "alpha", (SamplingMessage("user", (SamplingPart("text", "Say hi"),)),), max_tokens=10
    )
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        task = asyncio.create_task(handler.sample(request))
        await wait_until(lambda: isinstance(app.screen, SamplingScreen), pilot=pilot)
        await app.push_screen(HelpScreen())
        await withdraw(pilot, task, left=2)
        assert request_screens(app) == []
        await help_stays_then_closes(pilot)
        await the_next_request_still_works(pilot, handler)


class Plain(App[None]):
    def compose(self) -> Any:
        yield Static("base")


class Dialog(ModalScreen[str]):
    def compose(self) -> Any:
        yield Static(self.name or "")


async def test_close_wherever_takes_out_the_screen_and_its_own_dialogs_only() -> None:
    app = Plain()
    answers: list[tuple[str, str | None]] = []
    async with app.run_test() as pilot:

        def answer(name: str) -> Any:
            return lambda result: answers.append((name, result))

        below, own, other = Dialog(name="below"), Dialog(name="own"), Dialog(name="other")
        await app.push_screen(below, callback=answer("below"))
        open_dialog(below, own, answer("own"))  # below's question
        await app.push_screen(other, callback=answer("other"))  # someone else's, over both
        await wait_until(lambda: app.screen is other and other.is_mounted, pilot=pilot)
        close_wherever(below, "withdrawn")
        close_wherever(below, "twice")  # a second closing at once takes out nothing more
        await wait_until(lambda: not below.is_attached and not own.is_attached, pilot=pilot)
        assert app.screen_stack[1:] == [other] and app.screen is other
        assert answers == [("own", None), ("below", "withdrawn")]
        close_wherever(other, "done")  # on top: a plain dismiss
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
    assert answers[-1] == ("other", "done")


async def test_close_wherever_closes_its_own_dialog_on_top_too() -> None:
    app = Plain()
    answers: list[tuple[str, str | None]] = []
    async with app.run_test() as pilot:
        below, own = Dialog(name="below"), Dialog(name="own")
        await app.push_screen(below, callback=lambda r: answers.append(("below", r)))
        open_dialog(below, own, lambda r: answers.append(("own", r)))
        await wait_until(lambda: app.screen is own, pilot=pilot)
        close_wherever(below, "withdrawn")
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
        await wait_until(lambda: len(answers) == 2, pilot=pilot)
        assert not isinstance(app.screen, Dialog)
    assert sorted(answers) == [("below", "withdrawn"), ("own", None)]


async def test_close_wherever_on_the_top_screen_is_a_plain_dismiss() -> None:
    app = Plain()
    answers: list[str | None] = []
    async with app.run_test() as pilot:
        await app.push_screen(Dialog(name="one"), callback=answers.append)
        close_wherever(app.screen, "done")
        await wait_until(lambda: answers, pilot=pilot)
        assert len(app.screen_stack) == 1
    assert answers == ["done"]


async def test_close_wherever_leaves_a_screen_already_gone_alone() -> None:
    app = Plain()
    async with app.run_test() as pilot:
        gone = Dialog(name="gone")
        await app.push_screen(gone)
        await app.pop_screen()
        close_wherever(gone, "late")  # Textual's dismiss would pop the base screen: it raised
        close_wherever(app.screen, "base")  # never the last screen
        await pilot.pause()
        assert len(app.screen_stack) == 1


async def test_a_form_withdrawn_while_its_screen_is_being_mounted_closes_too() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        task = asyncio.create_task(handler.elicit(form_request("at once")))

        async def pushed() -> Screen[Any]:
            while handler.current_screen is None:  # every turn of the loop, not a poll's
                await asyncio.sleep(0)
            return handler.current_screen

        screen = await asyncio.wait_for(pushed(), 10)
        assert not screen.is_mounted  # the window this test is about
        await withdraw(pilot, task)
        assert request_screens(app) == []
        await the_next_request_still_works(pilot, handler)
    assert [m.outcome.action for m in app.finished] == ["cancel", "accept"]


def test_the_textual_private_names_closing_uses_are_still_there() -> None:
    """``ui/closing.py`` is the one place that reaches into Textual: each private name it
    uses is pinned here, so a Textual upgrade that renames one fails this test by name instead of
    a withdrawn request failing in front of a user."""
    import inspect

    import textual._context

    assert issubclass(textual._context.NoActiveAppError, RuntimeError)
    assert isinstance(inspect.getattr_static(App, "_screen_stack"), property)
    assert inspect.iscoroutinefunction(App._replace_screen)
    assert list(inspect.signature(App._replace_screen).parameters) == ["self", "screen"]
    assert callable(Screen._pop_result_callback)
    app = Plain()
    assert app._exit is False
    screen = Dialog()
    assert screen._result_callbacks == []
    assert (screen._pruning, screen._closing, screen._closed) == (False, False, False)


async def test_a_screen_taken_out_from_under_another_is_unmounted_and_its_workers_cancelled() -> (
    None
):
    """``_take_out`` must do what ``App.pop_screen`` does for the top screen: the screen leaves
    the DOM (its ``Unmount`` runs) and a worker it started (a request it was waiting on) is
    cancelled, not left running for a screen nobody sees."""
    from textual.worker import WorkerState

    unmounted: list[str] = []

    class Working(Dialog):
        def on_mount(self) -> None:
            self.run_worker(asyncio.Event().wait(), name="forever")

        def on_unmount(self) -> None:
            unmounted.append(self.name or "")

    app = Plain()
    async with app.run_test() as pilot:
        below, other = Working(name="below"), Dialog(name="other")
        await app.push_screen(below)
        await wait_until(lambda: any(w.name == "forever" for w in below.workers), pilot=pilot)
        worker = next(w for w in below.workers if w.name == "forever")
        await app.push_screen(other)
        close_wherever(below, "withdrawn")
        await wait_until(lambda: unmounted == ["below"], pilot=pilot, message="not unmounted")
        await wait_until(lambda: worker.state is WorkerState.CANCELLED, pilot=pilot)
        assert not below.is_attached and app.screen is other
        assert below not in app.screen_stack
