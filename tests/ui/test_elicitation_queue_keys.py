"""Keys typed right after one queued form is answered go to the next form, in order.

A server (or a 2026-07-28 round) asking for several inputs queues several forms. Someone typing
``Ada Ctrl+S Bob Ctrl+S`` in one go meant the first form to get ``Ada`` and the second ``Bob``:
before the key carry, ``Bob`` was still queued on the first form when it closed and died with it,
and the second form opened empty. Keys are queued on the driver before the app handles the first
(``burst_keys.burst``), as a terminal delivers them.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.elicitation_handler import TuiElicitationHandler
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation import ElicitationScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from mcp_tui.ui.widgets.schema_form import SchemaForm
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


@pytest.mark.anyio
async def test_keys_after_ctrl_s_fill_the_next_form() -> None:
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        tasks = await elicit_all(
            handler, pilot, form_request("one"), form_request("two"), form_request("three")
        )
        burst(app, *"Ada", "ctrl+s", *"Bob", "ctrl+s", *"Cy", "ctrl+s")
        await until(pilot, lambda: all(t.done() for t in tasks))
        outcomes = [t.result() for t in tasks if t.done()]
    assert outcomes == [
        ElicitationOutcome("accept", {"name": "Ada"}),
        ElicitationOutcome("accept", {"name": "Bob"}),
        ElicitationOutcome("accept", {"name": "Cy"}),
    ]


@pytest.mark.anyio
async def test_decline_then_type_into_the_next_form_then_leave_it_open() -> None:
    """Ctrl+R answers the first; the keys after it (a Tab too) land in the second, which stays
    open with them, unsent."""
    second_fields = (NAME, FieldSpec("n", FieldKind.INTEGER, "N"))
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        first, second = await elicit_all(
            handler, pilot, form_request("one"), form_request("two", *second_fields)
        )
        burst(app, "x", "ctrl+r", *"Bo", "tab", "7")
        await until(pilot, first.done)
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, ElicitationScreen)
                and app.screen.request.message == "two"
                and app.screen.raw_text().get("n") == "7"
            ),
        )
        screen = app.screen
        assert isinstance(screen, ElicitationScreen)
        assert screen.query_one(SchemaForm).raw_values() == {"name": "Bo", "n": "7"}
        assert not second.done()
        burst(app, "escape")  # something was typed: Escape asks first
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        burst(app, "y")
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
async def test_form_then_url_consent_keys_carry_over() -> None:
    """The URL screen behind a form gets the Ctrl+R typed after the form's Ctrl+S."""
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        form, url = await elicit_all(handler, pilot, form_request("one"), url_request())
        burst(app, *"Ada", "ctrl+s", "ctrl+r")
        await until(pilot, lambda: form.done() and url.done())
        assert not isinstance(app.screen, UrlConsentScreen)
    assert form.result() == ElicitationOutcome("accept", {"name": "Ada"})
    assert url.result() == ElicitationOutcome.decline()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
