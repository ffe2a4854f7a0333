"""Escape on a form whose select shows its default cancels at once: Textual's ``Select``
announces its initial value when mounted, and that echo must not count as an edit (a FastMCP
form with an enum default asked "What you typed will be lost" before any key). Choosing another
option does count, and Escape then asks."""

from __future__ import annotations

import pytest
from textual.app import App

from mcp_tui.schema import parse_requested_schema
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.waits import wait_until


class Host(App[None]):
    """Pushes one elicitation screen and keeps what it was dismissed with."""

    def __init__(self, request: ElicitationRequest) -> None:
        super().__init__()
        self.request = request
        self.outcomes: list[ElicitationOutcome | None] = []

    def on_mount(self) -> None:
        self.push_screen(ElicitationScreen(self.request), callback=self.outcomes.append)


pytestmark = pytest.mark.anyio

SCHEMA = {
    "type": "object",
    "properties": {
        "color": {"type": "string", "enum": ["red", "blue"], "default": "blue"},
        "priority": {"type": "integer", "enum": [1, 2, 3], "default": 2},
    },
}


def host() -> Host:
    form = parse_requested_schema(SCHEMA)
    return Host(ElicitationRequest("fx", "Pick", "form", form=form))


async def test_escape_on_untouched_defaults_cancels_at_once() -> None:
    app = host()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(
            lambda: isinstance(app.screen, ElicitationScreen) and app.screen, pilot=pilot
        )
        await wait_until(lambda: screen.form is not None and screen.form.rows, pilot=pilot)
        await pilot.pause()
        assert screen.form is not None and not screen.form.touched
        await pilot.press("escape")
        await wait_until(lambda: app.outcomes, pilot=pilot, message="the form closed")
        assert app.outcomes[0] is not None and app.outcomes[0].action == "cancel"


async def test_choosing_another_option_counts_as_an_edit() -> None:
    app = host()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(
            lambda: isinstance(app.screen, ElicitationScreen) and app.screen, pilot=pilot
        )
        await wait_until(lambda: screen.form is not None and screen.form.rows, pilot=pilot)
        await pilot.pause()
        await pilot.press("enter", "up", "enter")  # open the first select, choose red
        await wait_until(lambda: screen.form is not None and screen.form.touched, pilot=pilot)
        await pilot.press("escape")
        await wait_until(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
        assert app.outcomes == []
