"""Calls in flight, each with a progress bar fed by ``notifications/progress``.

Progress updates arrive already coalesced (the latest per call per flush), so a server reporting
progress a thousand times a second moves the bar at most once per frame.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Label, ProgressBar

from mcp_tui.session.events import ProgressReceived
from mcp_tui.ui.text import literal_line


class RunningCall(Horizontal):
    """One call in flight: what it is, a bar, and the server's latest progress message."""

    def __init__(self, call_id: int, label: Content) -> None:
        super().__init__(classes="running-call")
        self.call_id = call_id
        self._label = label
        self._latest: ProgressReceived | None = None

    def compose(self) -> ComposeResult:
        yield Label(self._label, classes="running-label")
        yield ProgressBar(total=None, show_eta=False, classes="running-bar")
        yield Label(Content(""), classes="running-message")

    def on_mount(self) -> None:
        if self._latest is not None:
            self.show_progress(self._latest)

    def show_progress(self, event: ProgressReceived) -> None:
        """Show the latest progress now, or as soon as the row's widgets exist."""
        self._latest = event
        bars = self.query(ProgressBar)
        messages = self.query(".running-message").results(Label)
        message = next(messages, None)
        if not bars or message is None:  # not composed yet: on_mount shows the latest
            return
        bar = bars.first()
        total = event.total if event.total and event.total > 0 else None
        bar.update(total=total, progress=event.progress)
        if event.message:
            message.update(literal_line(event.message, limit=80))
        elif total is None:
            message.update(Content(f"{event.progress:g}"))


class RunningCalls(Vertical):
    """The list of running calls; empty (and zero height) when nothing runs."""

    def start(self, call_id: int, label: Content) -> None:
        self.mount(RunningCall(call_id, label))

    def _row(self, call_id: int) -> RunningCall | None:
        for row in self.query(RunningCall):
            if row.call_id == call_id:
                return row
        return None

    def progress(self, event: ProgressReceived) -> None:
        row = self._row(event.call_id)
        if row is not None:
            row.show_progress(event)

    def finish(self, call_id: int) -> None:
        row = self._row(call_id)
        if row is not None:
            row.remove()

    @property
    def count(self) -> int:
        return len(self.query(RunningCall))
