"""The Textual app: owns the server connections and feeds their events to the session screen.

Start-up order matters for the first frame: nothing on the import path of this module imports
``mcp`` (about half a second); the connections start after the first paint
(:mod:`mcp_tui.ui.app.connections`). Session events arrive through a sink at any rate; they are
buffered (:mod:`mcp_tui.ui.event_buffer`) and flushed to the widgets on a timer.

Every way out closes every connection, all at once: Ctrl+Q (and the palette's Quit) close them
first, with a notice, then exit; any other exit (``App.exit()``, an error, a test's ``run_test``
ending) closes them in :meth:`McpTuiApp.on_unmount`, while the event loop still runs (why they
are not Textual workers, and how a stdio server is stopped: :mod:`mcp_tui.ui.app.connections`).

The app is split by concern: :class:`~mcp_tui.ui.app.connections.AppConnections` (starting,
reconnecting and closing connections), :class:`~mcp_tui.ui.app.server_actions.AppServers` (what
the user asks of one server: reconnect, other era, stop asking, roots, refresh),
:class:`~mcp_tui.ui.app.waits.AppWaits` (elicitation transcript lines and URL waits),
:class:`~mcp_tui.ui.app.chat_access.AppChat` (the chat screen and its model) and this module (the
screen, the event flush, ``--call`` and quitting). What the screens use of it is
:class:`~mcp_tui.ui.app_interface.McpApp`.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.screen import Screen

from mcp_tui.config.options import AppOptions
from mcp_tui.process.collector import LARGE_LISTING, freeze_survivors
from mcp_tui.session.events import ConnectionState, Notice, ResourceUpdated
from mcp_tui.session.servers import ServerSpec
from mcp_tui.ui.app.catalog_notes import catalog_note
from mcp_tui.ui.app.chat_access import AppChat
from mcp_tui.ui.app.commands import McpCommands
from mcp_tui.ui.app.connections import CLOSE_TIMEOUT
from mcp_tui.ui.app.server_actions import AppServers
from mcp_tui.ui.app.waits import WAIT_TICK, AppWaits
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.event_buffer import EventBuffer
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.state import ConnectionFactory, ServerEntry
from mcp_tui.ui.url_waits import UrlWaits
from mcp_tui.untrusted import one_line

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


class McpTuiApp(AppServers, AppWaits, AppChat):
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
        Binding("ctrl+q", "request_quit", "Quit", priority=True, id="app.quit"),
    ]

    def __init__(
        self,
        servers: Sequence[ServerSpec],
        options: AppOptions,
        *,
        connection_factory: ConnectionFactory | None = None,
    ) -> None:
        super().__init__()
        # The attributes of both parts are declared (with types and notes) in their classes.
        self.options = options
        #: Set once the remembered theme is applied: only later changes are the person's.
        self._theme_restored = False
        self.entries = {spec.name: ServerEntry(spec) for spec in servers}
        self._factory = connection_factory
        self._buffer = EventBuffer()
        self._call_ids = itertools.count(1)
        self._pending_call = options.call
        self._quitting = False
        #: The open "Quit mcp-tui?" question (a second Ctrl+Q answers it), if any.
        self._quit_question: Screen[bool] | None = None
        self._session = None
        self._traffic_log = None
        self.handler = None
        self._auth_handler = None
        self.url_waits = UrlWaits()
        self._connection_tasks = set()
        self._closing_connections = None
        self._head_starts = {}
        self._chat_models = {}
        self.last_input = 0.0
        self._update_sub_title()

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

    async def on_event(self, event: events.Event) -> None:
        # Start-up work waits for a pause in the user's input (``AppConnections._until_quiet``).
        if isinstance(event, _USER_INPUT):
            self.last_input = asyncio.get_running_loop().time()
        await super().on_event(event)

    def on_mount(self) -> None:
        self._restore_theme()
        self.set_interval(FLUSH_INTERVAL, self._flush_events, name="flush-events")
        self.set_interval(WAIT_TICK, self._expire_waits, name="url-wait-deadlines")
        # After the first frame: the connection module imports ``mcp``.
        self.call_after_refresh(self._begin)
        if self.options.chat is not None and self.options.chat.open_at_start:
            self.call_after_refresh(self.open_chat)
        for note in self.options.start_notes:
            self.notify(one_line(note, limit=None), timeout=12, markup=False)
        record = self.options.record
        if record is not None and self._session is not None:  # every finished call, as a case
            self._session.history.listen(partial(self._session.record_call, record))
            text = f"--record: every call that finishes is saved as a test case in {record}"
            self._buffer.add(Notice("mcp-tui", text))

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
        await self._start_connections()
        self.start_watching()  # ``--watch``: after the servers started, off the first frame

    def next_call_id(self) -> int:
        return next(self._call_ids)

    # --- events ------------------------------------------------------------------------------

    def _flush_events(self) -> None:
        """Move everything buffered to the widgets: one pass per timer tick, not per event."""
        session = self._session
        if session is None or not session.panels_live:
            return  # the events wait in the buffer (or the app is closing: never shown)
        if not self._buffer.pending:
            session.flush_entries()
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
        entries = changes + self._wait_events(batch)
        session.apply_batch(batch, changed.values())
        if listed >= LARGE_LISTING:
            freeze_survivors()  # a big catalog, shown: no collector pass walks it again
        if entries:
            session.queue_entries(entries)
            session.flush_entries()
        if changed:
            self._update_sub_title()
            self._run_requested_call()

    def _update_sub_title(self) -> None:
        """ "2 servers · 1 ready · 1 failed" in the header."""
        count = len(self.entries)
        parts = [f"{count} server" + ("" if count == 1 else "s")]
        for state in (ConnectionState.READY, ConnectionState.CONNECTING, ConnectionState.FAILED):
            number = sum(1 for e in self.entries.values() if e.state is state)
            if number and not (state is ConnectionState.READY and number == count):
                parts.append(f"{number} {state.value}")
        self.sub_title = " · ".join(parts)

    # --- --call ------------------------------------------------------------------------------

    def _run_requested_call(self) -> None:
        """``--call``: call the tool on the first ready server offering it, once."""
        request = self._pending_call
        session = self._session
        if request is None or session is None:
            return
        if request.server is not None and request.server not in self.entries:
            self._pending_call = None
            self._buffer.add(Notice(request.server, "--call: no such server", "error"))
            return
        candidates = (
            [self.entries[request.server]] if request.server else list(self.entries.values())
        )
        settled = True
        for entry in candidates:
            tool = entry.find_tool(request.tool) if entry.state is ConnectionState.READY else None
            if tool is not None:
                settling = entry.connection.roots_settle_left() if entry.connection else 0.0
                if settling > 0:  # the server is applying the roots it asked for
                    self.set_timer(settling, self._run_requested_call)
                    return
                self._pending_call = None
                required = tool.input_schema.get("required")
                if request.ask and isinstance(required, list) and required:
                    names = ", ".join(one_line(str(n), limit=40) for n in required[:5])
                    self._buffer.add(
                        Notice(
                            entry.name,
                            f"--call {one_line(tool.name)}: it has required arguments ({names}) "
                            "and no --args were given: fill them in (Ctrl+S calls it)",
                        )
                    )
                    session.open_tool(entry.name, tool.name)
                    return
                # The tool's form starts from these (typed by the user, in the shell) unless a
                # call was already sent from the form: see ``last_sent.remember``.
                from mcp_tui.schema.arguments.last_sent import remember

                schema = tool.input_schema
                remember(entry.last_sent, tool.name, schema, request.arguments, origin="--call")
                session.call_tool(entry.name, request.tool, request.arguments)
                return
            # Explicit 2026-07-28 mode skips server/discover, so capabilities may be unknown
            # (empty): wait for the first tools listing rather than giving up.
            offers_tools = (
                entry.info is None
                or not entry.info.capabilities
                or "tools" in entry.info.capabilities
            )
            listed = entry.catalog_version > 0 or not offers_tools
            if entry.state is ConnectionState.CONNECTING or (
                entry.state is ConnectionState.READY and not listed
            ):
                settled = False
        if settled:
            self._pending_call = None
            where = request.server or "any server"
            text = f"--call: {where} does not offer a tool named {request.tool!r}"
            self._buffer.add(Notice(request.server or "mcp-tui", text, "error"))

    def action_help(self) -> None:
        """``?``, F1 or the palette's Help: every key by context (built from the bindings)."""
        from mcp_tui.ui.app.help import HelpScreen  # lazy: it imports every screen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)  # F1 again closes it
        else:
            self.push_screen(HelpScreen())

    # --- quitting ----------------------------------------------------------------------------

    @property
    def form_open(self) -> bool:
        """True while the user may have typed something a quit would throw away."""
        if getattr(self.handler, "current_screen", None) is not None:
            return True  # an elicitation form or URL consent screen is showing
        # ArgumentsScreen is imported when first shown (TextArea is slow to import): if its
        # module is not loaded, no arguments form can be open.
        arguments = sys.modules.get("mcp_tui.ui.screens.arguments")
        if arguments is None:
            return False
        form = arguments.ArgumentsScreen
        return any(isinstance(screen, form) for screen in self.screen_stack)

    def action_request_quit(self) -> None:
        """Ctrl+Q: ask first when a form is open or a call runs, then close every connection
        and exit."""
        self.request_quit()

    def request_quit(self, *, ask: bool = False) -> None:
        """Quit, asking first when a form is open, a call runs, or ``ask`` (Ctrl+C, which is
        pressed by reflex, always asks)."""
        if self._quitting:
            return
        from mcp_tui.ui.closing import close_wherever
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        asking = self._quit_question
        if asking is not None and asking in self.screen_stack:
            # A second Ctrl+Q answers *this* question, even under a form a server opened since;
            # never another one ("Cancel this request?" is not "Quit?").
            close_wherever(asking, True)
            return
        running = len(self._session.cancellable) if self._session is not None else 0
        if self.form_open or running or ask:

            def answered(quit_now: bool | None) -> None:
                self._quit_question = None
                if quit_now:
                    self._begin_quit()

            reasons = []
            if running:
                calls = "1 call is running" if running == 1 else f"{running} calls are running"
                reasons.append(f"{calls}: quitting cancels it, and the server is told.")
            if self.form_open:
                reasons.append(
                    "A form is open: what you typed will be lost, and the server is told the "
                    "request was cancelled."
                )
            question = " ".join(reasons) or "Close every connection and quit?"
            self._quit_question = ConfirmScreen("Quit mcp-tui?", question, yes="Quit", no="Stay")
            self.push_screen(self._quit_question, callback=answered)
            return
        self._begin_quit()

    async def action_quit(self) -> None:
        self.action_request_quit()

    def _begin_quit(self) -> None:
        self._quitting = True
        if self._connection_tasks:
            self.notify("Closing connections…", timeout=CLOSE_TIMEOUT)
        self.run_worker(self._close_then_exit(), name="quit", exit_on_error=False)

    async def _close_then_exit(self) -> None:
        await self.stop_watching()
        await self.close_connections()
        self.exit()

    async def on_unmount(self) -> None:
        """Any other way out (``exit()``, an error, a test ending): still close everything."""
        self._quitting = True
        await self.stop_watching()
        await self.close_connections()


if TYPE_CHECKING:  # mypy checks that the app offers what the screens and the palette use
    _OFFERS: type[McpApp] = McpTuiApp
