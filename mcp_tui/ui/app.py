"""The Textual app: owns the server connections and feeds their events to the session screen.

Start-up order matters for the first frame: nothing on the import path of this module imports
``mcp`` (about half a second). After the first paint a worker imports
``mcp_tui.session.connection`` in a thread and starts one worker per server, so one failing server
never affects another. Session events arrive through a sink at any rate; they are buffered
(:mod:`mcp_tui.ui.event_buffer`) and flushed to the widgets on a timer.

Every way out closes every connection, all at once: Ctrl+Q (and the palette's Quit) close them
first, with a notice, then exit; any other exit (``App.exit()``, an error, a test's ``run_test``
ending) closes them in :meth:`McpTuiApp.on_unmount`, while the event loop still runs. Connections
run as plain asyncio tasks owned by the app rather than Textual workers, because Textual cancels
its workers before any hook runs at shutdown, and a cancelled connection cannot say goodbye (an
HTTP session stays open on the server). A stdio server is always stopped: the session layer ends
it with EOF, then SIGTERM, then SIGKILL, and the app waits for that.

Accepted URL-mode requests are tracked in :class:`~mcp_tui.ui.url_waits.UrlWaits` until the server
completes them (``ElicitationCompleted``), the user marks them done or gives up, their call ends
(2026-07-28) or their bounded wait runs out.

An HTTP server that wants OAuth gets the app's one ``TuiAuthorizationHandler`` (built after the
first frame, like the elicitation handler): the same URL consent screen, then a wait-or-paste
screen; sign-ins of several servers queue behind one another. Quitting while one shows closes the
connection, which cancels the sign-in and closes its screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from mcp_tui.options import AppOptions
from mcp_tui.session.events import (
    ConnectionState,
    ElicitationCompleted,
    LogReceived,
    Notice,
    ServerStateChanged,
    SessionEvent,
)
from mcp_tui.session.servers import ServerSpec
from mcp_tui.startup import resume_collector
from mcp_tui.ui.commands import McpCommands
from mcp_tui.ui.event_buffer import EventBuffer
from mcp_tui.ui.messages import ElicitationFinished, ElicitationShown
from mcp_tui.ui.render import (
    Entry,
    elicitation_finished_entry,
    elicitation_shown_entry,
    url_wait_entry,
)
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.state import Connection, ConnectionFactory, ServerEntry
from mcp_tui.ui.url_waits import UrlWait, UrlWaits, WaitState

if TYPE_CHECKING:  # annotations only; the modules load after the first frame, when needed
    from mcp_tui.session.elicitation import ElicitationHandler
    from mcp_tui.session.head_start import HeadStart
    from mcp_tui.session.oauth import AuthorizationHandler
    from mcp_tui.session.traffic import TrafficLog

#: Seconds between two flushes of buffered events to the widgets (about three frames).
FLUSH_INTERVAL = 0.05
#: Upper bound on closing every connection when quitting or reconnecting. Connections close
#: concurrently; a stdio server that ignores EOF and SIGTERM takes the session layer about 4.5 s
#: to kill, so this is only reached by something truly stuck.
CLOSE_TIMEOUT = 10.0
#: After spawning stdio servers, how long the import of the connection code waits (seconds).
IMPORT_PAUSE = 0.15
#: Seconds between two checks of the URL waits' deadlines.
WAIT_TICK = 1.0

NO_FORMS_NOTE = "forms are not available in this build: elicitation requests are cancelled"


class McpTuiApp(App[None]):
    """mcp-tui: servers, their tools, prompts and resources, and elicitation as real forms."""

    CSS_PATH = "app.tcss"
    TITLE = "mcp-tui"
    COMMANDS = App.COMMANDS | {McpCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
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
        self.options = options
        self.entries: dict[str, ServerEntry] = {}
        for spec in servers:
            self.entries[spec.name] = ServerEntry(spec)
        self._factory = connection_factory
        self._buffer = EventBuffer()
        self._call_ids = itertools.count(1)
        self._pending_call = options.call
        self._quitting = False
        self._session: SessionScreen | None = None
        self._traffic_log: TrafficLog | None = None
        self.handler: ElicitationHandler | None = None
        #: Who signs in when an HTTP server wants OAuth: the consent and wait screens
        #: (``TuiAuthorizationHandler``), built after the first frame like :attr:`handler`.
        self._auth_handler: AuthorizationHandler | None = None
        #: Accepted URL-mode requests waiting for the server to finish them.
        self.url_waits = UrlWaits()
        self._connection_tasks: set[asyncio.Task[None]] = set()
        self._closing_connections: asyncio.Future[None] | None = None
        #: stdio servers spawned before the connection code loaded, until a connection adopts one.
        self._head_starts: dict[str, HeadStart] = {}
        self._update_sub_title()

    # --- start-up ----------------------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        self._session = SessionScreen()
        return self._session

    @property
    def session(self) -> SessionScreen | None:
        return self._session

    def on_mount(self) -> None:
        self.set_interval(FLUSH_INTERVAL, self._flush_events, name="flush-events")
        self.set_interval(WAIT_TICK, self._expire_waits, name="url-wait-deadlines")
        # After the first frame: the connection module imports ``mcp``.
        self.call_after_refresh(self._begin)

    def _begin(self) -> None:
        self.run_worker(self._start_connections(), name="start", exit_on_error=False)

    async def _load_factory(self) -> ConnectionFactory:
        if self._factory is None:
            module = await asyncio.to_thread(importlib.import_module, "mcp_tui.session.connection")
            self._factory = cast(ConnectionFactory, module.ServerConnection)
        return self._factory

    def _load_handler(self) -> ElicitationHandler:
        if self.handler is None:
            try:
                module = importlib.import_module("mcp_tui.ui.elicitation_handler")
                self.handler = cast(
                    "ElicitationHandler",
                    module.TuiElicitationHandler(
                        self,
                        review_before_send=self.options.review_before_send,
                        save_answers=self.options.save_answers,
                    ),
                )
            except ImportError:
                from mcp_tui.session.elicitation import CancelAll

                self.handler = CancelAll(NO_FORMS_NOTE)
                self._buffer.add(Notice("mcp-tui", NO_FORMS_NOTE, "warning"))
        return self.handler

    def _load_auth_handler(self) -> AuthorizationHandler | None:
        """The TUI's sign-in screens; ``None`` (stored tokens only) if they cannot load."""
        if self._auth_handler is None:
            try:
                module = importlib.import_module("mcp_tui.ui.screens.oauth")
                self._auth_handler = cast(
                    "AuthorizationHandler", module.TuiAuthorizationHandler(self)
                )
            except ImportError as error:
                text = f"signing in (OAuth) is not available in this build: {error}"
                self._buffer.add(Notice("mcp-tui", text, "warning"))
        return self._auth_handler

    async def _start_connections(self) -> None:
        if self._factory is None:  # real connections: start stdio servers before ``import mcp``
            await self._head_start_servers()
            if self._head_starts:
                # Each server now spends a good second starting up on its own, so the import
                # (half a second of CPU in a thread, which halves the UI's speed while it runs)
                # can wait a moment: keys typed right after the first frame are answered at once.
                await asyncio.sleep(IMPORT_PAUSE)
        try:
            factory = await self._load_factory()
        except Exception as error:  # a broken install: say so on every server
            for entry in self.entries.values():
                self._fail(entry, f"cannot load the connection code: {error!r}")
            await self._discard_head_starts()
            return
        finally:
            resume_collector()  # start-up's imports are done (``mcp_tui.startup``)
        handler = self._load_handler()
        self._open_traffic_log()
        for entry in self.entries.values():
            self._connect(entry, factory, handler, self._head_starts.pop(entry.name, None))

    async def _head_start_servers(self) -> None:
        """Spawn every stdio server now, so its own start-up overlaps our ``import mcp``
        (``session/head_start.py``); its connection adopts the process."""
        from mcp_tui.session.head_start import start_stdio

        for entry in self.entries.values():
            head = await start_stdio(entry.spec, self._stderr_log_for(entry.name))
            if head is not None:
                self._head_starts[entry.name] = head

    async def _discard_head_starts(self) -> None:
        heads, self._head_starts = list(self._head_starts.values()), {}
        for head in heads:
            await head.discard()

    def _open_traffic_log(self) -> None:
        """``--log``: one JSON Lines file for every connection (each line names its server)."""
        path = self.options.traffic_log
        if path is None or self._traffic_log is not None:
            return
        from mcp_tui.session.traffic import TrafficLog

        try:
            self._traffic_log = TrafficLog(path)
        except OSError as error:
            self._buffer.add(Notice("mcp-tui", f"cannot write the traffic log: {error}", "error"))

    def _stderr_log_for(self, server: str) -> Path | None:
        """Each server's stderr file: ``--stderr-log`` (one name per server when several)."""
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", server)[:60] or "server"
        path = self.options.stderr_log
        if path is None:
            try:
                from mcp_tui.paths import log_dir

                return log_dir() / f"{safe}.stderr.log"
            except Exception:
                return None
        if len(self.entries) == 1:
            return path
        return path.with_name(f"{path.stem}.{safe}{path.suffix}")

    # --- connections -------------------------------------------------------------------------

    def _fail(self, entry: ServerEntry, reason: str) -> None:
        self._buffer.add(ServerStateChanged(entry.name, ConnectionState.FAILED, reason))

    def _connect(
        self,
        entry: ServerEntry,
        factory: ConnectionFactory,
        handler: ElicitationHandler,
        head_start: HeadStart | None = None,
    ) -> None:
        entry.generation += 1
        generation = entry.generation
        name = entry.name

        def sink(event: SessionEvent) -> None:
            if self.entries[name].generation == generation:
                self._buffer.add(event)

        # Only ``ServerConnection`` takes a head start (test fakes never get one).
        extra: dict[str, Any] = {} if head_start is None else {"head_start": head_start}
        try:
            connection = factory(
                entry.spec,
                handler=handler,
                sink=sink,
                traffic_log=self._traffic_log,
                stderr_log=self._stderr_log_for(name),
                rate_limit=(self.options.rate_limit_count, self.options.rate_limit_seconds),
                authorization=self._load_auth_handler(),
                **extra,
            )
        except Exception as error:
            self._fail(entry, f"{type(error).__name__}: {error}")
            if head_start is not None:  # nobody will adopt it: stop it (quitting waits for this)
                self._track(asyncio.create_task(head_start.discard(), name=f"discard {name}"))
            return
        entry.connection = connection
        if entry.paused:
            connection.set_elicitation_paused(True)
        # A plain task, not a worker: Textual cancels workers before any shutdown hook runs.
        self._track(
            asyncio.create_task(self._run(entry, connection, generation), name=f"connection {name}")
        )

    def _track(self, task: asyncio.Task[None]) -> None:
        """Quitting waits for these tasks (each stops its server process)."""
        self._connection_tasks.add(task)
        task.add_done_callback(self._connection_tasks.discard)

    async def _run(self, entry: ServerEntry, connection: Connection, generation: int) -> None:
        """One server's whole connection; a failure here is shown, never propagated."""
        try:
            await connection.run()
        except Exception as error:  # run() should never raise; if it does, say why
            if entry.generation == generation:
                self._fail(entry, f"{type(error).__name__}: {error}")

    def connection(self, server: str) -> Connection | None:
        entry = self.entries.get(server)
        return None if entry is None else entry.connection

    def next_call_id(self) -> int:
        return next(self._call_ids)

    def reconnect(self, server: str) -> None:
        """Close ``server``'s connection (if any) and open a new one."""
        entry = self.entries.get(server)
        if entry is None or self._quitting:
            return
        self.run_worker(self._reconnect(entry), name=f"reconnect {server}", exit_on_error=False)

    async def _reconnect(self, entry: ServerEntry) -> None:
        old = entry.connection
        entry.generation += 1  # events of the old connection are dropped from now on
        entry.connection = None
        self._buffer.add(ServerStateChanged(entry.name, ConnectionState.CONNECTING, None))
        self._buffer.add(Notice(entry.name, "reconnecting"))
        if old is not None:
            await self._close_connections([old])
        factory = await self._load_factory()
        self._connect(entry, factory, self._load_handler())

    def set_elicitation_paused(self, server: str, paused: bool) -> None:
        """Per-server "stop asking": requests are cancelled without a form while paused."""
        entry = self.entries.get(server)
        if entry is None:
            return
        entry.paused = paused
        entry.paused_by_limit = False
        if entry.connection is not None:
            entry.connection.set_elicitation_paused(paused)
        text = "stopped asking: its requests are cancelled" if paused else "asking again"
        self._buffer.add(Notice(server, text))
        if self._session is not None:
            self._session.catalog.update_server(entry)
            self._session.server_changed()

    def refresh_catalog(self, server: str) -> None:
        connection = self.connection(server)
        if connection is not None:
            self.run_worker(connection.refresh_catalog(), exit_on_error=False)

    # --- events ------------------------------------------------------------------------------

    def _flush_events(self) -> None:
        """Move everything buffered to the widgets: one pass per timer tick, not per event."""
        session = self._session
        if session is None or not session.is_mounted:
            return
        if not self._buffer.pending:
            session.flush_entries()
            return
        batch = self._buffer.drain()
        changed: dict[str, ServerEntry] = {}
        for state in batch.states:
            entry = self.entries.get(state.server)
            if entry is not None:
                entry.apply_state(state)
                changed[entry.name] = entry
        for catalog in batch.catalogs.values():
            entry = self.entries.get(catalog.server)
            if entry is not None:
                entry.apply_catalog(catalog)
                changed[entry.name] = entry
        for pause in batch.pauses:
            entry = self.entries.get(pause.server)
            if entry is not None:
                entry.paused = pause.paused
                entry.paused_by_limit = pause.paused and pause.by_limit
                changed[entry.name] = entry
        entries = self._wait_events(batch)
        session.apply_batch(batch, changed.values())
        if entries:
            session.queue_entries(entries)
            session.flush_entries()
        if changed:
            self._update_sub_title()
            self._run_requested_call()

    def _wait_events(self, batch: Any) -> list[Entry]:
        """Completions and closed connections end URL waits; unknown or repeated ids do nothing.

        Takes the ``ElicitationCompleted`` notes out of ``batch``: only a completion that ended
        a wait is worth a transcript line (an ignored one goes to the log panel, for the
        developer testing that server).
        """
        ended: list[UrlWait] = []
        kept = []
        for note in batch.notes:
            if not isinstance(note, ElicitationCompleted):
                kept.append(note)
                continue
            done = self.url_waits.complete(note.server, note.elicitation_id)
            if not done:
                batch.logs.append(
                    LogReceived(
                        note.server,
                        "debug",
                        "mcp-tui",
                        "ignored notifications/elicitation/complete for elicitation "
                        f"{note.elicitation_id!r}: nothing accepted is waiting for that id",
                    )
                )
            ended += done
        batch.notes = kept
        for state in batch.states:
            if state.state in (ConnectionState.FAILED, ConnectionState.CLOSED):
                ended += self.url_waits.server_gone(state.server)
        return self._waits_ended(ended)

    def _waits_ended(self, ended: Sequence[UrlWait]) -> list[Entry]:
        if not ended:
            return []
        entries = [e for w in ended if (e := url_wait_entry(w, self.url_waits.timeout))]
        if self._session is not None:
            self._session.url_waits_changed()
        return entries

    def _expire_waits(self) -> None:
        entries = self._waits_ended(self.url_waits.expire())
        if entries and self._session is not None:
            self._session.queue_entries(entries)

    def end_url_wait(self, key: int, state: WaitState) -> None:
        """The user's "the page is done" (``done``) or "stop waiting" (``gave_up``)."""
        wait = self.url_waits.end(key, state)
        if wait is not None and self._session is not None:
            self._session.queue_entries(self._waits_ended([wait]))
            self._session.flush_entries()

    def _update_sub_title(self) -> None:
        """ "2 servers · 1 ready · 1 failed" in the header."""
        count = len(self.entries)
        parts = [f"{count} server" + ("" if count == 1 else "s")]
        for state in (ConnectionState.READY, ConnectionState.CONNECTING, ConnectionState.FAILED):
            number = sum(1 for e in self.entries.values() if e.state is state)
            if number and not (state is ConnectionState.READY and number == count):
                parts.append(f"{number} {state.value}")
        self.sub_title = " · ".join(parts)

    def on_elicitation_shown(self, message: ElicitationShown) -> None:
        if self._session is not None:
            self._session.queue_entries([elicitation_shown_entry(message.request, message.waiting)])

    def on_elicitation_finished(self, message: ElicitationFinished) -> None:
        request = message.request
        if request.mode == "url" and message.outcome.action == "accept":
            self.url_waits.add(request)
            if self._session is not None:
                self._session.url_waits_changed()
        if self._session is not None:
            entry = elicitation_finished_entry(
                message.request, message.outcome, message.abandoned_input
            )
            self._session.queue_entries([entry])

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
            if entry.state is ConnectionState.READY and entry.find_tool(request.tool):
                self._pending_call = None
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
        """Ctrl+Q: ask first when a form is open, then close every connection and exit."""
        if self._quitting:
            return
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        if isinstance(self.screen, ConfirmScreen):
            self.screen.dismiss(True)  # a second Ctrl+Q answers the question
            return
        if self.form_open:

            def answered(quit_now: bool | None) -> None:
                if quit_now:
                    self._begin_quit()

            self.push_screen(
                ConfirmScreen(
                    "Quit mcp-tui?",
                    "A form is open: what you typed will be lost, and the server is told the "
                    "request was cancelled.",
                    yes="Quit",
                    no="Stay",
                ),
                callback=answered,
            )
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
        await self.close_connections()
        self.exit()

    async def on_unmount(self) -> None:
        """Any other way out (``exit()``, an error, a test ending): still close everything."""
        self._quitting = True
        await self.close_connections()

    async def close_connections(self, timeout: float = CLOSE_TIMEOUT) -> None:
        """Close every connection concurrently, waiting at most ``timeout`` seconds in total.

        Safe to call more than once and from several places: they share one closing.
        """
        if self._closing_connections is None:
            self._closing_connections = asyncio.ensure_future(self._close_every_connection(timeout))
        await asyncio.shield(self._closing_connections)

    async def _close_every_connection(self, timeout: float) -> None:
        connections = []
        for entry in self.entries.values():
            entry.generation += 1
            if entry.connection is not None:
                connections.append(entry.connection)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await self._discard_head_starts()  # quitting while ``mcp`` was still loading
        await self._close_connections(connections, timeout)
        # Each connection's task ends once its transport is shut down (the stdio server stopped).
        tasks = [t for t in self._connection_tasks if not t.done()]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=max(0.1, deadline - loop.time()))
            for task in pending:
                task.cancel()
        if self._traffic_log is not None:
            self._traffic_log.close()

    async def _close_connections(
        self, connections: Sequence[Connection], timeout: float = CLOSE_TIMEOUT
    ) -> None:
        async def close(connection: Connection) -> None:
            with contextlib.suppress(Exception):  # best effort: close() kills what hangs
                await connection.close()

        tasks = [asyncio.ensure_future(close(c)) for c in connections]
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=timeout)
        for task in pending:
            task.cancel()
