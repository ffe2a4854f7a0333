"""Keys typed right after one queued form is answered never reach the next one.

A server (or a 2026-07-28 round) asking for several inputs queues several forms. Someone typing
``Ada Ctrl+S Bob Ctrl+S`` in one go typed ``Bob Ctrl+S`` before the second form appeared: they
cannot have meant it, and until the arming rule (``screens/arming``) a key carry handed those
keys to it, so the second form was answered unseen (and a URL consent behind a form was declined
or opened by a key meant for the form). Now the keys still queued on a closing form are dropped,
and a form drops the keys typed before it appeared. Keys are queued on the driver before the app
handles the first (``burst_keys.burst``), as a terminal delivers them; the arming delay runs on a
clock the test moves (``arming_clock``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.app.elicitation_handler import TuiElicitationHandler
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from mcp_tui.ui.widgets.form.schema_form import SchemaForm
from tests.ui.burst_keys import burst
from tests.waits import wait_until

SIZE = (100, 30)

NAME = FieldSpec("name", FieldKind.TEXT, "Name")


def form_request(message: str, *fields: FieldSpec) -> ElicitationRequest:
    return ElicitationRequest("alpha", message, "form", form=FormSpec(fields or (NAME,)))


def url_request() -> ElicitationRequest:
    return ElicitationRequest(
        "alpha", "Sign in", "url", url="https://example.com/login", elicitation_id="e1"
    )


async def until(pilot: Pilot[None], done: Any) -> None:
    """Let the app run until ``done()``; fail if it never is (no timing is asserted)."""
    await wait_until(done, pilot=pilot)


async def elicit_all(
    handler: TuiElicitationHandler, pilot: Pilot[None], *requests: ElicitationRequest
) -> list[asyncio.Task[ElicitationOutcome]]:
    tasks = []
    for request in requests:
        tasks.append(asyncio.create_task(handler.elicit(request)))
        await pilot.pause()
    await until(pilot, lambda: isinstance(pilot.app.screen, ElicitationScreen))
    return tasks


async def armed_form(pilot: Pilot[None], message: str, clock: Any) -> ElicitationScreen:
    """The form asking ``message`` once it has appeared, then armed (seen long enough)."""
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, ElicitationScreen)
            and app.screen.request.message == message
            and app.screen.shown
        ),
    )
    screen = app.screen
    assert isinstance(screen, ElicitationScreen)
    clock.advance(1.0)
    return screen


@pytest.mark.anyio
async def test_keys_after_ctrl_s_never_reach_the_next_form(arming_clock: Any) -> None:
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        tasks = await elicit_all(
            handler, pilot, form_request("one"), form_request("two"), form_request("three")
        )
        await armed_form(pilot, "one", arming_clock)
        burst(app, *"Ada", "ctrl+s", *"Bob", "ctrl+s", *"Cy", "ctrl+s")
        await until(pilot, tasks[0].done)
        second = await armed_form(pilot, "two", arming_clock)
        await pilot.pause()
        # Open, empty and unanswered: Bob and both later Ctrl+S were typed before it appeared.
        assert second.query_one(SchemaForm).raw_values() == {"name": ""}
        assert not tasks[1].done() and not tasks[2].done()
        await pilot.press(*"Bo", "ctrl+s")
        third = await armed_form(pilot, "three", arming_clock)
        await pilot.press(*"Cy", "ctrl+s")
        await until(pilot, lambda: all(t.done() for t in tasks))
        assert third.finished
    assert [t.result() for t in tasks] == [
        ElicitationOutcome("accept", {"name": "Ada"}),
        ElicitationOutcome("accept", {"name": "Bo"}),
        ElicitationOutcome("accept", {"name": "Cy"}),
    ]


@pytest.mark.anyio
async def test_keys_after_a_decline_never_reach_the_next_form(arming_clock: Any) -> None:
    """Ctrl+R answers the first; the keys after it (a Tab and an Escape too) do not reach the
    second, which opens untouched and stays open."""
    second_fields = (NAME, FieldSpec("n", FieldKind.INTEGER, "N"))
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        first, second = await elicit_all(
            handler, pilot, form_request("one"), form_request("two", *second_fields)
        )
        await armed_form(pilot, "one", arming_clock)
        burst(app, "x", "ctrl+r", *"Bo", "tab", "7", "escape")
        await until(pilot, first.done)
        screen = await armed_form(pilot, "two", arming_clock)
        await pilot.pause()
        assert screen.query_one(SchemaForm).raw_values() == {"name": "", "n": ""}
        assert not second.done() and app.screen is screen
        burst(app, "escape")  # typed now: an untouched form cancels at once
        await until(pilot, second.done)
    assert first.result() == ElicitationOutcome.decline()
    assert second.result() == ElicitationOutcome.cancel()


@pytest.mark.anyio
async def test_keys_after_the_last_form_go_nowhere_later() -> None:
    """With nothing waiting, keys typed after the answer are not kept for a form that comes
    much later."""
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        (first,) = await elicit_all(handler, pilot, form_request("one"))
        burst(app, *"Ada", "ctrl+s", *"zz")
        await until(pilot, first.done)
        await pilot.pause()
        later = asyncio.create_task(handler.elicit(form_request("later")))
        await until(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ElicitationScreen)
        assert screen.query_one(SchemaForm).raw_values() == {"name": ""}
        burst(app, "escape")
        await until(pilot, later.done)
    assert first.result() == ElicitationOutcome("accept", {"name": "Ada"})


@pytest.mark.anyio
async def test_a_ctrl_r_meant_for_a_form_does_not_decline_the_url_consent_behind_it(
    arming_clock: Any,
) -> None:
    """The URL screen behind a form does not get the Ctrl+R typed after the form's Ctrl+S."""
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        form, url = await elicit_all(handler, pilot, form_request("one"), url_request())
        await armed_form(pilot, "one", arming_clock)
        burst(app, *"Ada", "ctrl+s", "ctrl+r")
        await until(pilot, form.done)
        await until(pilot, lambda: isinstance(app.screen, UrlConsentScreen) and app.screen.shown)
        await pilot.pause()
        assert not url.done()
        await pilot.press("ctrl+r")  # typed once it is on screen: declines at once
        await until(pilot, url.done)
    assert form.result() == ElicitationOutcome("accept", {"name": "Ada"})
    assert url.result() == ElicitationOutcome.decline()
