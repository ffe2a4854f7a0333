"""The traffic view: every JSON-RPC message in and out, one line each, with a filter and details.

A table of one row per message (time, direction, what it means, id, size, and for a response the
latency since the request it answers, then the server), a filter box above it (every word must
match the row), and under it the highlighted message as pretty JSON. A row says what the message
means (``traffic_summary``: "elicitation/create · form, 2 fields, for book_table #1", "accept
{date, party_size}"). Columns that do not fit are dropped, never scrolled off, in this order:
server, size, latency, time, id (:data:`DROP_ORDER`); the meaning column takes what is left.

Enter or ``i`` opens the highlighted message full screen as a foldable tree (the view posts
:class:`TrafficView.MessageOpened` and the app pushes the screen: a widget imports no screen).
The view follows new messages while the newest row is selected; moved up, it stays put and says
"N new ↓" until End or ``G`` jumps back to the newest (and follows again). A resize keeps the
selected row in view.

Traffic can be as fast as the logs: messages are kept in a bounded backlog and rows are made only
while the view is shown, in batches (one table update per flush, at most
:data:`BATCH_MESSAGES` rows; the rest are counted in one row). Sizes are measured, and JSON is
pretty-printed, only for the rows drawn and the message highlighted. The table keeps the newest
:data:`MAX_ROWS` rows. Every cell is literal text (``Text``), never markup: methods and ids come
from servers.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from typing import Any, ClassVar

from msgspec import Struct
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Input, Static

from mcp_tui.session.events import TrafficRecorded
from mcp_tui.ui.json_preview import json_length, json_preview
from mcp_tui.ui.literal import literal, literal_text_line
from mcp_tui.ui.render import clip
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.traffic_summary import Summaries
from mcp_tui.ui.widgets.text.inert import InertInput

#: Messages turned into rows per flush at most; a bigger batch shows its newest messages.
BATCH_MESSAGES = 100
#: Rows kept in the table (the oldest go first); the ``--log`` file keeps every message.
MAX_ROWS = 2000
#: A message's size is measured up to this many characters of JSON ("> 256 K" beyond).
MEASURED_CHARS = 256 * 1024
#: Characters of the highlighted message's JSON shown below the table.
DETAIL_CHARS = 8000
#: The table's columns, in order, with their widths (``0``: what the others leave).
COLUMNS: tuple[tuple[str, int], ...] = (
    ("time", 12),
    ("", 1),
    ("message", 0),
    ("id", 4),
    ("size", 7),
    ("latency", 7),
    ("server", 12),
)
#: Columns dropped first when the view is narrow; the message column stays.
DROP_ORDER = ("server", "size", "latency", "time", "id")
#: The message column is never narrower than this while another column can go.
MESSAGE_MIN = 34


def _kind(message: dict[str, object]) -> str:
    if isinstance(message.get("method"), str):
        return "notification" if message.get("id") is None else "request"
    return "error" if "error" in message else "result"


def precise_clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at * 1000) % 1000:03d}"


class Row(Struct):
    """One message as the table shows it (computed once, when the row is made)."""

    key: str
    event: TrafficRecorded | None
    time: str
    direction: str
    method: str
    id: str
    size: str
    latency: str
    server: str
    #: ``request``, ``notification``, ``result`` or ``error``: found by the filter, not shown
    #: (the summary in ``method`` says what the message means, not which kind it is).
    kind: str = ""

    @property
    def cells(self) -> tuple[Text, ...]:
        return self.cells_for(tuple(name for name, _ in COLUMNS))

    def cells_for(self, columns: Sequence[str]) -> tuple[Text, ...]:
        """The cells of ``columns`` (the ones that fit), in order."""
        arrow = Text("→" if self.direction == "out" else "←" if self.direction == "in" else "")
        every = {
            "time": Text(self.time),
            "": arrow,
            "message": literal_text_line(self.method, limit=200),
            "id": literal_text_line(self.id, limit=24),
            "size": Text(self.size, justify="right"),
            "latency": Text(self.latency, justify="right"),
            "server": literal_text_line(self.server, limit=30),
        }
        return tuple(every[name] for name in columns)

    def matches(self, words: Sequence[str]) -> bool:
        haystack = " ".join(
            (self.method, self.id, self.server, self.direction, self.time, self.kind)
        ).casefold()
        return all(word in haystack for word in words)


class TrafficTable(DataTable[Text]):
    """The rows: End / G jump to the newest (DataTable's End scrolls sideways), ``i`` opens."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("end,G", "newest", "Newest", id="traffic.newest"),
        Binding("i", "open_message", "Open", id="traffic.open"),
    ]

    def action_newest(self) -> None:
        view = self.parent
        if isinstance(view, TrafficView):
            view.jump_to_newest()

    def action_open_message(self) -> None:
        view = self.parent
        if isinstance(view, TrafficView):
            view.open_message(self.cursor_row)


class TrafficView(Vertical):
    """JSON-RPC messages, newest at the bottom; makes rows only while displayed."""

    class MessageOpened(Message):
        """Enter / ``i`` on a row: show this message full screen (the app pushes the tree)."""

        def __init__(self, message: dict[str, Any], heading: str) -> None:
            super().__init__()
            self.message = message
            self.heading = heading

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="traffic.filter"),
    ]

    DEFAULT_CSS = """
    TrafficView > #traffic-filter { height: 1; border: none; padding: 0 1; }
    TrafficView > #traffic-table { height: 1fr; min-height: 3; scrollbar-size: 1 1; }
    TrafficView > #traffic-new {
        height: 1; dock: bottom; offset: 0 -1; width: auto; display: none;
        background: $accent; color: $text; padding: 0 1; margin: 0 0 0 2;
    }
    TrafficView > #traffic-new.-shown { display: block; }
    TrafficView > #traffic-detail {
        height: 40%; min-height: 3; border-top: solid $panel-lighten-2; padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, *, backlog: int = 500, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Traffic"
        self._backlog: deque[TrafficRecorded] = deque(maxlen=backlog)
        self._dropped = 0
        #: When each request was seen, per (server, direction, id): a response's latency.
        self._asked_at: dict[tuple[str, str, str], float] = {}
        self._rows: deque[Row] = deque(maxlen=MAX_ROWS)
        #: The rows in the table, in its order (the filter's matches), for the detail pane.
        self._shown: list[Row] = []
        self._row_count = 0
        self._words: list[str] = []
        self.messages_seen = 0
        self._summaries = Summaries()
        #: The columns shown now (those that fit the width).
        self.columns: tuple[str, ...] = tuple(name for name, _ in COLUMNS)
        #: The newest row is selected: new rows move the selection along.
        self.following = True
        #: Rows added since the person moved up (the "N new ↓" marker).
        self.unseen = 0

    def compose(self) -> ComposeResult:
        yield InertInput(
            placeholder="/ filter: method, id, server, in/out, result",
            id="traffic-filter",
            compact=True,
        )
        table = TrafficTable(id="traffic-table", cursor_type="row")
        self._add_columns(table, self.columns, 60)
        yield table
        yield Static(id="traffic-new")
        with VerticalScroll(id="traffic-detail", can_focus=False):
            yield Static(id="traffic-detail-text")

    @property
    def table(self) -> DataTable[Text]:
        return self.query_one("#traffic-table", DataTable)

    def focus(self, scroll_visible: bool = True) -> TrafficView:
        """Focus goes to the table (``f`` and the palette focus the view)."""
        self.table.focus(scroll_visible)
        return self

    # --- messages ----------------------------------------------------------------------------

    def add_batch(self, events: Sequence[TrafficRecorded], dropped: int = 0) -> None:
        """Queue messages; make their rows now if the view is on screen."""
        self.messages_seen += len(events)
        overflow = max(0, len(self._backlog) + len(events) - (self._backlog.maxlen or 0))
        self._dropped += dropped + overflow
        self._backlog.extend(events)
        if self.display and self.is_mounted:
            self.render_backlog()

    def render_backlog(self) -> None:
        """Make rows for what arrived while hidden (or since the last flush): one update."""
        if not self._backlog and not self._dropped:
            return
        events = list(self._backlog)
        self._backlog.clear()
        skipped = max(0, len(events) - BATCH_MESSAGES)
        for event in events[:skipped]:  # keep the summaries of later responses right
            self._row_for(event)
        dropped = self._dropped + skipped
        self._dropped = 0
        rows: list[Row] = []
        if dropped:
            note = f"… {dropped:,} messages not shown (the --log file has every one)"
            rows.append(Row(self._next_key(), None, "", "", note, "", "", "", ""))
        rows.extend(self._row_for(event, measure=True) for event in events[skipped:])
        self._add_rows(rows)
        if len(self._asked_at) > 10_000:
            self._asked_at.clear()

    def _row_for(self, event: TrafficRecorded, *, measure: bool = False) -> Row:
        message = event.message
        method = self._summaries.summary(message, event.direction, event.server)
        raw_id = message.get("id")
        shown_id = "" if raw_id is None else str(raw_id)
        latency = ""
        if raw_id is not None:
            if isinstance(message.get("method"), str):
                self._asked_at[(event.server, event.direction, shown_id)] = event.at
            else:
                other = "in" if event.direction == "out" else "out"
                asked = self._asked_at.pop((event.server, other, shown_id), None)
                if asked is not None:
                    latency = _duration(event.at - asked)
        size = ""
        if measure:  # encoded only up to MEASURED_CHARS: a huge message is not encoded whole
            length = json_length(message, cap=MEASURED_CHARS)
            size = "?" if length is None else _size(length)
        return Row(
            self._next_key(),
            event,
            precise_clock(event.at),
            event.direction,
            method,
            shown_id,
            size,
            latency,
            shown_name(event.server),
            _kind(message),
        )

    def _next_key(self) -> str:
        self._row_count += 1
        return str(self._row_count)

    def _add_rows(self, rows: Sequence[Row]) -> None:
        """One table update per flush. Past :data:`MAX_ROWS` the table is rebuilt with its newest
        half in one go: removing rows one by one cost 5 ms a row once the table was full."""
        table = self.table
        following = self.following or table.row_count == 0
        self._rows.extend(rows)
        matching = [row for row in rows if row.matches(self._words)]
        if len(self._shown) + len(matching) > MAX_ROWS:
            self._show((self._shown + matching)[-(MAX_ROWS // 2) :])
        else:
            self._shown.extend(matching)
            table.add_rows(row.cells_for(self.columns) for row in matching)
        if following and table.row_count:
            table.move_cursor(row=table.row_count - 1, animate=False)
        elif matching:
            self.unseen += len(matching)
            self._show_marker()

    def _show(self, rows: list[Row]) -> None:
        """Replace the table's rows with ``rows`` (in one update)."""
        self._shown = rows
        table = self.table
        table.clear()
        table.add_rows(row.cells_for(self.columns) for row in rows)

    # --- following, columns, opening --------------------------------------------------------

    def jump_to_newest(self) -> None:
        """End / G: the newest row, and follow new ones again."""
        table = self.table
        self.following = True
        self.unseen = 0
        self._show_marker()
        if table.row_count:
            table.move_cursor(row=table.row_count - 1, animate=False)

    def _show_marker(self) -> None:
        marker = self.query_one("#traffic-new", Static)
        marker.update(f"{self.unseen:,} new ↓ (End)" if self.unseen else "")
        marker.set_class(bool(self.unseen) and not self.following, "-shown")

    def open_message(self, index: int) -> None:
        """Enter / ``i``: the message full screen, as a foldable tree."""
        row = self._shown[index] if 0 <= index < len(self._shown) else None
        if row is None or row.event is None:
            return
        arrow = "→ sent to" if row.direction == "out" else "← from"
        heading = f"{arrow} {row.server} · {row.method} · id {row.id or '-'} · {row.time}"
        self.post_message(self.MessageOpened(row.event.message, heading))

    @staticmethod
    def _add_columns(table: DataTable[Text], columns: Sequence[str], width: int) -> None:
        widths = dict(COLUMNS)
        fixed = sum(widths[name] + 2 for name in columns if widths[name])
        for name in columns:
            table.add_column(name, width=widths[name] or max(10, width - fixed - 3), key=name)

    def _fit_columns(self, width: int) -> None:
        """Drop columns in :data:`DROP_ORDER` until the message column has room; rebuild the
        table only when the set changes (the selection stays on the same message)."""
        widths = dict(COLUMNS)
        columns = [name for name, _ in COLUMNS]
        for name in DROP_ORDER:
            fixed = sum(widths[n] + 2 for n in columns if widths[n])
            if width - fixed - 3 >= MESSAGE_MIN:
                break
            columns.remove(name)
        table = self.table
        cursor, following = table.cursor_row, self.following
        table.clear(columns=True)
        self.columns = tuple(columns)
        self._add_columns(table, self.columns, width)
        table.add_rows(row.cells_for(self.columns) for row in self._shown)
        if table.row_count:
            row = table.row_count - 1 if following else min(cursor, table.row_count - 1)
            table.move_cursor(row=row, animate=False)

    def on_resize(self) -> None:
        width = self.size.width
        if width and self.is_mounted:
            self._fit_columns(width)
            table = self.table
            if table.row_count:  # the selection stays in view
                self.call_after_refresh(table.move_cursor, row=table.cursor_row, animate=False)

    # --- filter and details ------------------------------------------------------------------

    def action_filter(self) -> None:
        self.query_one("#traffic-filter", Input).focus()

    @on(Input.Changed, "#traffic-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._words = event.value.casefold().split()
        self._show([row for row in self._rows if row.matches(self._words)])
        self.jump_to_newest()

    @on(Input.Submitted, "#traffic-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    @on(DataTable.RowHighlighted, "#traffic-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        index = event.cursor_row
        table = self.table
        # A highlight left over from a rebuild (the cursor has moved on since) changes nothing.
        if table.row_count and index == table.cursor_row:
            self.following = index >= table.row_count - 1
            if self.following:
                self.unseen = 0
            self._show_marker()
        row = self._shown[index] if 0 <= index < len(self._shown) else None
        detail = self.query_one("#traffic-detail-text", Static)
        if row is None or row.event is None:
            detail.update(literal(row.method if row is not None else "", limit=300))
            return
        body, cut = json_preview(row.event.message, limit=DETAIL_CHARS, indent=2)
        body, lines_cut = clip(body, chars=DETAIL_CHARS, lines=200)
        cut = cut or lines_cut
        text = body + ("\n… cut (the --log file has every message in full)" if cut else "")
        detail.update(literal(text, limit=None))

    @on(DataTable.RowSelected, "#traffic-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.open_message(event.cursor_row)

    def text(self) -> str:
        """Every row as plain text, then the detail pane (for tests and screen readers)."""
        lines = [" ".join(cell.plain for cell in row.cells) for row in self._rows]
        detail = self.query_one("#traffic-detail-text", Static)
        return "\n".join([*lines, str(detail.render())])


def _size(length: int) -> str:
    """ "116 B", "2.0 K", "1.3 M": short enough for the table at 80 columns; over
    :data:`MEASURED_CHARS`: ">256 K"."""
    if length > MEASURED_CHARS:
        return f">{MEASURED_CHARS // 1024} K"
    if length < 1024:
        return f"{length} B"
    if length < 1024 * 1024:
        return f"{length / 1024:.1f} K"
    return f"{length / (1024 * 1024):.1f} M"


def _duration(seconds: float) -> str:
    if seconds < 0:
        return ""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.1f} s"
