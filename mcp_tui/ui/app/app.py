"""The Textual app: owns the server connections and feeds their events to the session screen.

Start-up order matters for the first frame: nothing on the import path of this module imports
``mcp`` (about half a second); the connections start after the first paint
(:mod:`mcp_tui.ui.app.connections`). Session events arrive through a sink at any rate; they are
buffered (:mod:`mcp_tui.ui.event_buffer`) and flushed to the widgets on a timer.

Every way out closes every connection, all at once (:mod:`mcp_tui.ui.app.quitting`): Ctrl+Q
(and the palette's Quit) close them first, with a notice, then exit; any other exit closes them
in :meth:`McpTuiApp.on_unmount`, while the event loop still runs.

The app is made of parts it holds, each with its own state and a small interface:
:class:`~mcp_tui.ui.app.connections.Connections` (starting, reconnecting and closing
connections), :class:`~mcp_tui.ui.app.server_actions.ServerActions` (what the user asks of one
server: reconnect, other era, stop asking, roots, refresh, ``--watch``),
:class:`~mcp_tui.ui.app.waits.WaitKeeper` (the URL waits and their transcript lines),
:class:`~mcp_tui.ui.app.chat_access.ChatAccess` (the chat screen and its model),
:class:`~mcp_tui.ui.app.requested_call.RequestedCall` (``--call``) and
:class:`~mcp_tui.ui.app.quitting.Quitting` (the ways out). This module is the screen, the event
flush, the transcript lines of the requests a server made, help, the theme and ``[keys]``. What the
screens use of the app is :class:`~mcp_tui.ui.app_interface.McpApp`: the app offers its parts'
verbs there, one line each, so a screen never knows how the app is made.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.dom import DOMNode
from textual.screen import Screen

from mcp_tui.config.options import AppOptions
from mcp_tui.config.roots import Root
from mcp_tui.config.servers import ServerSpec
from mcp_tui.process.collector import LARGE_LISTING, freeze_survivors
from mcp_tui.session.era import Era
from mcp_tui.session.events import CallOutcome, ConnectionState, Notice, ResourceUpdated
from mcp_tui.ui.app.catalog_notes import catalog_note
from mcp_tui.ui.app.chat_access import ChatAccess
from mcp_tui.ui.app.commands import McpCommands
from mcp_tui.ui.app.connections import Connections
from mcp_tui.ui.app.keymap import TakenKeys
from mcp_tui.ui.app.quitting import Quitting
from mcp_tui.ui.app.requested_call import RequestedCall
from mcp_tui.ui.app.server_actions import ServerActions
from mcp_tui.ui.app.waits import WAIT_TICK, WaitKeeper
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.arming_delay import ARMING
from mcp_tui.ui.event_buffer import EventBuffer
from mcp_tui.ui.messages import (
    ElicitationFinished,
    ElicitationShown,
    SamplingFinished,
    SamplingShown,
)
from mcp_tui.ui.render import elicitation_finished_entry, elicitation_shown_entry
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.server_state import Connection, ConnectionFactory, ServerEntry
from mcp_tui.ui.url_waits import UrlWait, UrlWaits, WaitState
from mcp_tui.untrusted import clipboard_text, one_line

if TYPE_CHECKING:  # annotations only: none of these loads before the first frame
    from mcp_tui.config.chat_settings import ChatSettings
    from mcp_tui.session.elicitation import ElicitationHandler, ElicitationRequest
    from mcp_tui.ui.tour.guide import TourGuide
    from mcp_tui.ui.widgets.session.traffic_view import TrafficView

#: The events that make start-up work wait (a mouse move does not).
_USER_INPUT = (
    events.Key,
    events.Paste,
    events.MouseDown,
    events.MouseScrollDown,
    events.MouseScrollUp,
)

#: Seconds between two flushes of buffered events to the widgets (about three frames).
FLUSH_INTERVAL = 0.05


class McpTuiApp(App[None]):
    """mcp-tui: servers, their tools, prompts and resources, and elicitation as real forms."""

    CSS_PATH = "app.tcss"
    TITLE = "mcp-tui"
    #: The wire panel beside a form (F6): shown or not, for the whole session.
    wire_shown = False
    #: One provider for every verb (Textual's system commands folded in: ``ui/app/commands.py``).
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {McpCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        # ``?`` is not priority: typed in a text field it is a question mark. F1 types nothing,
        # so it is priority and works on every screen, forms included.
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("f1", "help", "Help", priority=True, show=False, id="app.help_f1"),
        # ``quit`` is Textual's own action (also run by its palette command): ours asks first.
        Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
        # ``--tour``: priority so the catalog does not take them; ``check_action`` lets them
        # through everywhere but the session screen's non-text widgets (a form types them).
        Binding("space,right", "tour_next", "Next step", key_display="Space/→", priority=True,
                id="app.tour_next",
                tooltip="demo --tour: the next step (on the session screen, once a step is over)"),
    ]  # fmt: skip

    def __init__(
        self,
        servers: Sequence[ServerSpec],
        options: AppOptions,
        *,
        connection_factory: ConnectionFactory | None = None,
    ) -> None:
        super().__init__()
        self.options = options
        #: Set once the remembered theme is applied: only later changes are the person's.
        self._theme_restored = False
        #: Every configured server, by name, in configuration order (shared with the parts).
        self.entries = {spec.name: ServerEntry(spec) for spec in servers}
        #: Session events, from any connection at any rate, until the next flush.
        self._buffer = EventBuffer()
        self._call_ids = itertools.count(1)
        self._session: SessionScreen | None = None
        session = self._session_screen
        self.connections = Connections(
            self, self.entries, options, self._buffer, connection_factory
        )
        self.server_actions = ServerActions(self, self.connections, self._buffer, session)
        self.waits = WaitKeeper(self, self.entries, session)
        self.chat = ChatAccess(self, options)
        self.quitting = Quitting(self, self.connections, self.server_actions, session)
        self._requested_call = RequestedCall(
            self, options.call, self.entries, self._buffer, session
        )
        #: ``--tour``: the guided tour (made on mount).
        self.tour: TourGuide | None = None
        #: Says which bindings a ``[keys]`` entry took a key from, once each.
        self._taken_keys = TakenKeys(self)
        if options.arming_delay is not None:  # ``[app] arming_delay`` in the config
            ARMING.delay = options.arming_delay
        if options.keymap:  # ``[keys]`` in the config, checked there (``config/keys.py``)
            self.set_keymap(options.keymap)
        self._update_sub_title()

    # --- the clipboard -------------------------------------------------------------------------

    def copy_to_clipboard(self, text: str) -> None:
        """The one way to the clipboard (OSC 52): ours (the traffic tree's JSON, the detail
        view, a URL) and Textual's own (a selection, an input's Ctrl+C) alike, every character
        the terminal or a paste could act on escaped (``untrusted.clipboard_text``)."""
        super().copy_to_clipboard(clipboard_text(text))

    # --- start-up ----------------------------------------------------------------------------

    @property
    def _background_screens(self) -> list[Screen[Any]]:
        """Screens that show through the top one: none under an opaque screen.

        Textual counts the screen right under the top one as visible whatever the top one's
        background, so under an (opaque) form the session screen kept laying itself out on every
        resize and, while a call runs, its animated progress bar made the form redraw those
        cells 15 times a second. Covered, it does nothing; when the form closes, Textual lays it
        out again (``Screen._on_screen_resume``). Translucent screens (the command palette)
        keep Textual's behaviour.
        """
        stack = self._screen_stack
        if len(stack) > 1 and stack[-1].styles.background.a == 1:
            return []
        return super()._background_screens

    def get_default_screen(self) -> Screen[Any]:
        self._session = SessionScreen()
        return self._session

    @property
    def session(self) -> SessionScreen | None:
        return self._session

    def _session_screen(self) -> SessionScreen | None:
        """The session screen, for the parts (it is made after them)."""
        return self._session

    async def on_event(self, event: events.Event) -> None:
        # Start-up work waits for a pause in the user's input (``Connections._until_quiet``).
        if isinstance(event, _USER_INPUT):
            self.connections.last_input = asyncio.get_running_loop().time()
        await super().on_event(event)

    def on_mount(self) -> None:
        self._restore_theme()
        self.set_interval(FLUSH_INTERVAL, self._flush_events, name="flush-events")
        self.set_interval(WAIT_TICK, self.waits.expire, name="url-wait-deadlines")
        # After the first frame: the connection module imports ``mcp``.
        self.call_after_refresh(self._begin)
        if self.options.chat is not None and self.options.chat.open_at_start:
            self.call_after_refresh(self.chat.open)
        if self.options.tour:
            from mcp_tui.ui.tour.guide import TourGuide

            self.tour = TourGuide(self)
            self.tour.start()
        for note in self.options.start_notes:
            self.notify(one_line(note, limit=None), timeout=12, markup=False)
        record = self.options.record
        if record is not None and self._session is not None:  # every finished call, as a case
            self._session.calls.history.listen(partial(self._session.repeat.record_call, record))
            text = f"--record: every call that finishes is saved as a test case in {record}"
            self._buffer.add(Notice("mcp-tui", text))

    def handle_bindings_clash(self, clashed_bindings: set[Binding], node: DOMNode) -> None:
        """Textual's report of a binding without an id that a ``[keys]`` entry took the key of
        (those with an id: :meth:`TakenKeys.say_loaded <mcp_tui.ui.app.keymap.TakenKeys>`)."""
        for binding in clashed_bindings:
            self._taken_keys.say(binding)

    def _restore_theme(self) -> None:
        """The theme chosen last time (``options.theme_file``), if it still exists."""
        file = self.options.theme_file
        try:
            name = file.read_text(encoding="utf-8").strip() if file is not None else ""
        except (OSError, UnicodeDecodeError):
            name = ""
        if name and name in self.available_themes:
            self.theme = name
        self._theme_restored = True

    def watch_theme(self, name: str) -> None:
        """Remember a theme chosen (the palette's "Change theme") for the next start."""
        file = self.options.theme_file
        if file is None or not self._theme_restored:
            return
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(name + "\n", encoding="utf-8")
        except OSError as exc:
            self.notify(
                f"The theme could not be remembered: {exc}", severity="warning", markup=False
            )

    def _begin(self) -> None:
        self.run_worker(self._start(), name="start", exit_on_error=False)

    async def _start(self) -> None:
        await self.connections.start(self._mount_session_panels)
        self._taken_keys.say_loaded()
        # ``--watch``: after the servers started, off the first frame
        self.server_actions.start_watching()

    async def _mount_session_panels(self) -> None:
        """The session screen's panels, painted before anything else blocks the event loop;
        always before a connection starts, so no event comes before its panel."""
        session = self._session
        if session is None:
            return
        await session.areas.mount_panels()
        painted = asyncio.Event()
        self.call_after_refresh(painted.set)
        await painted.wait()

    def next_call_id(self) -> int:
        return next(self._call_ids)

    # --- events ------------------------------------------------------------------------------

    def _flush_events(self) -> None:
        """Move everything buffered to the widgets: one pass per timer tick, not per event."""
        session = self._session
        if session is None or not session.areas.panels_live:
            return  # the events wait in the buffer (or the app is closing: never shown)
        if not self._buffer.pending:
            session.areas.flush_entries()
            return
        batch = self._buffer.drain()
        changed: dict[str, ServerEntry] = {}
        for state in batch.states:
            entry = self.entries.get(state.server)
            if entry is not None:
                entry.apply_state(state)
                entry.name_from_info(self.entries.values())
                changed[entry.name] = entry
        changes, listed = [], 0
        for catalog in batch.catalogs.values():
            entry = self.entries.get(catalog.server)
            if entry is not None:
                change = catalog_note(entry, catalog)  # what changed, before it is applied
                if change is not None:
                    changes.append(change)
                entry.apply_catalog(catalog)
                changed[entry.name] = entry
                listed = max(listed, catalog.size)
        for event in batch.notes:
            if isinstance(event, ResourceUpdated) and event.server in self.entries:
                entry = self.entries[event.server]
                entry.mark(event.uri, updated=True)
                changed[entry.name] = entry
        for pause in batch.pauses:
            entry = self.entries.get(pause.server)
            if entry is not None:
                entry.paused = pause.paused
                entry.paused_by_limit = pause.paused and pause.by_limit
                changed[entry.name] = entry
        entries = changes + self.waits.batch_ended(batch)
        session.apply_batch(batch, changed.values())
        if listed >= LARGE_LISTING:
            freeze_survivors()  # a big catalog, shown: no collector pass walks it again
        if entries:
            session.areas.queue_entries(entries)
            session.areas.flush_entries()
        if changed:
            self._update_sub_title()
            self._requested_call.try_now()
            if self.tour is not None:
                self.tour.servers_changed(self.entries)

    def _update_sub_title(self) -> None:
        """ "2 servers · 1 ready · 1 failed" in the header."""
        count = len(self.entries)
        parts = [f"{count} server" + ("" if count == 1 else "s")]
        for state in (ConnectionState.READY, ConnectionState.CONNECTING, ConnectionState.FAILED):
            number = sum(1 for e in self.entries.values() if e.state is state)
            if number and not (state is ConnectionState.READY and number == count):
                parts.append(f"{number} {state.value}")
        self.sub_title = " · ".join(parts)

    # --- the requests a server made, in the transcript (posted by the handlers) -------------

    def on_elicitation_shown(self, message: ElicitationShown) -> None:
        if self._session is not None:
            self._session.areas.queue_entries(
                [elicitation_shown_entry(message.request, message.waiting)]
            )

    def on_elicitation_finished(self, message: ElicitationFinished) -> None:
        request = message.request
        if request.mode == "url" and message.outcome.action == "accept":
            self.waits.wait_for_page(request)
        if self._session is not None:
            self._session.calls.history.answered(request, message.outcome)
            entry = elicitation_finished_entry(
                message.request, message.outcome, message.abandoned_input
            )
            self._session.areas.queue_entries([entry])
            if self.wire_shown:  # the wire's last beat: the answer as it went out
                self._session.areas.sent.expect(request, self._session.kept_traffic)
            else:  # hidden in the form: an older answer must not stand for this one
                self._session.areas.sent.hide()

    def on_sampling_shown(self, message: SamplingShown) -> None:
        from mcp_tui.ui.render_sampling import sampling_shown_entry

        if self._session is not None:
            self._session.areas.queue_entries(
                [sampling_shown_entry(message.request, message.waiting)]
            )

    def on_sampling_finished(self, message: SamplingFinished) -> None:
        from mcp_tui.ui.render_sampling import sampling_finished_entry

        if self._session is not None:
            self._session.calls.history.answered(message.request, message.outcome)
            entry = sampling_finished_entry(
                message.request, message.outcome, message.abandoned_input
            )
            self._session.areas.queue_entries([entry])

    # --- what the screens use of the parts (``McpApp``) -------------------------------------

    @property
    def handler(self) -> ElicitationHandler | None:
        """The elicitation handler (built after the first frame)."""
        return self.connections.handler

    @property
    def url_waits(self) -> UrlWaits:
        return self.waits.url_waits

    def connection(self, server: str) -> Connection | None:
        return self.connections.connection(server)

    def stderr_log_path(self, server: str) -> Path | None:
        return self.connections.stderr_log_path(server)

    def wrote(self, path: Path) -> None:
        self.server_actions.wrote(path)

    def reconnect(self, server: str) -> None:
        self.server_actions.reconnect(server)

    def other_era(self, server: str) -> Era | None:
        return self.server_actions.other_era(server)

    def reconnect_on_other_era(self, server: str) -> None:
        self.server_actions.reconnect_on_other_era(server)

    def set_elicitation_paused(self, server: str, paused: bool) -> None:
        self.server_actions.set_elicitation_paused(server, paused)

    def refresh_server(self, server: str) -> None:
        self.server_actions.refresh_server(server)

    def refresh_catalog(self, server: str) -> None:
        self.server_actions.refresh_catalog(server)

    def set_roots(self, server: str, roots: Sequence[Root]) -> None:
        self.server_actions.set_roots(server, roots)

    def end_url_wait(self, key: int, state: WaitState) -> None:
        self.waits.end(key, state)

    def wait_for_page(self, request: ElicitationRequest) -> UrlWait:
        return self.waits.wait_for_page(request)

    def open_chat(self) -> None:
        self.chat.open()

    async def chat_model(self, settings: ChatSettings) -> Any:
        return await self.chat.model(settings)

    async def call_tool_awaited(
        self,
        server: str,
        name: str,
        arguments: Mapping[str, Any],
        *,
        asking_over: object | None = None,
        asked: list[str] | None = None,
    ) -> CallOutcome:
        """A tool call the chat awaits: made on the session screen, shown there like any call
        (its transcript, its running calls, a -32042's consent and retry; see
        ``Calls.call_tool_awaited``)."""
        session = self._session
        if session is None:
            return CallOutcome(error="The session screen is not ready.")
        return await session.calls.call_tool_awaited(
            server, name, arguments, asking_over=asking_over, asked=asked
        )

    def chat_available(self) -> bool:
        return self.chat.available()

    def chat_settings(self) -> ChatSettings:
        return self.chat.settings()

    # --- help and quitting -------------------------------------------------------------------

    def on_traffic_view_message_opened(self, event: TrafficView.MessageOpened) -> None:
        """A row of the traffic view opened: its message full screen, as a foldable tree."""
        from mcp_tui.ui.screens.message_tree import MessageTreeScreen

        self.push_screen(MessageTreeScreen(event.message, event.heading))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "tour_next":  # hidden, and the key left to the screen, when not the tour's
            return self.tour is not None and self.tour.takes_keys()
        return True

    def action_tour_next(self) -> None:
        if self.tour is not None:
            self.tour.next()

    def action_help(self) -> None:
        """``?``, F1 or the palette's Help: every key by context (built from the bindings)."""
        from mcp_tui.ui.app.help import HelpScreen  # lazy: it imports every screen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)  # F1 again closes it
        else:
            self.push_screen(HelpScreen())

    def request_quit(self, *, ask: bool = False) -> None:
        """Quit, asking first when a form is open, a call runs, or ``ask`` (``quitting.py``)."""
        self.quitting.request(ask=ask)

    async def action_quit(self) -> None:
        """Ctrl+Q (and the palette's Quit): ask first when a form is open or a call runs, then
        close every connection and exit."""
        self.quitting.request()

    async def on_unmount(self) -> None:
        """Any other way out (``exit()``, an error, a test ending): still close everything."""
        await self.quitting.close_everything()


if TYPE_CHECKING:  # mypy checks that the app offers what the screens and the palette use
    _OFFERS: type[McpApp] = McpTuiApp
