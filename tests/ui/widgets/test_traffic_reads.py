"""The traffic view at 80x24 and 120x40: rows that say what a message means, columns dropped in
a stated order, End / G to follow, "N new ↓", a resize that keeps the selection, and Enter or
``i`` opening a message full screen as a foldable, searchable, copyable tree."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Tree

from mcp_tui.session.events import TrafficRecorded
from mcp_tui.ui.screens.message_tree import MessageTreeScreen
from mcp_tui.ui.traffic_summary import Summaries
from mcp_tui.ui.widgets.session.traffic_view import TrafficView
from tests.waits import wait_until

SMALL = (80, 24)
LARGE = (120, 40)
SnapCompare = Callable[..., bool]
AT = time.mktime((2026, 7, 28, 12, 0, 0, 0, 0, -1))

CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "book_table"}}
ASK = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "elicitation/create",
    "params": {
        "message": "Which day? [b]bold[/b]\x1b[31m",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "date": {"type": "string", "format": "date"},
                "party_size": {"type": "integer", "minimum": 1},
            },
        },
    },
}
ANSWER = {
    "jsonrpc": "2.0",
    "id": 0,
    "result": {"action": "accept", "content": {"date": "2026-12-01", "party_size": 4}},
}
PROGRESS = {
    "jsonrpc": "2.0",
    "method": "notifications/progress",
    "params": {"progressToken": 1, "progress": 2, "total": 5},
}
LOG = {
    "jsonrpc": "2.0",
    "method": "notifications/message",
    "params": {"level": "warning", "data": "disk almost full"},
}
ERROR = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Unknown tool"}}

MESSAGES: list[tuple[str, dict[str, Any]]] = [
    ("out", CALL),
    ("in", ASK),
    ("out", ANSWER),
    ("in", PROGRESS),
    ("in", LOG),
    ("in", ERROR),
]


def events(messages: list[tuple[str, dict[str, Any]]] = MESSAGES) -> list[TrafficRecorded]:
    return [
        TrafficRecorded("demo", direction, message, at=AT + i)  # type: ignore[arg-type]
        for i, (direction, message) in enumerate(messages)
    ]


def test_each_row_says_what_its_message_means() -> None:
    summaries = Summaries()
    lines = [summaries.summary(m, d, "demo") for d, m in MESSAGES]
    assert lines == [
        "tools/call · book_table",
        "elicitation/create · form, 2 fields, for book_table #1",
        "elicitation/create · accept {date, party_size}",
        "notifications/progress · 40%",
        "notifications/message · warning: disk almost full",
        "tools/call error -32602: Unknown tool",
    ]


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield TrafficView(id="traffic")

    def on_traffic_view_message_opened(self, event: TrafficView.MessageOpened) -> None:
        """What mcp-tui's app does with an opened row (``test_app`` checks the app does it)."""
        self.push_screen(MessageTreeScreen(event.message, event.heading))

    @property
    def view(self) -> TrafficView:
        return self.query_one(TrafficView)


async def shown(pilot: Pilot[Any], app: Host, count: int) -> TrafficView:
    view = app.view
    view.add_batch(events()[:count])
    await wait_until(lambda: view.table.row_count == count, pilot=pilot)
    view.focus()
    await pilot.pause()
    return view


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("size", "columns"),
    [
        (SMALL, ("time", "", "message", "id", "size", "latency")),
        (LARGE, ("time", "", "message", "id", "size", "latency", "server")),
        ((50, 24), ("", "message", "id")),
    ],
)
async def test_columns_that_do_not_fit_are_dropped_in_order(
    size: tuple[int, int], columns: tuple[str, ...]
) -> None:
    app = Host()
    async with app.run_test(size=size) as pilot:
        view = await shown(pilot, app, 6)
        assert view.columns == columns
        table = view.table
        assert sum(c.get_render_width(table) for c in table.ordered_columns) <= size[0]


@pytest.mark.anyio
@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_end_and_g_follow_and_a_marker_counts_what_came_below(size: tuple[int, int]) -> None:
    app = Host()
    async with app.run_test(size=size) as pilot:
        view = await shown(pilot, app, 3)
        table = view.table
        assert table.cursor_row == 2 and view.following
        await pilot.press("up", "up")
        assert table.cursor_row == 0 and not view.following
        view.add_batch(events()[3:5])
        await wait_until(lambda: table.row_count == 5, pilot=pilot)
        marker = view.query_one("#traffic-new")
        assert table.cursor_row == 0 and marker.display
        assert "2 new ↓" in str(marker.render())
        await pilot.press("G")
        assert table.cursor_row == 4 and view.following and not marker.display
        await pilot.press("up", "end")
        assert table.cursor_row == 4 and view.following
        view.add_batch(events()[5:])
        await wait_until(lambda: table.cursor_row == 5, pilot=pilot)


@pytest.mark.anyio
async def test_the_selection_survives_a_resize() -> None:
    app = Host()
    async with app.run_test(size=LARGE) as pilot:
        many = [("in", {**LOG, "params": {"level": "info", "data": f"n{i}"}}) for i in range(60)]
        view = app.view
        view.add_batch(events(many))
        await wait_until(lambda: view.table.row_count == 60, pilot=pilot)
        view.focus()
        await wait_until(lambda: view.table.cursor_row == 59, pilot=pilot)
        await pilot.press(*["up"] * 29)
        table = view.table
        assert table.cursor_row == 30
        await pilot.resize_terminal(*SMALL)
        await wait_until(
            lambda: view.columns != ("time", "", "message", "id", "size", "latency", "server"),
            pilot=pilot,
        )
        await pilot.pause()
        assert table.cursor_row == 30
        top = table.scroll_y
        assert top <= 30 < top + table.scrollable_content_region.height


@pytest.mark.anyio
@pytest.mark.parametrize("size", [SMALL, LARGE])
@pytest.mark.parametrize("key", ["enter", "i"])
async def test_a_row_opens_full_screen_as_a_tree(size: tuple[int, int], key: str) -> None:
    app = Host()
    async with app.run_test(size=size) as pilot:
        view = await shown(pilot, app, 2)
        await pilot.press(key)  # the newest: the elicitation/create request
        await wait_until(lambda: isinstance(app.screen, MessageTreeScreen), pilot=pilot)
        screen = app.screen
        assert isinstance(screen, MessageTreeScreen) and screen.message == ASK
        tree: Tree[None] = screen.query_one(Tree)
        await pilot.press("E")  # fold all
        assert not any(node.is_expanded for node in tree.root.children)
        await pilot.press("e")
        assert all(n.is_expanded for n in tree.root.children if n.children)
        await pilot.press("slash", *"party")
        await wait_until(
            lambda: tree.cursor_node is not None and "party_size" in str(tree.cursor_node.label),
            pilot=pilot,
        )
        await pilot.press("escape", "c")
        assert json.loads(app.clipboard) == ASK
        await pilot.press("escape")
        await wait_until(lambda: not isinstance(app.screen, MessageTreeScreen), pilot=pilot)
        assert app.focused is view.table


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_snapshot_traffic_rows(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, Host)
        await shown(pilot, app, 6)
        await pilot.press("up", "up", "up", "up")
        app.view.add_batch(events([("in", LOG)]))
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_snapshot_message_tree(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, Host)
        await shown(pilot, app, 2)
        await pilot.press("enter")
        await wait_until(lambda: isinstance(app.screen, MessageTreeScreen), pilot=pilot)
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=size, run_before=run_before)
