"""Escape never throws typed text away: on a changed form it asks first, a double Escape (the
first one closed a drop-down) asks too, and an untouched form still closes at once."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from mcp_tui.schema.fields import FieldKind, FieldSpec
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.ui.screens.test_elicitation_screen import Host, form_screen, opts, request_for
from tests.waits import wait_until

pytestmark = pytest.mark.anyio
SIZE = (80, 24)
TEXT = FieldSpec("name", FieldKind.TEXT, "Name")
COLOR = FieldSpec("color", FieldKind.SELECT, "Colour", options=opts("red", "green"))


async def until(pilot: Pilot[Any], condition: Any) -> None:
    await wait_until(condition, pilot=pilot)


async def test_escape_on_an_untouched_form_cancels_at_once() -> None:
    app = Host(request_for(TEXT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await until(pilot, lambda: app.outcomes)
    assert app.outcomes == [ElicitationOutcome.cancel()]


async def test_escape_after_typing_asks_and_keeps_the_text() -> None:
    app = Host(request_for(TEXT))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"Ada")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.outcomes == []
        await pilot.press("escape")  # "keep the form"
        await until(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        assert form_screen(app).query_one(Input).value == "Ada"
        assert app.outcomes == []
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: app.outcomes)
    assert app.outcomes == [ElicitationOutcome.cancel()]


async def test_a_double_escape_after_closing_a_drop_down_does_not_cancel() -> None:
    app = Host(request_for(COLOR))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # opens the drop-down
        await until(pilot, lambda: form_screen(app).query_one("SelectControl").expanded)
        await pilot.press("escape", "escape")  # closes it, then the habitual second one
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.outcomes == []
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        assert app.outcomes == []


async def test_the_cancel_button_cancels_without_asking() -> None:
    app = Host(request_for(TEXT))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press(*"Ada")
        await pilot.click("#elicitation-cancel")
        await until(pilot, lambda: app.outcomes)
    assert app.outcomes == [ElicitationOutcome.cancel()]


async def test_tool_arguments_escape_asks_once_something_was_typed() -> None:
    from mcp_tui.session.events import ConnectionState
    from mcp_tui.ui.screens.arguments import ArgumentsScreen
    from tests.ui.app_testkit import Script, make_app, open_node, wait_for

    app, factory = make_app({"demo": Script()})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await open_node(pilot, app, "demo", "echo")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        await pilot.press("escape")  # untouched: closes at once
        await wait_for(pilot, lambda: not isinstance(app.screen, ArgumentsScreen))
        await open_node(pilot, app, "demo", "echo")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        await pilot.press(*"hello", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        focused = app.focused
        assert isinstance(focused, Input) and focused.value == "hello"
        await pilot.press("escape", "y")
        await wait_for(pilot, lambda: not isinstance(app.screen, (ArgumentsScreen, ConfirmScreen)))
        assert factory.latest("demo").calls == []
