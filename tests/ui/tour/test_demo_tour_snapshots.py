"""Snapshots of the tour (``mcp-tui demo --tour``) at 80x24 and 120x40: its first note on the
session screen, and a form of step 2 with the wire (summarised under the form at 80x24, beside it
at 120x40) and the compact note. And, on the same
fake, the whole tour after an era switch (the next steps follow it) with Space typed into a
text field rather than advancing.

A fake connection plays the demo (fixed texts, no process, no clock), asking the demo's own
preferences form. Update with ``--snapshot-update`` and look at the SVGs (``rsvg-convert``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from mcp_tui.config.options import AppOptions
from mcp_tui.demo.forms import PREFERENCES_SCHEMA
from mcp_tui.schema.parse import parse_requested_schema
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import CallOutcome, ContentItem, ServerInfo, ToolInfo
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.tour.note import TourNote
from tests.ui.app_testkit import Script, make_app, wait_until

SMALL = (80, 24)
LARGE = (120, 40)
SnapCompare = Callable[..., bool]
SIZES = pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])

#: A few fields of the demo's own form: the same at every width and on every machine (the full
#: form's time zones come from the system's database).
FIELDS = ("display_name", "email", "volume", "notifications", "theme", "channels")
SCHEMA = {
    "type": "object",
    "properties": {k: PREFERENCES_SCHEMA["properties"][k] for k in FIELDS},
    "required": ["display_name", "email"],
}


async def set_preferences(connection: Any, _args: Any, call_id: int) -> CallOutcome:
    request = ElicitationRequest(
        "demo",
        "Review your preferences.",
        "form",
        form=parse_requested_schema(SCHEMA),
        tool="set_preferences",
        call_id=call_id,
        request_key=1,
        protocol_version="2025-11-25",
    )
    outcome = await connection.handler.elicit(request)
    return CallOutcome(items=(ContentItem("text", text=str(outcome.action)),))


def demo_app() -> McpTuiApp:
    return demo_app_and_factory()[0]


def demo_app_and_factory() -> tuple[McpTuiApp, Any]:
    script = Script(
        info=ServerInfo(
            name="mcp-tui-demo",
            version="0.1.0",
            instructions="The mcp-tui demo server.",
            capabilities={"tools": {}},
            protocol_version="2025-11-25",
        ),
        tools=(
            ToolInfo("set_preferences", "Every form field kind", input_schema={"type": "object"}),
            ToolInfo("book_table", "A three-form wizard", input_schema={"type": "object"}),
        ),
        results={"set_preferences": set_preferences},
    )
    options = AppOptions(stderr_log=Path("/var/log/mcp-tui-tests/stderr.log"), tour=True)
    return make_app({"demo": script}, options=options)


async def at_step_one(pilot: Pilot[None]) -> McpTuiApp:
    app = pilot.app
    assert isinstance(app, McpTuiApp)
    await wait_until(lambda: app.tour is not None and app.tour.index == 0, pilot=pilot)
    await wait_until(lambda: "Welcome" in app.screen.query_one(TourNote).plain(), pilot=pilot)
    await pilot.pause()
    return app


@SIZES
def test_snapshot_tour_first_note(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await at_step_one(pilot)

    assert snap_compare(demo_app(), terminal_size=size, run_before=run_before)


@SIZES
def test_snapshot_tour_form_with_the_wire(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        app = await at_step_one(pilot)
        await pilot.press("space")

        def form() -> ElicitationScreen | None:
            screen = app.screen
            ready = isinstance(screen, ElicitationScreen) and screen.query(TourNote)
            return screen if ready and screen.query("#wire-answer") else None

        screen = await wait_until(form, pilot=pilot)
        # 80x24: the form, the wire summarised under it (F6: the whole wire); 120x40: beside it.
        split = "-wire-split" if size == SMALL else "-wire-wide"
        await wait_until(lambda: screen.has_class(split), pilot=pilot)
        await pilot.pause()

    assert snap_compare(demo_app(), terminal_size=size, run_before=run_before)


@pytest.mark.anyio
async def test_the_tour_follows_an_era_switched_mid_tour_and_leaves_text_fields_alone() -> None:
    """The presenter switches the demo to 2026-07-28 after step 1 (as E would): step 9 then
    calls quick_survey instead of saying it belongs to the other era. Space in the traffic
    filter types a space; on the catalog it is the tour's."""
    from msgspec.structs import replace

    from mcp_tui.ui.tour.script import STEPS

    app, factory = demo_app_and_factory()
    async with app.run_test(size=LARGE) as pilot:
        await at_step_one(pilot)
        tour = app.tour
        assert tour is not None and tour.era == "2025-11-25"
        entry = app.entries["demo"]
        assert entry.info is not None
        entry.info = replace(entry.info, protocol_version="2026-07-28")
        fake = factory.latest("demo")

        await pilot.press("t")  # the traffic view, and its filter
        filter_box = await wait_until(lambda: app.screen.query("#traffic-filter"), pilot=pilot)
        filter_box.first().focus()
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot)
        await pilot.press("space")
        await wait_until(lambda: getattr(app.focused, "value", None) == " ", pilot=pilot)
        assert tour.index == 0  # typed, not advanced
        await pilot.press("backspace")
        app.screen.query_one("#catalog").focus()
        await pilot.press("t")

        for number in range(2, len(STEPS) + 1):
            await pilot.press("right")
            await wait_until(lambda n=number: tour.index == n - 1, pilot=pilot)  # type: ignore[misc]
            form = await wait_until(
                lambda: (
                    app.screen if isinstance(app.screen, ElicitationScreen) else not tour.running
                ),
                pilot=pilot,
            )
            if isinstance(form, ElicitationScreen):  # the fake's set_preferences asks
                await pilot.press("ctrl+s")
                await wait_until(lambda: not tour.running, pilot=pilot)
        assert tour.era == "2026-07-28"
        assert "quick_survey" in [name for name, *_ in fake.calls]
