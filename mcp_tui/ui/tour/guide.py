"""Plays the tour (``script.py``) on the real session screen, forms and wire panel.

The guide owns no screen of its own. When a step starts it calls the step's demo tools through
the session screen's :meth:`~mcp_tui.ui.screens.session_features.SessionFeatures.
call_tool_awaited` (the chat's way: shown in the transcript and the running calls like any call,
a -32042 going through the same consent, wait and retry question); the forms, URL consent and
wire panel that open are the ones every call gets. The step is over when its calls have ended.

The keys: Space and → advance (an app binding, priority, so the catalog does not take them),
but only on the session screen and never in a text field: in a form, Space types a space and →
moves the cursor, as always. Pressed while a step is still running they say what it waits for.

A note (:class:`~mcp_tui.ui.tour.note.TourNote`) is docked on the session screen, whole, and on
each screen that answers the server (compact: the heading and what to press), added as the
screen appears (the app's ``screen_change_signal``). A dialog over the session screen (the
-32042 retry question) lets the session screen show through: the session's note is hidden while
it is up, so one note is drawn, not two.

The wire: each step starts with it shown (``wire_shown``), whatever F6 did in the step before,
and split on a small screen (``wire_split``: the form stays, the wire in two lines under it; F6
the whole wire over the form, for the rest of the step).

The tour begins when the demo server is ready, as the catalog says it is: its tools may still be
on their way (a step calls them by name), and waiting for them showed "waiting for the demo
server…" for seconds under a server already marked ready.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from textual.screen import Screen
from textual.widgets import Input, TextArea

from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.screens.arming import ArmedScreen
from mcp_tui.ui.tour.note import NoteText, TourNote
from mcp_tui.ui.tour.script import NEXT_KEYS, STEPS, Call, Step
from mcp_tui.ui.widgets.request.wire_panel import WIDE, WIRE_HINT
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from textual.app import App

    from mcp_tui.ui.screens.session import SessionScreen
    from mcp_tui.ui.server_state import ServerEntry


class TourGuide:
    """Where the tour is (a step index, running or over) and the notes that show it."""

    def __init__(self, app: App[Any], steps: tuple[Step, ...] = STEPS) -> None:
        self.app = app
        self.steps = steps
        #: The step shown (``-1``: waiting for the demo server).
        self.index = -1
        #: True while the step's calls run.
        self.running = False
        self.server: str | None = None
        self.era = ""
        self._notes: list[TourNote] = []
        self._noted: weakref.WeakSet[Screen[Any]] = weakref.WeakSet()

    # --- starting --------------------------------------------------------------------------------

    def start(self) -> None:
        """Show the wire panel (split on a small screen), dock the note on the session screen,
        follow new screens."""
        self._wire_for_a_step()
        self.app.wire_split = True  # type: ignore[attr-defined]
        self.app.screen_change_signal.subscribe(self.app, self._screen_changed)
        self._screen_changed(self.app.screen)

    def _wire_for_a_step(self) -> None:
        """Each step starts with the wire shown and summarised (F6 lasts for the step)."""
        self.app.wire_shown = True  # type: ignore[attr-defined]
        self.app.wire_expanded = False  # type: ignore[attr-defined]

    def servers_changed(self, entries: dict[str, ServerEntry]) -> None:
        """The app's flush: begin with step 1 once the demo server is ready."""
        if self.index >= 0:
            return
        for entry in entries.values():
            info = entry.info
            if entry.state is ConnectionState.READY and info is not None:
                self.server = entry.name
                self.era = one_line(info.protocol_version or "", limit=20)
                self._begin(0)
                return
        self._refresh()

    # --- the keys --------------------------------------------------------------------------------

    def takes_keys(self) -> bool:
        """Space and → are the tour's: on the session screen, outside a text field."""
        from mcp_tui.ui.screens.session import SessionScreen

        screen = self.app.screen
        if not isinstance(screen, SessionScreen):
            return False
        return not isinstance(screen.focused, (Input, TextArea))

    def next(self) -> None:
        """Space / →: the next step once this one is over; else say what it waits for."""
        if self.index < 0:
            self.app.notify("The tour starts once the demo server is ready.", markup=False)
        elif self.running:
            step = self.steps[self.index]
            self.app.notify(
                f"Step {self.index + 1} is still running: {step.do_on(self.era)}",
                timeout=6,
                markup=False,
            )
        elif self.index + 1 >= len(self.steps):
            self.app.notify("That was the last step. Ctrl+Q quits.", markup=False)
        else:
            self._begin(self.index + 1)

    # --- a step ----------------------------------------------------------------------------------

    def _begin(self, index: int) -> None:
        self.index = index
        self._wire_for_a_step()
        self._read_era()
        calls = self.steps[index].calls_on(self.era)
        self.running = bool(calls)
        self._refresh()
        if calls:
            self.app.run_worker(self._run(index, calls), group="tour", exit_on_error=False)

    def _read_era(self) -> None:
        """The era the demo is on now: the presenter may switch it mid-tour (E, R), and the
        next step then follows (its wire note, the input_required step)."""
        entries: dict[str, ServerEntry] = getattr(self.app, "entries", {})
        entry = entries.get(self.server) if self.server is not None else None
        version = entry.info.protocol_version if entry is not None and entry.info else None
        if version:
            self.era = one_line(version, limit=20)

    async def _run(self, index: int, calls: tuple[Call, ...]) -> None:
        session = self._session()
        try:
            for call in calls:
                if session is None or self.server is None:
                    break
                await session.calls.call_tool_awaited(self.server, call.tool, call.arguments)
        finally:
            if self.index == index:
                self.running = False
                self._refresh()

    def _session(self) -> SessionScreen | None:
        session = getattr(self.app, "session", None)
        return session

    # --- the notes -------------------------------------------------------------------------------

    def text(self, *, compact: bool = False, wire: bool = True) -> NoteText:
        """What the note says now (``compact``: on a screen that answers the server; ``wire``:
        one with a wire panel, where F6 is the key to name)."""
        count = len(self.steps)
        if self.index < 0:
            return NoteText("Tour", "waiting for the demo server…")
        step = self.steps[self.index]
        where = f"{self.index + 1}/{count}"
        heading = (
            f"Tour {where} · {step.title}" if compact else f"Tour · step {where} — {step.title}"
        )
        last = self.index + 1 >= count
        if not step.applies(self.era):
            state = f"not on {self.era} · {NEXT_KEYS} next step"
            return NoteText(heading, state, do=step.elsewhere)
        do = step.do_on(self.era)
        if compact:  # over a form: F6 is the key; Space types a space there
            small = self.app.size.width < WIDE
            state = f"{WIRE_HINT} wire (and back)" if small else f"{WIRE_HINT} wire on/off"
            return NoteText(heading, state if wire else "answer here", do=do)
        if self.running:
            state = "running: answer what opens"
        elif last:
            state = "the end · Ctrl+Q quits"
        else:
            state = f"done · {NEXT_KEYS} next step"
        return NoteText(heading, state, step.spec, step.wire_on(self.era), do)

    def _refresh(self) -> None:
        self._notes = [note for note in self._notes if note.is_attached or not note.is_mounted]
        for note in self._notes:
            note.show(self.text(compact=note.compact, wire=note.wire))
        session = self._session()
        if session is not None and session.is_mounted:
            session.refresh_bindings()

    def _screen_changed(self, screen: Screen[Any]) -> None:
        from mcp_tui.ui.screens.session import SessionScreen

        compact = isinstance(screen, ArmedScreen)
        # A dialog shows the session screen through: its note alone is drawn.
        over_session = compact and screen.has_class("dialog-screen")
        for note in self._notes:
            if not note.compact:
                note.display = not over_session
        if not (compact or isinstance(screen, SessionScreen)):
            return
        if screen in self._noted:
            return
        self._noted.add(screen)
        if not compact:
            screen.add_class("-tour")
        wire = hasattr(screen, "wire")  # the screens that answer with a wire panel (F6)
        note = TourNote(self.text(compact=compact, wire=wire), compact=compact, wire=wire)
        self._notes.append(note)
        screen.mount(note)
