"""The app's server connections: starting them after the first frame, reconnecting, closing.

Start-up order matters for the first frame: nothing on the import path of this module imports
``mcp`` (about half a second). After the first paint the app's start-up worker calls
:meth:`Connections.start`, which spawns the stdio servers (their head start,
``session/head_start.py``), imports ``mcp_tui.session.connection`` in a thread and starts one
connection per server, so one failing server never affects another.

Connections run as plain asyncio tasks owned by :class:`Connections` rather than Textual workers,
because Textual cancels its workers before any hook runs at shutdown, and a cancelled connection
cannot say goodbye (an HTTP session stays open on the server). :meth:`Connections.close` closes
them all at once, whichever way the app ends. A stdio server is always stopped: the session layer
ends it with EOF, then SIGTERM, then SIGKILL, and the app waits for that.

An HTTP server that wants OAuth gets the one ``TuiAuthorizationHandler`` (built after the first
frame, like the elicitation handler): the same URL consent screen, then a wait-or-paste screen;
sign-ins of several servers queue behind one another. Quitting while one shows closes the
connection, which cancels the sign-in and closes its screen.

:class:`Connections` is a part the app (:class:`~mcp_tui.ui.app.McpTuiApp`) holds: it shares the
app's server entries and event buffer, and uses the app itself only to give the handlers a place
to show their screens. What the user asks of one running server (reconnect, the other era, stop
asking, roots, refresh) is :mod:`mcp_tui.ui.app.server_actions`, built on this lifecycle.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import re
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual.app import App

from mcp_tui.config.options import AppOptions
from mcp_tui.process.startup import resume_collector
from mcp_tui.session.events import ConnectionState, Notice, ServerStateChanged, SessionEvent
from mcp_tui.ui.event_buffer import EventBuffer
from mcp_tui.ui.server_state import Connection, ConnectionFactory, ServerEntry

if TYPE_CHECKING:  # annotations only; the modules load after the first frame, when needed
    from mcp_tui.session.elicitation import ElicitationHandler
    from mcp_tui.session.head_start import HeadStart
    from mcp_tui.session.oauth.authorization import AuthorizationHandler
    from mcp_tui.session.traffic import TrafficLog

#: Upper bound on closing every connection when quitting or reconnecting. Connections close
#: concurrently; a stdio server that ignores EOF and SIGTERM takes the session layer about 4.5 s
#: to kill, so this is only reached by something truly stuck.
CLOSE_TIMEOUT = 10.0
#: Start-up work after the first frame (spawning servers, importing the connection code) waits
#: until no key, paste or click came for this long (seconds), so keys typed right after the first
#: frame (opening the palette takes Textual ~80 ms) are answered before it ...
QUIET_NEEDED = 0.12
#: ... but at least this long after the first frame before spawning (a key typed then is likely
#: already in flight), and never longer than :data:`QUIET_LIMIT` in all.
FIRST_PAUSE = 0.05
#: The session screen's panels (~30 ms of mounting) wait less: long enough for a key sent as the
#: first frame appeared to have arrived (and then for the quiet after it).
PANELS_PAUSE = 0.02
QUIET_LIMIT = 0.6

NO_FORMS_NOTE = "forms are not available in this build: elicitation requests are cancelled"


class Connections:
    """Every server's connection, from start-up to quitting (see the module docstring)."""

    def __init__(
        self,
        app: App[Any],
        entries: dict[str, ServerEntry],
        options: AppOptions,
        buffer: EventBuffer,
        factory: ConnectionFactory | None = None,
    ) -> None:
        #: Where the elicitation and sign-in handlers show their screens.
        self._app = app
        self.entries = entries
        self.options = options
        #: Session events wait here until the app flushes them to the widgets.
        self._buffer = buffer
        #: Builds connections: ``ServerConnection`` once loaded, or a test's fake.
        self._factory = factory
        #: The elicitation handler (built after the first frame).
        self.handler: ElicitationHandler | None = None
        #: Who signs in when an HTTP server wants OAuth: the consent and wait screens
        #: (``TuiAuthorizationHandler``), built after the first frame like :attr:`handler`.
        self.auth_handler: AuthorizationHandler | None = None
        self._traffic_log: TrafficLog | None = None
        #: Quitting waits for these (each stops its server process); see :meth:`_track`.
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing: asyncio.Future[None] | None = None
        #: stdio servers spawned before the connection code loaded, until a connection adopts one.
        self._head_starts: dict[str, HeadStart] = {}
        #: When the last key, paste or click arrived (the event loop's clock; 0.0 before any):
        #: start-up work waits for a pause in them. The app sets it.
        self.last_input = 0.0
        #: Set when the app starts quitting: no server is connected again from then on.
        self.quitting = False

    # --- start-up ----------------------------------------------------------------------------

    async def _load_factory(self) -> ConnectionFactory:
        if self._factory is None:
            module = await asyncio.to_thread(importlib.import_module, "mcp_tui.session.connection")
            self._factory = cast(ConnectionFactory, module.ServerConnection)
        return self._factory

    def _load_handler(self) -> ElicitationHandler:
        if self.handler is None:
            try:
                module = importlib.import_module("mcp_tui.ui.app.elicitation_handler")
                self.handler = cast(
                    "ElicitationHandler",
                    module.TuiElicitationHandler(
                        self._app,
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
        if self.auth_handler is None:
            try:
                module = importlib.import_module("mcp_tui.ui.screens.sign_in")
                self.auth_handler = cast(
                    "AuthorizationHandler", module.TuiAuthorizationHandler(self._app)
                )
            except ImportError as error:
                text = f"signing in (OAuth) is not available in this build: {error}"
                self._buffer.add(Notice("mcp-tui", text, "warning"))
        return self.auth_handler

    async def start(self, mount_panels: Callable[[], Awaitable[None]]) -> None:
        """Connect every server; ``mount_panels`` paints the session screen's panels first
        (always before a connection starts, so no event comes before its panel)."""
        if self._factory is None:  # real connections: start stdio servers before ``import mcp``
            # The session screen's panels (~30 ms), spawning (~45 ms of the event loop: anyio's
            # backend loads) and the import (half a second of CPU in a thread, which halves the
            # UI's speed while it runs) all wait for a pause in the user's keys. Each server
            # then spends a good second starting up on its own, which the import overlaps.
            started = asyncio.get_running_loop().time()
            await self._until_quiet(started + PANELS_PAUSE, started + QUIET_LIMIT)
            await mount_panels()
            await self._until_quiet(started + FIRST_PAUSE, started + QUIET_LIMIT)
            await self._head_start_servers()
            await self._until_quiet(0.0, started + QUIET_LIMIT)
        else:
            await mount_panels()
        try:
            factory = await self._load_factory()
        except Exception as error:  # a broken install: say so on every server
            for entry in self.entries.values():
                self._fail(entry, f"cannot load the connection code: {error!r}")
            await self._discard_head_starts()
            return
        finally:
            resume_collector()  # start-up's imports are done (``mcp_tui.process.startup``)
        handler = self._load_handler()
        self._open_traffic_log()
        for entry in self.entries.values():
            self._connect(entry, factory, handler, self._head_starts.pop(entry.name, None))

    async def _until_quiet(self, earliest: float, latest: float) -> None:
        """Sleep until :data:`QUIET_NEEDED` has passed since the last key, paste or click (and
        ``earliest`` has come), or until ``latest`` (loop times)."""
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            wake = max(earliest, self.last_input + QUIET_NEEDED)
            if now >= wake or now >= latest:
                return
            await asyncio.sleep(min(wake, latest) - now)

    async def _head_start_servers(self) -> None:
        """Spawn every stdio server now, so its own start-up overlaps our ``import mcp``
        (``session/head_start.py``); its connection adopts the process."""
        from mcp_tui.session.head_start import start_stdio

        for entry in self.entries.values():
            head = await start_stdio(entry.spec, self.stderr_log_path(entry.name))
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

    def stderr_log_path(self, server: str) -> Path | None:
        """Where ``server``'s stderr is written in full (shown under the log panel):
        ``--stderr-log`` (one name per server when several), else the log directory."""
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", server)[:60] or "server"
        path = self.options.stderr_log
        if path is None:
            try:
                from mcp_tui.config.paths import log_dir

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
        # A new connection starts with no subscriptions; the log level the person chose is kept
        # (asked for at connect on 2025 eras, sent with each request on 2026-07-28).
        entry.subscribed.clear()
        entry.marks_version += 1

        def sink(event: SessionEvent) -> None:
            if self.entries[name].generation == generation:
                self._buffer.add(event)

        # Only ``ServerConnection`` takes a head start and a handshake timeout (test fakes
        # never get them).
        extra: dict[str, Any] = {} if head_start is None else {"head_start": head_start}
        if getattr(factory, "__name__", "") == "ServerConnection":
            extra["connect_timeout"] = self.options.connect_timeout
        try:
            connection = factory(
                entry.spec,
                handler=handler,
                sink=sink,
                traffic_log=self._traffic_log,
                stderr_log=self.stderr_log_path(name),
                rate_limit=(self.options.rate_limit_count, self.options.rate_limit_seconds),
                authorization=self._load_auth_handler(),
                log_level=entry.log_level,
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
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def running(self) -> bool:
        """Some connection (or a server being stopped) is still running."""
        return bool(self._tasks)

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

    async def reconnect(self, entry: ServerEntry, note: str = "reconnecting") -> None:
        """Close ``entry``'s connection (if any) and open a new one; ``note`` says why."""
        old = entry.connection
        entry.generation += 1  # events of the old connection are dropped from now on
        entry.connection = None
        self._buffer.add(ServerStateChanged(entry.name, ConnectionState.CONNECTING, None))
        self._buffer.add(Notice(entry.name, note))
        if old is not None:
            await self._close_connections([old])
        factory = await self._load_factory()
        self._connect(entry, factory, self._load_handler())

    # --- closing -----------------------------------------------------------------------------

    async def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        """Close every connection concurrently, waiting at most ``timeout`` seconds in total.

        Safe to call more than once and from several places: they share one closing.
        """
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_every_connection(timeout))
        await asyncio.shield(self._closing)

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
        tasks = [t for t in self._tasks if not t.done()]
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
