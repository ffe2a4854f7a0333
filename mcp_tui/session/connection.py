"""One live connection to one MCP server, built on the SDK's ``Client``.

:class:`ServerConnection` is what the UI holds per server. Its :meth:`~ServerConnection.run`
connects, lists the catalog and stays connected until :meth:`~ServerConnection.close` or until the
server goes away; it enters and exits the SDK ``Client`` in its own task (the SDK requires it)
and never raises: failures become ``FAILED`` with one readable sentence. What other tasks ask of
it are parts it owns, which share one handle onto it (``link.py``'s ``ConnectionLink``: the live
SDK client, the handshake, the stderr capture, whether the stream closed):
``requests`` (tools/call, prompts/get, resources/read, run concurrently and never raising:
``requests.py``), ``features`` (roots, ping, log level, subscriptions: ``features.py``),
``completions`` (``completions.py``) and ``tasks`` (2025-11-25 tool calls as tasks: ``tasks.py``).
``ended`` (``server_exit.py``) tells how the server ended, to a failed request and to the
connection's own failure message alike. The methods many callers use are one-line delegations.

Everything reaches the UI as plain events (``events.py``) through the ``sink``, called on the event
loop. Raw ``mcp`` types stay in the session layer (``convert.py`` maps them).

Importing this module imports ``mcp`` (about half a second): the UI imports it lazily, in a worker.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import anyio
import mcp_types as types
from mcp import Client
from mcp.client._transport import TransportStreams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from msgspec.structs import replace

from mcp_tui import __version__
from mcp_tui.config.roots import Root, kept_directories, spec_roots
from mcp_tui.config.servers import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_RATE_LIMIT,
    ServerSpec,
    StdioTarget,
)
from mcp_tui.session import convert
from mcp_tui.session.catalog import Catalog
from mcp_tui.session.completions import ConnectionCompletions
from mcp_tui.session.elicitation import ElicitationHandler
from mcp_tui.session.elicitation_bridge import CallTracker, ElicitationBridge
from mcp_tui.session.elicitation_gate import ElicitationGate
from mcp_tui.session.era import MODERN_ERA, discover_refused_note
from mcp_tui.session.era_client import make_client
from mcp_tui.session.era_retry import ModernRetry
from mcp_tui.session.events import (
    CallOutcome,
    ConnectionState,
    ElicitationCompleted,
    EventSink,
    Notice,
    PromptInfo,
    ResourceInfo,
    ResourceUpdated,
    RoundTrip,
    ServerInfo,
    ServerStateChanged,
    ToolInfo,
)
from mcp_tui.session.features import ConnectionFeatures
from mcp_tui.session.head_start import HeadStart
from mcp_tui.session.http_status import HttpStatusLog
from mcp_tui.session.link import ConnectionLink, ConnectionOptions
from mcp_tui.session.oauth.authorization import AuthorizationHandler
from mcp_tui.session.oauth.provider import build_auth
from mcp_tui.session.recording import ConnectionTap
from mcp_tui.session.requests import ConnectionRequests
from mcp_tui.session.sampling import SamplingHandler
from mcp_tui.session.sampling_bridge import SamplingBridge
from mcp_tui.session.scopes import guarded
from mcp_tui.session.sdk_workarounds import (
    INPUT_REQUIRED_MAX_ROUNDS,
    install_validate_result_only,
    silence_deprecation_warnings,
)
from mcp_tui.session.server_exit import ServerEnd, describe_exit
from mcp_tui.session.stderr import StderrCapture
from mcp_tui.session.stdio_transport import DEFAULT_MAX_MESSAGE_BYTES
from mcp_tui.session.tap import tapped
from mcp_tui.session.tasks import ConnectionTasks, TaskSummary
from mcp_tui.session.tasks_modern import ModernTasks
from mcp_tui.session.traffic import TrafficLog
from mcp_tui.session.transports import describe_connect_failure, open_transport

log = logging.getLogger(__name__)
silence_deprecation_warnings()
install_validate_result_only()

#: How long :meth:`ServerConnection.close` waits for a graceful end before cancelling outright.
#: (A stdio server gets 2 s after stdin closes, then SIGTERM, 2 s more, then SIGKILL.)
CLOSE_GRACE = 8.0


class ServerConnection:
    """A connection to one server; see the module docstring."""

    def __init__(
        self,
        spec: ServerSpec,
        *,
        handler: ElicitationHandler,
        sink: EventSink,
        traffic_log: TrafficLog | None = None,
        stderr_log: Path | None = None,
        client_name: str = "mcp-tui",
        rate_limit: tuple[int, float] = (DEFAULT_RATE_LIMIT.count, DEFAULT_RATE_LIMIT.seconds),
        log_level: str = "debug",
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        authorization: AuthorizationHandler | None = None,
        head_start: HeadStart | None = None,
    ) -> None:
        sink = guarded(sink)
        #: How it was made: its 2026-07-28 twin (``era_retry.py``) is made the same way.
        self.options = ConnectionOptions(
            handler=handler,
            traffic_log=traffic_log,
            stderr_log=stderr_log,
            client_name=client_name,
            rate_limit=rate_limit,
            log_level=log_level,
            connect_timeout=connect_timeout,
            max_message_bytes=max_message_bytes,
            authorization=authorization,
        )
        #: The one handle the parts share: the live client, the handshake, the stderr capture.
        self.link = link = ConnectionLink(spec, sink)
        self._modern_retry = ModernRetry(spec.name, sink, self._twin)
        self.spec = spec
        self.name = spec.name
        #: Why the server refused ``server/discover`` on a connection pinned to 2026-07-28
        #: (``mcp-tui check`` reports that era as refused), else ``None``.
        self.discover_refusal: str | None = None
        #: ``server/discover`` got no answer in time on such a connection (a timeout, not a
        #: refusal: ``mcp-tui check`` reports it so), else ``None``.
        self.discover_timeout: str | None = None
        #: The JSON-RPC error the server refused ``server/discover`` with, if it did.
        self.discover_error: int | None = None
        self._sink = sink
        self._signing_in = False
        self._calls = CallTracker()
        self._bridge = ElicitationBridge(
            self.name,
            handler=handler,
            sink=sink,
            gate=ElicitationGate(max_requests=rate_limit[0], window=rate_limit[1]),
            calls=self._calls,
            policy=spec.elicitation,
            protocol_version=link.protocol_version,
            handshake_done=link.handshake_done,
        )
        #: ``sampling/createMessage`` goes to the same handler when it can answer it (the TUI,
        #: ``call``); only then is the ``sampling`` capability advertised.
        self._sampling: SamplingBridge | None = None
        if isinstance(handler, SamplingHandler):
            self._sampling = SamplingBridge(self._bridge, handler, policy=spec.sampling)
        self._catalog = Catalog(self.name, sink)
        self._tap = ConnectionTap(
            self.name,
            sink,
            traffic_log,
            on_ended=self._stream_ended,
            protocol_version=link.protocol_version,
            max_message_bytes=max_message_bytes,
        )
        #: The server process started before ``import mcp`` (stdio, first connection only).
        self._head_start = head_start
        self._http_status = HttpStatusLog()
        self._started = False
        self._close_requested = False
        self._task_by_call: dict[int, str] = {}
        #: Tasks on 2026-07-28 (declared on every request there; ``tasks_modern.py``).
        self._modern_tasks = ModernTasks(self.name, sink, self._task_by_call, self._bridge)
        self.tasks = ConnectionTasks(link, self._task_by_call)
        self.features = ConnectionFeatures(
            link,
            self._catalog,
            roots=spec_roots(spec),
            kept_directories=kept_directories(spec),
            log_level=log_level,
        )
        #: ``completion/complete`` for prompt arguments and template variables.
        self.completions = ConnectionCompletions(link)
        #: How the server ended (exit status, stderr since the last request), for both below.
        self.ended = ServerEnd(link)
        #: ``tools/call``, ``prompts/get``, ``resources/read``, run by other tasks.
        self.requests = ConnectionRequests(
            link,
            catalog=self._catalog,
            calls=self._calls,
            tasks=self.tasks,
            features=self.features,
            modern_retry=self._modern_retry,
            http_status=self._http_status,
            ended=self.ended,
        )
        self._run_scope: anyio.CancelScope | None = None
        self._events: dict[str, anyio.Event] = {}

    # ---- state ------------------------------------------------------------------------------

    def _twin(self, sink: EventSink) -> ServerConnection:
        """The 2026-07-28 connection of tools written only for that era: the same options."""
        twin = replace(self.spec, mode=MODERN_ERA)
        return ServerConnection(twin, sink=sink, **self.options.arguments())

    # ---- what the parts read (``link.py``) ----------------------------------------------------

    @property
    def state(self) -> ConnectionState:
        return self.link.state

    @property
    def detail(self) -> str | None:
        return self.link.detail

    @property
    def info(self) -> ServerInfo | None:
        """What the handshake said (``None`` until it is done)."""
        return self.link.info

    def _set_state(self, state: ConnectionState, detail: str | None = None) -> None:
        self.link.state = state
        self.link.detail = detail
        self._sink(ServerStateChanged(self.name, state, detail, self.info))
        if state is not ConnectionState.CONNECTING:
            self._event("settled").set()

    def _notice(self, text: str, severity: Any = "information") -> None:
        self._sink(Notice(self.name, text, severity))

    def _event(self, name: str) -> anyio.Event:
        if name not in self._events:
            self._events[name] = anyio.Event()
        return self._events[name]

    async def wait_ready(self, timeout: float | None = None) -> bool:
        if self.state is ConnectionState.CONNECTING:
            with anyio.move_on_after(timeout):
                await self._event("settled").wait()
        return self.state is ConnectionState.READY

    @property
    def tools(self) -> tuple[ToolInfo, ...]:
        return self._catalog.tools

    @property
    def prompts(self) -> tuple[PromptInfo, ...]:
        return self._catalog.prompts

    @property
    def resources(self) -> tuple[ResourceInfo, ...]:
        return self._catalog.resources

    async def refresh_catalog(self) -> None:
        await self._catalog.refresh_all()

    @property
    def elicitation_paused(self) -> bool:
        return self._bridge.gate.paused

    def set_elicitation_paused(self, paused: bool) -> None:
        """The per-server "stop asking" toggle; ``False`` also lifts a rate-limit pause."""
        self._bridge.set_paused(paused)

    def check_input(self) -> dict[str, Any]:
        """What ``mcp-tui check`` reads, from this connection: its era and capabilities, the last
        listing of each kind as it came over the wire, and the forms asked so far (the last 50)."""
        info = self.info
        return {
            "era": info.protocol_version if info else None,
            "capabilities": dict(info.capabilities) if info else {},
            **self._catalog.wire(),
            "elicitations": list(self._bridge.schemas_seen),
        }

    @property
    def stderr_tail(self) -> tuple[str, ...]:
        """The server's last stderr lines (stdio only)."""
        return tuple(self.link.stderr.tail) if self.link.stderr else ()

    # ---- the connection task ----------------------------------------------------------------

    async def run(self) -> None:
        """Connect and serve until closed; never raises (except the caller's own cancellation)."""
        if self._started:
            self._notice("this connection was already used; make a new one to reconnect", "error")
            return
        self._started = True
        if self._close_requested:
            await self._discard_head_start()
            self._set_state(ConnectionState.CLOSED)
            self._event("done").set()
            return
        self._set_state(ConnectionState.CONNECTING)
        failure: str | None = None
        try:
            with anyio.CancelScope() as self._run_scope:
                await self._connect_and_serve()
            if self._run_scope.cancelled_caught and not self._close_requested:
                wait = self.options.connect_timeout
                failure = (
                    f"The server did not answer the handshake within {wait:g} s "
                    "(connect_timeout in the config's [app] table, or --connect-timeout)."
                    + (f" Last stderr: {self._tail()}" if self._tail() else "")
                )
        except Exception as exc:
            log.debug("connection %s failed", self.name, exc_info=True)
            if self._tap.fatal:
                failure = self._tap.fatal[0].upper() + self._tap.fatal[1:] + "."
            elif self.state is ConnectionState.READY:
                failure = f"The connection failed: {convert.describe_exception(exc)}"
            else:
                failure = describe_connect_failure(
                    self.spec, exc, self._tail(), self._http_status.last
                )
        finally:
            await self._discard_head_start()
            self.link.client = None
            self.requests.cancel_all()
            if failure is None and self.link.stream_closed and not self._close_requested:
                if self._tap.fatal:
                    failure = self._tap.fatal[0].upper() + self._tap.fatal[1:] + "."
                else:
                    ended = describe_exit(self.ended.exit_status)
                    failure = (
                        (f"The server {ended}." if ended else "The server closed the connection.")
                        + (
                            f" ({self._tap.write_failure[0].upper()}{self._tap.write_failure[1:]}.)"
                            if self._tap.write_failure
                            else ""
                        )
                        + self.ended.stderr_note()
                    )
            if failure is not None:
                self._set_state(ConnectionState.FAILED, failure)
            else:
                self._set_state(ConnectionState.CLOSED)
            self._event("done").set()

    async def _discard_head_start(self) -> None:
        """A head-started process this connection never adopted is stopped, never leaked."""
        head, self._head_start = self._head_start, None
        if head is not None:
            await head.discard()

    async def _connect_and_serve(self) -> None:
        async with anyio.create_task_group() as background:
            head, self._head_start = self._head_start, None
            process = None
            if head is not None:
                process, self.link.stderr = head.adopt(self._sink)
                errlog = self.link.stderr.write_end
                background.start_soon(self._drain_stderr, self.link.stderr)
            elif isinstance(self.spec.target, StdioTarget):
                self.link.stderr = StderrCapture(self.name, self._sink, self.options.stderr_log)
                errlog = self.link.stderr.open()
                background.start_soon(self._drain_stderr, self.link.stderr)
            else:
                errlog = None
            background.start_soon(self._handshake_watchdog)
            try:
                client = make_client(
                    self._transport(
                        open_transport(
                            self.spec,
                            errlog,
                            max_message_bytes=self.options.max_message_bytes,
                            auth=build_auth(
                                self.spec,
                                self.options.authorization,
                                notify=self._notice,
                                on_person=self._person_signing_in,
                            ),
                            on_undelivered=self._tap.undelivered,
                            big=self._tap.big,
                            http_status=self._http_status,
                            process=process,
                            on_exit=self.ended.exited,
                        )
                    ),
                    self.spec.mode,
                    handshake_time=self.options.connect_timeout,
                    client_info=types.Implementation(
                        name=self.options.client_name, version=__version__
                    ),
                    elicitation_callback=(
                        self._bridge if self.spec.advertise_elicitation else None
                    ),
                    list_roots_callback=self.features.list_roots,
                    sampling_callback=self._sampling,
                    # The review screen shows the tools offered and can answer with a tool use.
                    sampling_capabilities=(
                        types.SamplingCapability(tools=types.SamplingToolsCapability())
                        if self._sampling is not None
                        else None
                    ),
                    logging_callback=self.features.on_log,
                    message_handler=self._on_message,
                    log_level=cast(types.LoggingLevel, self.features.log_level),
                    input_required_max_rounds=INPUT_REQUIRED_MAX_ROUNDS,
                    # A tool for testing servers shows what the server says now, never a cache.
                    cache=None,
                    extensions=[self._modern_tasks],
                )
                async with client:
                    await self._serve(client)
            finally:
                if self.link.stderr is not None:
                    self.link.stderr.close_write_end()
                    with anyio.move_on_after(1.0):  # the child is gone: EOF comes at once
                        await self._event("stderr_done").wait()
                background.cancel_scope.cancel()

    async def _serve(self, client: Client) -> None:
        self.link.info = info = convert.server_info(
            client.server_info,
            client.server_capabilities,
            client.instructions,
            client.protocol_version,
        )
        self.link.client = client
        self._set_state(ConnectionState.READY)
        refusal = getattr(client, "discover_refusal", None)
        self.discover_refusal = refusal
        self.discover_timeout = getattr(client, "discover_timeout", None)
        self.discover_error = getattr(client, "discover_error", None)
        if refusal is not None:
            self._notice(discover_refused_note(refusal), "warning")
        async with anyio.create_task_group() as tasks:
            self._catalog.attach(client, tasks)
            self._modern_retry.attach(tasks)
            tasks.start_soon(self._catalog.refresh_all)
            if info.protocol_version in MODERN_PROTOCOL_VERSIONS:
                tasks.start_soon(self._catalog.listen)
            elif info.capabilities.get("logging") is not None:
                tasks.start_soon(self.features.ask_for_logs, client)
            await self._event("stop").wait()
            self.link.client = None
            self.requests.cancel_all()
            await self._modern_retry.close()
            tasks.cancel_scope.cancel()

    @asynccontextmanager
    async def _transport(self, inner: Any) -> AsyncIterator[TransportStreams]:
        async with tapped(inner, self._tap) as streams:
            if self.link.stderr is not None:  # the child has its own copy of the pipe now
                self.link.stderr.close_write_end()
            yield streams

    def _stream_ended(self) -> None:
        """The server closed the stream (or we did, while closing)."""
        self.link.stream_closed = True
        if not self._close_requested:
            self._event("stop").set()

    async def _drain_stderr(self, capture: StderrCapture) -> None:
        try:
            await capture.drain()
        finally:
            self._event("stderr_done").set()

    def _person_signing_in(self, active: bool) -> None:
        self._signing_in = active

    async def _handshake_watchdog(self) -> None:
        # A person signing in (OAuth) may take minutes: that time does not count, and the
        # handshake gets the full timeout again once they are done.
        deadline = anyio.current_time() + self.options.connect_timeout
        while self._signing_in or anyio.current_time() < deadline:
            await anyio.sleep(min(1.0, max(0.0, deadline - anyio.current_time())) or 1.0)
            if self._signing_in:
                deadline = anyio.current_time() + self.options.connect_timeout
        if self.state is ConnectionState.CONNECTING and self._run_scope is not None:
            self._run_scope.cancel()

    def _tail(self) -> str:
        return convert.first_lines(self.stderr_tail)

    # ---- notifications ----------------------------------------------------------------------

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            self._catalog.changed("tools")
        elif isinstance(message, types.PromptListChangedNotification):
            self._catalog.changed("prompts")
        elif isinstance(message, types.ResourceListChangedNotification):
            self._catalog.changed("resources")
        elif isinstance(message, types.ResourceUpdatedNotification):
            self._sink(ResourceUpdated(self.name, message.params.uri))
        elif isinstance(message, types.ElicitCompleteNotification):
            self._sink(ElicitationCompleted(self.name, message.params.elicitation_id))

    # ---- what the UI and headless ask of the ``requests`` part (``requests.py``) ------------

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        call_id: int | None = None,
        as_task: bool | None = None,
    ) -> CallOutcome:
        return await self.requests.call_tool(name, arguments, call_id=call_id, as_task=as_task)

    def cancel_call(self, call_id: int) -> bool:
        return self.requests.cancel_call(call_id)

    async def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None
    ) -> CallOutcome:
        return await self.requests.get_prompt(name, arguments)

    async def read_resource(self, uri: str) -> CallOutcome:
        return await self.requests.read_resource(uri)

    # ---- what the UI and headless ask of the ``features`` part (``features.py``) ------------

    @property
    def roots(self) -> tuple[Root, ...]:
        return self.features.roots

    async def set_roots(self, roots: Sequence[Root]) -> None:
        await self.features.set_roots(roots)

    def roots_settle_left(self) -> float:
        return self.features.roots_settle_left()

    async def ping(self) -> RoundTrip:
        return await self.features.ping()

    async def set_log_level(self, level: str) -> str | None:
        return await self.features.set_log_level(level)

    @property
    def can_subscribe(self) -> bool:
        return self.features.can_subscribe

    async def subscribe(self, uri: str, on: bool = True) -> str | None:
        return await self.features.subscribe(uri, on)

    async def list_tasks(self) -> tuple[TaskSummary, ...] | str:
        return await self.tasks.list_tasks()

    # ---- closing ----------------------------------------------------------------------------

    async def close(self) -> None:
        """End the connection; a stdio server gets EOF, then SIGTERM, then SIGKILL."""
        self._close_requested = True
        if not self._started:
            self._started = True
            await self._discard_head_start()
            self._set_state(ConnectionState.CLOSED)
            self._event("done").set()
            return
        if self._event("done").is_set():
            return
        self._event("stop").set()
        if self.state is ConnectionState.CONNECTING and self._run_scope is not None:
            self._run_scope.cancel()
        with anyio.move_on_after(CLOSE_GRACE):
            await self._event("done").wait()
        if not self._event("done").is_set() and self._run_scope is not None:
            self._run_scope.cancel()
            with anyio.move_on_after(2.0):
                await self._event("done").wait()
