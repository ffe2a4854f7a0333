"""What other tasks ask of a running :class:`~mcp_tui.session.connection.ServerConnection`.

A connection's own task connects, serves and closes (``connection.py``); meanwhile other tasks
read its catalog and call tools, get prompts and read resources, concurrently. Those requests
never raise: errors come back in the :class:`CallOutcome`, including "not connected" and "the
connection ended during the call". This module is that second half, kept apart so each half
reads on its own: :class:`ConnectionRequests` is the base class of ``ServerConnection`` and
declares (with types) the attributes the connection sets up for it.

A call blocked in a form waits on no response on 2026-07-28, so each request runs in a
:class:`~mcp_tui.session.scopes.CallScope` the connection cancels when its link ends.

Importing this module imports ``mcp`` (like ``connection.py``, it is loaded in a worker).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
from mcp import Client
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from msgspec.structs import replace

from mcp_tui.config.servers import ServerSpec
from mcp_tui.session import convert
from mcp_tui.session.catalog import Catalog
from mcp_tui.session.elicitation_bridge import (
    CallTracker,
    ElicitationBridge,
    url_requests_from_error,
)
from mcp_tui.session.era import needed_era
from mcp_tui.session.era_retry import ModernRetry, retry_applies
from mcp_tui.session.events import (
    CallOutcome,
    ConnectionState,
    EventSink,
    ProgressReceived,
    PromptInfo,
    ResourceInfo,
    ServerInfo,
    ToolInfo,
)
from mcp_tui.session.features import ConnectionFeatures
from mcp_tui.session.http_status import HttpStatusLog, explain_status, sdk_http_error
from mcp_tui.session.scopes import CallScope
from mcp_tui.session.server_exit import describe_exit, stderr_summary
from mcp_tui.session.stderr import StderrCapture
from mcp_tui.session.tasks import ConnectionTasks
from mcp_tui.session.tasks_modern import calling
from mcp_tui.untrusted import one_line

URL_ELICITATION_REQUIRED = -32042


class ConnectionRequests:
    """The requests and state views of a connection; ``ServerConnection`` sets the attributes."""

    spec: ServerSpec
    name: str
    state: ConnectionState
    detail: str | None
    info: ServerInfo | None
    _sink: EventSink
    #: The SDK client while the connection is ready; ``None`` before and after.
    _client: Client | None
    _calls: CallTracker
    _bridge: ElicitationBridge
    _catalog: Catalog
    _stderr: StderrCapture | None
    _http_status: HttpStatusLog
    #: One scope per request in flight, cancelled when the connection ends.
    _call_scopes: set[anyio.CancelScope]
    #: The scopes of tool calls by the UI's call id, and the calls the user cancelled, with the
    #: task each ran as, if any (:meth:`cancel_call`).
    _call_by_id: dict[int, anyio.CancelScope]
    _user_cancelled: dict[int, str | None]
    #: Tool calls run as tasks on 2025-11-25 (``tasks.py``).
    tasks: ConnectionTasks
    #: Roots, ping, log level (sent in each request's ``_meta`` on 2026-07-28), subscriptions.
    features: ConnectionFeatures
    _events: dict[str, anyio.Event]
    #: The server closed its side of the stream (``connection.py``).
    _server_ended: bool
    #: The 2026-07-28 connection of tools written only for that era (``era_retry.py``).
    _modern_retry: ModernRetry
    #: How the stdio server's process ended (``returncode``: negative for a signal), once known.
    exit_status: int | None = None
    #: ``StderrCapture.count`` when the last request started: what it wrote since is quoted.
    _stderr_mark: int | None = None

    # ---- public state -----------------------------------------------------------------------

    @property
    def tools(self) -> tuple[ToolInfo, ...]:
        return self._catalog.tools

    @property
    def prompts(self) -> tuple[PromptInfo, ...]:
        return self._catalog.prompts

    @property
    def resources(self) -> tuple[ResourceInfo, ...]:
        return self._catalog.resources

    @property
    def elicitation_paused(self) -> bool:
        return self._bridge.gate.paused

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
        return tuple(self._stderr.tail) if self._stderr else ()

    def set_elicitation_paused(self, paused: bool) -> None:
        """The per-server "stop asking" toggle; ``False`` also lifts a rate-limit pause."""
        self._bridge.set_paused(paused)

    def _exited(self, returncode: int) -> None:
        """The transport's ``on_exit``: the server process ended with ``returncode``."""
        self.exit_status = returncode

    def _stderr_since(self, mark: int | None) -> list[str]:
        """The stderr lines written since ``mark`` (``None``: the last lines)."""
        if self._stderr is None:
            return []
        return self._stderr.since(mark) if mark is not None else list(self._stderr.tail)

    def _stderr_note(self) -> str:
        """For a failure: the stderr written since the last request started (earlier lines,
        from another call, would read as the cause), or the last lines if none was made."""
        lines = self._stderr_since(self._stderr_mark)
        if not lines:
            return ""
        said = stderr_summary(lines)
        if self._stderr_mark is None:
            return f" Last stderr: {said}"
        return f" Its stderr since the last request started: {said}"

    def _mark_stderr(self) -> int | None:
        """Note where the server's stderr stands as a request starts (stdio only)."""
        if self._stderr is None:
            return None
        self._stderr_mark = self._stderr.count
        return self._stderr_mark

    def _explained(
        self, outcome: CallOutcome, mark: int | None, what: str = "request"
    ) -> CallOutcome:
        """``outcome`` with what the server's stderr said since ``mark`` when it failed, and a
        request the connection died under marked ``connection_lost``, naming how the server
        ended (the SDK reports it as a -32000 "Connection closed" error no server sent)."""
        failed = outcome.error is not None or outcome.is_error
        if not failed or outcome.cancelled:
            return outcome
        lines = tuple(self._stderr_since(mark)) if mark is not None else ()
        # A server may send -32000 itself (the start of the server-error range): only the
        # SDK's own words, or the server's end, mean the connection went.
        lost = outcome.error_code == -32000 and (
            self.exit_status is not None
            or self._server_ended
            or (outcome.error or "").casefold().endswith(": connection closed")
        )
        if not lost:
            return replace(outcome, stderr=lines) if lines else outcome
        ended = describe_exit(self.exit_status)
        how = f"the server {ended} during the {what}" if ended else outcome.error
        said = f"; its stderr since the {what} started: {stderr_summary(lines)}" if lines else ""
        return CallOutcome(
            error=f"the connection was lost: {how}{said}",
            error_code=-32000,
            connection_lost=True,
            stderr=lines,
        )

    def _event(self, name: str) -> anyio.Event:
        if name not in self._events:
            self._events[name] = anyio.Event()
        return self._events[name]

    # ---- requests ---------------------------------------------------------------------------

    async def wait_ready(self, timeout: float | None = None) -> bool:
        if self.state is ConnectionState.CONNECTING:
            with anyio.move_on_after(timeout):
                await self._event("settled").wait()
        return self.state is ConnectionState.READY

    def _not_ready_reason(self) -> str:
        why = f": {self.detail}" if self.detail else ""
        return f"{self.name} is not connected ({self.state.value}){why}"

    def _not_ready(self) -> CallOutcome:
        return CallOutcome(error=self._not_ready_reason())

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        call_id: int | None = None,
        as_task: bool | None = None,
    ) -> CallOutcome:
        """Call a tool; progress goes to the sink as ``ProgressReceived(call_id=call_id or 0)``.

        No client-side timeout: a person may take minutes filling in a form for this call. A
        tool written only for 2026-07-28 that fails on this 2025-11-25 connection is called
        again on a 2026-07-28 one (``era_retry.py``).
        """
        retry = self._modern_retry
        if name in retry.tools:
            again = await retry.call(name, arguments, call_id=call_id, as_task=as_task, failed=None)
            if again is not None:
                return again
        mark = self._mark_stderr()
        outcome = await self._call_once(name, arguments, call_id=call_id, as_task=as_task)
        outcome = self._explained(outcome, mark, "call")
        if not retry_applies(outcome, self.spec.mode):
            return outcome
        again = await retry.call(name, arguments, call_id=call_id, as_task=as_task, failed=outcome)
        return outcome if again is None else again

    async def _call_once(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        call_id: int | None,
        as_task: bool | None,
    ) -> CallOutcome:
        """One ``tools/call`` (or task) on this connection; see :meth:`call_tool`."""
        client = self._client
        if client is None:
            return self._not_ready()

        async def progress(progress: float, total: float | None, message: str | None) -> None:
            self._sink(ProgressReceived(self.name, call_id or 0, progress, total, message))

        with self._calls.track(name, call_id) as ref, self._call_scope() as scope:
            if call_id is not None:
                self._call_by_id[call_id] = scope.scope
            try:
                if self.tasks.task_mode(name, as_task, self.tools):
                    result = await self.tasks.call_as_task(
                        client, name, arguments, call_id, progress
                    )
                else:
                    with calling(name, call_id, progress):  # a 2026 task: ``tasks_modern.py``
                        result = await client.call_tool(
                            name,
                            dict(arguments) if arguments is not None else None,
                            progress_callback=progress,
                            meta=self.features.request_meta(),
                        )
                return self._era_checked(convert.tool_outcome(result))
            except Exception as exc:
                outcome = self._error_outcome(exc)
                if outcome.error_code != URL_ELICITATION_REQUIRED:
                    return self._era_checked(outcome)
                try:
                    requests = url_requests_from_error(
                        self.name,
                        outcome.error_data,
                        call=ref,
                        protocol_version=self.info.protocol_version if self.info else None,
                    )
                except ValueError as bad:
                    return CallOutcome(
                        error=f"{outcome.error} (the error's data is not valid: {bad})",
                        error_code=outcome.error_code,
                        error_data=outcome.error_data,
                    )
                return CallOutcome(
                    error=outcome.error,
                    error_code=outcome.error_code,
                    error_data=outcome.error_data,
                    url_elicitations=requests,
                )
            finally:
                if call_id is not None:
                    self._call_by_id.pop(call_id, None)
        if call_id is not None and call_id in self._user_cancelled:
            return self._cancelled(self._user_cancelled.pop(call_id))
        return self._interrupted()  # the connection ended: our scope was cancelled

    def cancel_call(self, call_id: int) -> bool:
        """Cancel the tool call ``call_id`` (the UI's number); ``False`` if it is not running.

        Cancelling the task that awaits ``call_tool`` is the SDK's way: on the way out its
        dispatcher sends ``notifications/cancelled`` for the request in flight (stdio and the
        2025-era HTTP transports) or closes the request's POST (2026-07-28 over HTTP). An open
        form for the call is cancelled with it. The call then ends with a ``cancelled`` outcome.
        """
        scope = self._call_by_id.get(call_id)
        if scope is None:  # perhaps running on the 2026-07-28 connection (``era_retry.py``)
            return self._modern_retry.cancel_call(call_id)
        self._user_cancelled[call_id] = self.tasks.task_of(call_id)  # a task: its id
        scope.cancel()
        return True

    async def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None
    ) -> CallOutcome:
        """Messages become items in order, each with ``role`` set."""
        client = self._client
        if client is None:
            return self._not_ready()
        mark = self._mark_stderr()
        with self._call_scope():
            try:
                args = dict(arguments) if arguments is not None else None
                return convert.prompt_outcome(
                    await client.get_prompt(name, args, meta=self.features.request_meta())
                )
            except Exception as exc:
                return self._explained(self._era_checked(self._error_outcome(exc)), mark)
        return self._explained(self._interrupted(), mark)

    async def read_resource(self, uri: str) -> CallOutcome:
        client = self._client
        if client is None:
            return self._not_ready()
        mark = self._mark_stderr()
        with self._call_scope():
            try:
                return convert.resource_outcome(
                    await client.read_resource(uri, meta=self.features.request_meta())
                )
            except Exception as exc:
                return self._explained(self._era_checked(self._error_outcome(exc)), mark)
        return self._explained(self._interrupted(), mark)

    async def refresh_catalog(self) -> None:
        await self._catalog.refresh_all()

    def _error_outcome(self, exc: Exception) -> CallOutcome:
        """``convert.error_outcome``, naming the HTTP status the SDK reported as -32603."""
        outcome = convert.error_outcome(exc)
        status = self._http_status.last
        if status is None or not sdk_http_error(outcome.error_code, outcome.error):
            return outcome
        explained = explain_status(self.spec, status.status, status.reason)
        return replace(outcome, error=f"{outcome.error} — {explained}")

    def _cancelled(self, task: str | None = None) -> CallOutcome:
        version = self.info.protocol_version if self.info else None
        if task is not None:
            how = f"the call ran as task {one_line(task, limit=80)}: tasks/cancel was sent"
        elif version in MODERN_PROTOCOL_VERSIONS:
            how = (
                "a request in flight was abandoned (stdio: notifications/cancelled; HTTP: its "
                "POST closed); between input_required rounds nothing is in flight and the server "
                "keeps no state for the call, so there was nothing to tell it"
            )
        else:
            how = "notifications/cancelled was sent; a result that still arrives is dropped"
        return CallOutcome(error=f"cancelled by you: {how}", cancelled=True)

    def _era_checked(self, outcome: CallOutcome) -> CallOutcome:
        """``outcome``, with ``needs_era`` set when it failed because of the connection's era."""
        era = needed_era(outcome, self.info.protocol_version if self.info else None)
        return outcome if era is None else replace(outcome, needs_era=era)

    def _interrupted(self) -> CallOutcome:
        return CallOutcome(
            error="-32000 (connection closed): the connection ended during the call",
            error_code=-32000,
        )

    def _call_scope(self) -> CallScope:
        return CallScope(self._call_scopes)

    def _cancel_calls(self) -> None:
        """Calls blocked in a form on 2026-07-28 wait on no response: end them with the link."""
        for scope in list(self._call_scopes):
            scope.cancel()
