"""Opening a server for a headless run: the one way ``call``, ``list``, ``read``, ``get``, ``test``
(with its pytest plugin and ``mcp_tui.testing.connect()``) and ``check`` (with ``--run`` and
``--fuzz``) connect.

A :class:`HeadlessServer` is one server for one run: its spec on an era, the handler that answers
its elicitation and sampling requests, the sink its events go to, the ``--log`` traffic log, and
the roots its spec offers. It is entered as an async context (its connection's task runs inside);
:meth:`HeadlessServer.connect` gives a ready connection, the one open or a new one when there was
none or the last one ended (so a case or a fuzzed call that crashed the server gets a fresh one
for the next), and :meth:`HeadlessServer.first_listing` waits for the catalog.

:func:`ended_with_connection` is the one rule for "this call ended with its connection", read by
all of them: the session said so (``session/server_exit.py``: the server's end is known, or the
connection's own end cancelled the request), or the connection is no longer ready. A -32000 the
server sent on a live connection is the server's answer, not a crash.

A stdio server is spawned before the SDK is imported, so its start-up overlaps ours
(``session/head_start.py``); everything from the SDK is imported only once it runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

import anyio
import msgspec

from mcp_tui.config.servers import DEFAULT_CONNECT_TIMEOUT, ProtocolMode, ServerSpec
from mcp_tui.session.events import (
    CallOutcome,
    CatalogChanged,
    ConnectionState,
    EventSink,
    ServerStateChanged,
    SessionEvent,
    StderrReceived,
)
from mcp_tui.session.server_exit import ended_under
from mcp_tui.session.traffic import TrafficLog

if TYPE_CHECKING:
    from anyio.abc import TaskGroup

    from mcp_tui.session.connection import ServerConnection
    from mcp_tui.session.elicitation import ElicitationHandler
    from mcp_tui.testbench.model import Era

#: The connection mode that gives each era.
MODE_OF_ERA: dict[Era, ProtocolMode] = {
    "auto": "auto",
    "2025-11-25": "legacy",
    "2026-07-28": "2026-07-28",
}

#: Headless runs answer as fast as the server asks: the TUI's anti-spam limit would only cancel
#: requests a script means to answer.
NO_RATE_LIMIT = (1_000_000, 1.0)

#: How long a run waits for the catalog's first listing before going on without it (the SDK
#: mirrors a tool's ``x-mcp-header`` arguments into headers only for tools listed earlier).
CATALOG_WAIT = 60.0


def ended_with_connection(outcome: CallOutcome | None, conn: ServerConnection) -> bool:
    """Whether a call ended with its connection (``None``: it never returned): see the module
    docstring. The connection's state may say so only a moment after the call's outcome does."""
    return outcome is None or ended_under(outcome) or conn.state is not ConnectionState.READY


def on_era(spec: ServerSpec, era: Era) -> ServerSpec:
    """``spec`` connecting on ``era`` (``auto``: the usual choice, ``session/era.py``)."""
    return msgspec.structs.replace(spec, mode=MODE_OF_ERA[era])


@contextmanager
def traffic_log(path: Path | None, say: Callable[[str], None]) -> Iterator[TrafficLog | None]:
    """``--log FILE`` for a whole run (every connection shares it); why it stopped, said once at
    the end, if a write failed."""
    if path is None:
        yield None
        return
    log = TrafficLog(path)
    try:
        yield log
    finally:
        if log.failure:
            say(log.failure)
        log.close()


def _ignore(event: SessionEvent) -> None:
    return None


class FirstListing:
    """When a run considers the catalog listed, read from one connection's events.

    The first listing (tools, prompts, resources, in that order) ends with one ``full`` event for
    all three kinds, where a kind whose listing failed is ``None``. A ``list_changed`` refresh of
    one kind may come first (server-everything announces its tools while the first listing runs):
    it says nothing about the other kinds, and printing then would show a server with prompts and
    resources as having none. The connection ending ends the wait too.
    """

    def __init__(self) -> None:
        self._listed_or_ended = anyio.Event()
        #: The first listing is in (``tools_listed``: and it included the tools).
        self.listed = False
        self.tools_listed = False

    def see(self, event: SessionEvent) -> None:
        if isinstance(event, CatalogChanged):
            if event.tools is not None:
                self.tools_listed = True
            if event.full:
                self.listed = True
                self._listed_or_ended.set()
        elif isinstance(event, ServerStateChanged) and event.state in (
            ConnectionState.FAILED,
            ConnectionState.CLOSED,
        ):
            self._listed_or_ended.set()

    async def wait(self, conn: ServerConnection, wait: float | None = None) -> bool:
        """Until the listing is in, the connection ended, or ``wait`` s (default
        :data:`CATALOG_WAIT`) passed; ``False`` when the connection ended first."""
        with anyio.move_on_after(CATALOG_WAIT if wait is None else wait):
            await self._listed_or_ended.wait()
        return conn.state is ConnectionState.READY


class HeadlessServer:
    """One server opened for a headless run; see the module docstring."""

    def __init__(
        self,
        spec: ServerSpec,
        *,
        handler: ElicitationHandler,
        sink: EventSink = _ignore,
        traffic: TrafficLog | None = None,
        connect_timeout: float | None = None,
        log_level: str = "debug",
    ) -> None:
        self.spec = spec
        self._handler = handler
        self._sink = sink
        self._traffic = traffic
        #: How long the handshake may take (``None``: the shared default, read now).
        self._connect_timeout = (
            DEFAULT_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
        )
        self._log_level = log_level
        self._conn: ServerConnection | None = None
        self._tasks: TaskGroup | None = None
        #: A call ended with the connection (its state may not say so yet): connect afresh.
        self._lost = False
        #: The server's last stderr lines (also from a connection that never became ready).
        self.stderr_tail: list[str] = []
        #: The current connection's first listing.
        self.listing = FirstListing()

    # ---- the run's context --------------------------------------------------------------------

    async def __aenter__(self) -> HeadlessServer:
        self._tasks = anyio.create_task_group()
        await self._tasks.__aenter__()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._tasks is not None
        try:
            with anyio.CancelScope(shield=True):
                await self.close()
        finally:
            tasks, self._tasks = self._tasks, None
            # Every connection has ended: what the body raised propagates as itself (a task
            # group handed it would wrap it in an ExceptionGroup).
            tasks.cancel_scope.cancel()
            await tasks.__aexit__(None, None, None)
        return None

    # ---- the connection -----------------------------------------------------------------------

    @property
    def conn(self) -> ServerConnection:
        """The current connection (after :meth:`connect`)."""
        if self._conn is None:
            raise RuntimeError("HeadlessServer.connect() was not called")
        return self._conn

    @property
    def ready(self) -> bool:
        """The current connection can take the next call."""
        return (
            self._conn is not None and self._conn.state is ConnectionState.READY and not self._lost
        )

    async def connect(self) -> str | None:
        """A ready connection: the one open, or a new one. ``None`` when ready, else why not
        (the connection's words; :meth:`last_stderr` has what the server wrote)."""
        if self.ready:
            return None
        if self._tasks is None:
            raise RuntimeError("enter the HeadlessServer (async with) before connecting")
        await self.close()
        from mcp_tui.session.head_start import start_stdio

        # A stdio server starts now and imports its own SDK while we import ours.
        head = await start_stdio(self.spec, None)
        try:
            from mcp_tui.process.startup import resume_collector
            from mcp_tui.session.connection import ServerConnection

            resume_collector()  # start-up's imports are done (``mcp_tui.process.startup``)
            conn = ServerConnection(
                self.spec,
                handler=self._handler,
                sink=self._see,
                traffic_log=self._traffic,
                rate_limit=NO_RATE_LIMIT,
                connect_timeout=self._connect_timeout,
                head_start=head,
                log_level=self._log_level,
            )
        except BaseException:
            if head is not None:
                await head.discard()
            raise
        self._conn, self._lost = conn, False
        self.listing = FirstListing()
        self._tasks.start_soon(conn.run)
        if not await conn.wait_ready():
            return conn.detail or conn.state.value
        return None

    async def first_listing(self) -> bool:
        """Until the catalog's first listing is in (a call then carries its ``x-mcp-header``
        arguments as headers), the connection ended, or :data:`CATALOG_WAIT` s passed; ``False``
        when the connection ended first (:attr:`listed` says whether the listing came)."""
        return await self.listing.wait(self.conn)

    @property
    def listed(self) -> bool:
        return self.listing.listed

    @property
    def tools_listed(self) -> bool:
        return self.listing.tools_listed

    def era_refusal(self) -> str | None:
        """On a connection pinned to 2026-07-28, why the era cannot be used, in ``check``'s
        words ("2026-07-28: refused (-32601 Method not found)"): the server refused
        ``server/discover`` with an error, or never answered it. The connection itself goes
        on blind (as the SDK's pinned mode does); a test of that era would only see the
        server's next error ("Tool ... not found")."""
        conn = self.conn
        if self.spec.mode != "2026-07-28":
            return None
        if conn.discover_timeout is not None:
            return f"2026-07-28: timed out ({conn.discover_timeout})"
        if conn.discover_error is not None and conn.discover_refusal is not None:
            return f"2026-07-28: refused ({conn.discover_refusal})"
        return None

    def ended(self, outcome: CallOutcome | None) -> bool:
        """Whether ``outcome``'s call ended with the connection (:func:`ended_with_connection`);
        if so, the next :meth:`connect` starts the server again."""
        lost = ended_with_connection(outcome, self.conn)
        self._lost = self._lost or lost
        return lost

    def lose(self) -> None:
        """Start the next call on a fresh connection (a case mcp-tui itself could not run)."""
        self._lost = True

    async def close(self) -> None:
        """End the current connection (a stdio server: EOF, then SIGTERM, then SIGKILL)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()

    # ---- the connection's events --------------------------------------------------------------

    def _see(self, event: SessionEvent) -> None:
        self.listing.see(event)
        if isinstance(event, StderrReceived):
            self.stderr_tail = [*self.stderr_tail[-19:], event.line]
        self._sink(event)

    def last_stderr(self) -> tuple[str, ...]:
        """The server's last stderr lines: the connection's own, else the ones seen."""
        tail = self._conn.stderr_tail if self._conn is not None else ()
        return tuple(tail) or tuple(self.stderr_tail)
