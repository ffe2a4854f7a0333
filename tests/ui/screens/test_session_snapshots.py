"""Snapshots of the session screen at 80x24 and 120x40, and of its dialogs.

Update with ``pytest tests/ui/screens/test_session_snapshots.py --snapshot-update`` and look at
the SVGs
in ``__snapshots__/`` (e.g. converted with ``rsvg-convert``) before committing them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.config.options import AppOptions
from mcp_tui.session.events import (
    CallOutcome,
    ConnectionState,
    ContentItem,
    LogReceived,
    PromptArgumentInfo,
    PromptInfo,
    ResourceInfo,
    ServerInfo,
    StderrReceived,
    ToolInfo,
    TrafficRecorded,
)
from mcp_tui.ui.app import McpTuiApp
from tests.ui.app_testkit import (
    Script,
    events_shown,
    make_app,
    open_node,
    session_of,
    wait_for,
    wait_until,
)

SMALL = (80, 24)
LARGE = (120, 40)
SnapCompare = Callable[..., bool]
AT = 1_700_000_000.0  # fixed times: the log and traffic views show them

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "title": "City", "description": "Where to look"},
        "days": {"type": "integer", "title": "Days", "minimum": 1, "maximum": 7, "default": 3},
        "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
    },
    "required": ["city"],
}


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def weather_script() -> Script:
    return Script(
        info=ServerInfo(
            name="weather-server",
            version="2.1.0",
            instructions="Forecasts for any city. Ask for at most 7 days.",
            capabilities={"tools": {"listChanged": True}, "prompts": {}, "resources": {}},
            protocol_version="2025-11-25",
        ),
        tools=(
            ToolInfo("forecast", "Daily forecast for a city", input_schema=WEATHER_SCHEMA),
            ToolInfo("alerts", "Active weather alerts", input_schema={"type": "object"}),
            ToolInfo("radar", "Radar image of a region", input_schema={"type": "object"}),
        ),
        prompts=(
            PromptInfo(
                "trip", "Plan a trip around the weather", (PromptArgumentInfo("city", None, True),)
            ),
        ),
        resources=(
            ResourceInfo("weather://stations", "stations", "Every station", "application/json"),
            ResourceInfo("weather://city/{name}", "city", "One city", template=True),
        ),
        results={
            "forecast": CallOutcome(
                items=(ContentItem("text", text="Mon 18°C sunny\nTue 16°C rain\nWed 17°C cloudy"),),
                structured={"days": [18, 16, 17], "units": "metric"},
            ),
            "radar": CallOutcome(items=(ContentItem("image", mime_type="image/png", size=48213),)),
        },
        after_ready=(
            LogReceived("weather", "info", "cache", "warm cache: 312 cities", at=AT),
            LogReceived("weather", "warning", None, {"slow": "stations API took 2.3 s"}, at=AT),
            StderrReceived("weather", "INFO: server listening on stdio"),
        ),
    )


def make_session_app(chat: ChatSettings | None = None) -> McpTuiApp:
    """The weather and files servers; ``chat``: the chat's model settings (the app's parts take
    their options when it is built, so they are given here, not set on the app after)."""
    options = AppOptions(stderr_log=Path("/var/log/mcp-tui-tests/stderr.log"), chat=chat)
    app, _ = make_app(
        {"weather": weather_script(), "files": Script(fail="command not found: mcp-files")},
        servers=("weather", "files"),
        options=options,
    )
    return app


async def with_calls(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, McpTuiApp)
    await wait_for(pilot, lambda: app.entries["weather"].state is ConnectionState.READY)
    await wait_for(pilot, lambda: app.entries["files"].state is ConnectionState.FAILED)
    session = session_of(app)
    session.calls.call_tool("weather", "forecast", {"city": "Lisbon", "days": 3, "units": "metric"})
    await wait_for(pilot, lambda: any("18°C" in e.full for e in session.areas.transcript.entries))
    session.calls.call_tool("weather", "radar", {})
    await wait_for(
        pilot, lambda: any("image/png" in e.full for e in session.areas.transcript.entries)
    )
    await events_shown(pilot, app)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_session_screen(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(make_session_app(), terminal_size=size, run_before=with_calls)


def test_tool_arguments_dialog(snap_compare: SnapCompare) -> None:
    async def open_forecast(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, McpTuiApp)
        await wait_for(pilot, lambda: app.entries["weather"].state is ConnectionState.READY)
        await open_node(pilot, app, "weather", "forecast")
        await pilot.press(*"Lis")
        await wait_until(lambda: getattr(app.focused, "value", None) == "Lis", pilot=pilot)
        await pilot.pause()

    assert snap_compare(make_session_app(), terminal_size=SMALL, run_before=open_forecast)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_traffic_view(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def show_traffic(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, McpTuiApp)
        await wait_for(pilot, lambda: app.entries["weather"].state is ConnectionState.READY)
        connection = app.entries["weather"].connection
        assert connection is not None
        sink = connection.sink  # type: ignore[attr-defined]
        call = {"name": "forecast", "arguments": {"city": "Lisbon"}}
        sink(
            TrafficRecorded(
                "weather",
                "out",
                {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call},
                at=AT,
            )
        )
        result = {"content": [{"type": "text", "text": "Mon 18°C sunny"}], "isError": False}
        sink(
            TrafficRecorded(
                "weather", "in", {"jsonrpc": "2.0", "id": 3, "result": result}, at=AT + 0.25
            )
        )
        await events_shown(pilot, app)
        await pilot.press("t")
        session = session_of(app)
        await wait_until(
            lambda: session.areas.traffic.display and session.areas.traffic.table.row_count >= 2,
            pilot=pilot,
        )
        await pilot.pause()

    assert snap_compare(make_session_app(), terminal_size=size, run_before=show_traffic)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_log_panel_maximized(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """``L``: the log on the whole screen, its stderr file named at the bottom."""

    async def maximize(pilot: Pilot[None]) -> None:
        await with_calls(pilot)
        await pilot.press("L")
        app = pilot.app
        assert isinstance(app, McpTuiApp)
        await wait_for(pilot, lambda: session_of(app).maximized is session_of(app).areas.logs)
        await pilot.pause(0.2)

    assert snap_compare(make_session_app(), terminal_size=size, run_before=maximize)
