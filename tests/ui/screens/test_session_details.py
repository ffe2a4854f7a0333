"""Small things a new user hits on the session screen at 80x24 (issue 41.6): the empty log panel
says what will appear in it; the palette's "Call tool" on a tool without arguments calls it, as
Enter in the catalog does; ``t`` puts the focus in the traffic table, and ``t`` again back."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from mcp_tui.session.events import ConnectionState, LogReceived
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.widgets.session.log_panel import EMPTY_TEXT
from tests.ui.app_testkit import (
    Script,
    events_shown,
    make_app,
    run_from_palette,
    session_of,
    transcript_text,
    wait_for,
    wait_until,
)

pytestmark = pytest.mark.anyio

SIZE = (80, 24)


def log_lines(app: object) -> str:
    logs = session_of(app).areas.logs  # type: ignore[arg-type]
    return "\n".join(strip.text for strip in logs.lines)


async def test_the_empty_log_panel_says_what_appears_there_until_something_does() -> None:
    app, factory = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await events_shown(pilot, app)
        await wait_until(lambda: "Nothing logged yet" in log_lines(app), pilot=pilot)
        said = " ".join(log_lines(app).split())
        assert "notifications/message" in said and "stderr" in said and "Log level" in said
        factory.latest("demo").sink(LogReceived("demo", "info", "app", "the first log line"))
        await wait_until(lambda: "the first log line" in log_lines(app), pilot=pilot)
        assert "Nothing logged yet" not in log_lines(app)
    assert EMPTY_TEXT.startswith("Nothing logged yet")


async def test_call_tool_from_the_palette_calls_a_tool_without_arguments_at_once() -> None:
    app, factory = make_app({"demo": Script()})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.entries["demo"].tools))
        await events_shown(pilot, app)
        await run_from_palette(pilot, app, "call tool ping", "demo › ping")
        await wait_for(pilot, lambda: bool(factory.latest("demo").calls))
        assert not isinstance(app.screen, ArgumentsScreen), "no dialog that only asks Ctrl+S"
        assert [call[:2] for call in factory.latest("demo").calls] == [("ping", {})]
        await wait_until(lambda: "◀ #1 demo › ping" in transcript_text(app), pilot=pilot)
        # A tool with arguments still opens its form.
        await run_from_palette(pilot, app, "call tool echo", "demo › echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)


async def test_t_focuses_the_traffic_table_and_t_again_gives_the_focus_back() -> None:
    app, _ = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await events_shown(pilot, app)
        catalog = session_of(app).areas.catalog
        catalog.focus()
        await wait_until(lambda: app.focused is catalog, pilot=pilot)
        await pilot.press("t")
        traffic = session_of(app).areas.traffic
        await wait_until(lambda: traffic.display, pilot=pilot)
        await wait_until(lambda: isinstance(app.focused, DataTable), pilot=pilot)
        assert app.focused is traffic.table
        await pilot.press("down", "t")  # the table's keys work at once, and t is still t
        await wait_until(lambda: not traffic.display, pilot=pilot)
        await wait_until(lambda: app.focused is catalog, pilot=pilot)
