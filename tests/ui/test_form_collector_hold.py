"""The collector waits while a form is built, until its first frame (``collector_hold``)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest
from textual.app import App

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui import collector_hold
from mcp_tui.ui.collector_hold import CollectorHold, holds
from mcp_tui.ui.elicitation_handler import TuiElicitationHandler
from mcp_tui.ui.messages import ElicitationFinished, ElicitationShown
from mcp_tui.ui.screens.elicitation import ElicitationScreen

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    assert holds() == 0, "a hold was left behind"
    if not was:
        gc.disable()


def test_holds_nest_and_release_once() -> None:
    first, second = CollectorHold(), CollectorHold()
    assert not gc.isenabled() and holds() == 2
    first.release()
    first.release()  # idempotent: does not end the other hold
    assert not gc.isenabled() and holds() == 1
    second.release()
    assert gc.isenabled() and holds() == 0 and first.released


def test_a_hold_leaves_a_collector_someone_else_turned_off_alone() -> None:
    gc.disable()  # as start-up does (mcp_tui.startup)
    hold = CollectorHold()
    hold.release()
    assert not gc.isenabled()
    gc.enable()


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.order: list[str] = []

    def on_elicitation_shown(self, message: ElicitationShown) -> None:
        self.order.append(f"shown {message.request.message} waiting={message.waiting}")

    def on_elicitation_finished(self, message: ElicitationFinished) -> None:
        self.order.append(f"finished {message.request.message}")


def form_request(message: str) -> ElicitationRequest:
    return ElicitationRequest(
        "alpha", message, "form", form=FormSpec((FieldSpec("name", FieldKind.TEXT, "Name"),))
    )


@pytest.mark.anyio
async def test_collector_is_off_while_the_form_is_built_and_on_after_it_painted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []
    compose = ElicitationScreen.compose

    def recording(self: ElicitationScreen):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return compose(self)

    monkeypatch.setattr(ElicitationScreen, "compose", recording)
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        task = asyncio.create_task(handler.elicit(form_request("first")))
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, ElicitationScreen)
        assert seen == [False]
        assert gc.isenabled() and holds() == 0
        # The transcript line came after the frame, with the count of the moment it was shown.
        assert app.order == ["shown first waiting=0"]
        await pilot.press("escape")
        await task
        await pilot.pause()
    assert app.order == ["shown first waiting=0", "finished first"]


@pytest.mark.anyio
async def test_answered_before_its_first_frame_still_shown_then_finished() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        task = asyncio.create_task(handler.elicit(form_request("quick")))
        while handler.current_screen is None:
            await asyncio.sleep(0)
        screen = handler.current_screen
        assert isinstance(screen, ElicitationScreen)
        screen.finish(ElicitationOutcome.cancel("at once"))
        assert (await task).action == "cancel"
        for _ in range(3):
            await pilot.pause()
        assert gc.isenabled() and holds() == 0
    assert app.order == ["shown quick waiting=0", "finished quick"]


@pytest.mark.anyio
async def test_a_hold_ends_by_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector_hold, "MAX_HOLD", 0.05)
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        hold = CollectorHold(app)  # nothing releases it
        assert not gc.isenabled()
        await asyncio.sleep(0.2)
        await pilot.pause()
        assert hold.released and gc.isenabled()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
