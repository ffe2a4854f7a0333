"""Calls in flight: how long each has run, and a progress bar fed by ``notifications/progress``.

Progress updates arrive already coalesced (the latest per call per flush), so a server reporting
progress a thousand times a second moves the bar at most once per frame.
"""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Label, ProgressBar

from mcp_tui.session.events import ProgressReceived
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.widgets.text.fitted_text import FittedText


class RunningCall(Vertical):
    """One call in flight: what it is, how long it has run, then a bar once progress comes.

    The heading, then (until the server reports progress) the seconds counted once a second;
    then the bar and the progress message, if any, under it. Textual's indeterminate
    ``ProgressBar`` (four widgets, animated at 15 frames a second) is mounted only with the first
    ``notifications/progress``: every call used to have one, and its animation redrew the
    screen, and a form over it, the whole time a call ran.
    """

    def __init__(self, call_id: int, label: Content) -> None:
        super().__init__(classes="running-call")
        self.call_id = call_id
        self._label = label
        self._latest: ProgressReceived | None = None
        self._started = time.monotonic()
        self._bar: ProgressBar | None = None
        self._clock: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Label(self._label, classes="running-label")
        # Two lines at most (app.tcss); a longer message ends with "…" (it is cut at 160 anyway).
        yield FittedText(Content("running"), Content("…"), inline=True, classes="running-message")

    def on_mount(self) -> None:
        if self._latest is not None:
            self.show_progress(self._latest)
        if self._bar is None:
            self._clock = self.set_interval(1.0, self._tick, name="running call clock")

    def _tick(self) -> None:
        if self._bar is None:
            seconds = int(time.monotonic() - self._started)
            self.query_one(".running-message", FittedText).set_text(Content(f"running {seconds} s"))

    def show_progress(self, event: ProgressReceived) -> None:
        """Show the latest progress now, or as soon as the row's widgets exist."""
        self._latest = event
        messages = self.query(".running-message").results(FittedText)
        message = next(messages, None)
        if message is None:  # not composed yet: on_mount shows the latest
            return
        total = event.total if event.total and event.total > 0 else None
        if self._bar is None:
            if self._clock is not None:
                self._clock.stop()
            self._bar = ProgressBar(total=total, show_eta=False, classes="running-bar")
            self.mount(self._bar, before=message)
        self._bar.update(total=total, progress=event.progress)
        if event.message:
            message.set_text(literal_line(event.message, limit=160))
        elif total is None:
            message.set_text(Content(f"{event.progress:g}"))
        else:
            message.set_text(Content(""))
        message.display = bool(event.message) or total is None  # no empty line under the bar


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
