"""The tour at 80x24 (issue 41.1), on the fake demo of ``test_demo_tour_snapshots.py``.

The wire covered the whole form in step 2 while the note said "change one and watch the wire",
and F6 to see the form turned the wire off for the rest of the session. Now: the form stays, the
wire summarised in two lines under it, live as the person types; F6 shows the whole wire over the
form and back, for the step; the next step starts split again. The tour begins at the demo's
ready state (its tools may come later). And the "sent" panel scrolls to the part that carries the
answer (``inputResponses`` on 2026-07-28).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Input

from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.tour.note import TourNote
from mcp_tui.ui.tour.script import LEGACY, MODERN, STEPS
from mcp_tui.ui.widgets.request.sent_wire import SentWire
from mcp_tui.ui.widgets.request.wire_panel import WirePanel
from tests.ui.app_testkit import wait_until
from tests.ui.tour.test_demo_tour_snapshots import (
    SMALL,
    at_step_one,
    demo_app,
    demo_app_and_factory,
)

pytestmark = pytest.mark.anyio


async def form_of_the_step(pilot: Any, app: Any, after: object = None) -> ElicitationScreen:
    def ready() -> ElicitationScreen | None:
        screen = app.screen
        if isinstance(screen, ElicitationScreen) and screen is not after:
            panel = screen.query(WirePanel)
            return screen if panel and screen.query(TourNote) and screen.form.rows else None
        return None

    screen: ElicitationScreen = await wait_until(ready, pilot=pilot)
    return screen


def visible(screen: Any, widget: Any) -> bool:
    region = widget.region
    return widget.display and region.height > 0 and screen.region.contains_region(region)


async def test_at_80x24_the_form_stays_and_the_wire_is_summarised_under_it() -> None:
    app = demo_app()
    async with app.run_test(size=SMALL) as pilot:
        await at_step_one(pilot)
        await pilot.press("space")
        form = await form_of_the_step(pilot, app)
        panel = form.query_one(WirePanel)
        await wait_until(lambda: panel.summarised and form.has_class("-wire-split"), pilot=pilot)
        field = app.focused
        assert isinstance(field, Input) and visible(form, field), "the form is usable"
        summary = form.query_one("#wire-summary")
        await wait_until(lambda: visible(form, summary), pilot=pilot)
        assert '"display_name": "Ada Lovelace"' in str(summary.render())
        await pilot.press("end", "!")
        await wait_until(lambda: '"Ada Lovelace!"' in str(summary.render()), pilot=pilot)
        note = form.query_one(TourNote).plain()
        assert "F6 wire (and back)" in note and STEPS[1].title in note

        await pilot.press("f6")  # the whole wire, over the form
        await wait_until(lambda: form.has_class("-wire-over") and not panel.summarised, pilot=pilot)
        assert app.wire_shown and app.wire_expanded
        await pilot.press("f6")  # and back: the field has the focus again
        await wait_until(lambda: form.has_class("-wire-split"), pilot=pilot)
        await wait_until(lambda: app.focused is field, pilot=pilot)
        await pilot.press("f6", "ctrl+s")  # answered with the whole wire shown
        await wait_until(lambda: isinstance(app.screen, SessionScreen), pilot=pilot)
        tour = app.tour
        assert tour is not None
        await wait_until(lambda: not tour.running, pilot=pilot)

        await pilot.press("space")  # the next step starts split again: F6 lasted for its step
        second = await form_of_the_step(pilot, app, after=form)
        await wait_until(lambda: second.has_class("-wire-split"), pilot=pilot)
        assert not app.wire_expanded


async def test_f6_hiding_the_wire_lasts_for_the_step_only() -> None:
    """At 120x40 F6 hides the wire beside the form; the next step shows it again (the sent
    panel and the notes speak of it)."""
    app = demo_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await at_step_one(pilot)
        await pilot.press("space")
        form = await form_of_the_step(pilot, app)
        await wait_until(lambda: form.has_class("-wire-wide"), pilot=pilot)
        await pilot.press("f6")
        await wait_until(lambda: not app.wire_shown, pilot=pilot)
        await pilot.press("ctrl+s")
        await wait_until(lambda: isinstance(app.screen, SessionScreen), pilot=pilot)
        tour = app.tour
        assert tour is not None
        await wait_until(lambda: not tour.running, pilot=pilot)
        await pilot.press("space")
        await wait_until(lambda: app.wire_shown, pilot=pilot)
        second = await form_of_the_step(pilot, app, after=form)
        await wait_until(lambda: second.has_class("-wire-wide"), pilot=pilot)


async def test_the_tour_begins_when_the_demo_is_ready_before_its_tools_are_listed() -> None:
    app, factory = demo_app_and_factory()
    script = factory.scripts["demo"]
    script.tools = ()  # the catalog is still on its way
    async with app.run_test(size=SMALL) as pilot:
        await at_step_one(pilot)
        assert app.entries["demo"].tools == ()


def test_step_8_on_2026_says_no_retry_and_on_2025_names_the_key() -> None:
    step = next(s for s in STEPS if s.title.startswith("-32042"))
    assert "y to retry" in step.do_on(LEGACY)
    assert "retry" not in step.do_on(MODERN)


class SentHost(App[None]):
    def compose(self) -> ComposeResult:
        yield SentWire(id="sent")


async def test_the_sent_panel_scrolls_to_the_input_responses() -> None:
    message = {
        "jsonrpc": "2.0",
        "id": 12,
        "method": "tools/call",
        "params": {
            "name": "set_preferences",
            "arguments": {"note": "a long argument " * 8},
            "_meta": {"progressToken": 7},
            "inputResponses": {"preferences": {"action": "accept", "content": {"x": 1}}},
            "requestState": "v1." + "s" * 80,
        },
    }
    app = SentHost()
    async with app.run_test(size=(50, 12)) as pilot:
        panel = app.query_one(SentWire)
        panel.styles.max_height = 5
        panel.show(message)

        def top_line() -> str:
            shown = panel.query_one("#sent-json")
            width = shown.content_region.width
            if width <= 0:
                return ""
            from textual.content import Content

            lines = Content(panel._text).wrap(width)
            return lines[int(panel.scroll_y)].plain if panel.scroll_y < len(lines) else ""

        await wait_until(lambda: panel.scroll_y > 0, pilot=pilot)
        assert '"inputResponses"' in top_line()
