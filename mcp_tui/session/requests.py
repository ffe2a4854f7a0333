"""The requests other tasks make on a running connection: a part ``ServerConnection`` owns.

A connection's own task connects, serves and closes (``connection.py``); meanwhile other tasks
call tools, get prompts and read resources through it, concurrently. Those requests never raise:
errors come back in the :class:`CallOutcome`, including "not connected" and "the connection ended
during the call". :class:`ConnectionRequests` holds what only they need (a scope per request in
flight, the tool calls by the UI's call id, the calls the user cancelled) and reads the
connection's live SDK client and handshake through getters, like its other parts.

A call blocked in a form waits on no response on 2026-07-28, so each request runs in a
:class:`~mcp_tui.session.scopes.CallScope` the connection cancels (:meth:`cancel_all`) when its
link ends. A failure names how the server ended through the :class:`ServerEnd` the connection
shares with it (``server_exit.py``).

Importing this module imports ``mcp`` (like ``connection.py``, it is loaded in a worker).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from msgspec.structs import replace

from mcp_tui.session import convert
from mcp_tui.session.catalog import Catalog
from mcp_tui.session.elicitation_bridge import CallTracker, url_requests_from_error
from mcp_tui.session.era import needed_era
from mcp_tui.session.era_retry import ModernRetry, retry_applies
from mcp_tui.session.events import CallOutcome, ProgressReceived
from mcp_tui.session.features import ConnectionFeatures
from mcp_tui.session.http_status import HttpStatusLog, explain_status, sdk_http_error
from mcp_tui.session.link import ConnectionLink
from mcp_tui.session.scopes import CallScope
from mcp_tui.session.server_exit import CONNECTION_CLOSED, INTERRUPTED, ServerEnd
from mcp_tui.session.tasks import ConnectionTasks
from mcp_tui.session.tasks_modern import calling
from mcp_tui.untrusted import one_line

URL_ELICITATION_REQUIRED = -32042


class ConnectionRequests:
    """``tools/call``, ``prompts/get`` and ``resources/read`` of one connection, a part
    ``ServerConnection`` owns (``connection.requests``): ``client`` and ``info`` read its SDK
    client (``None`` unless ready) and its handshake now, ``not_ready`` says why it cannot be
    asked; the other parts are the connection's own, shared."""

    def __init__(
        self,
        link: ConnectionLink,
        *,
        catalog: Catalog,
        calls: CallTracker,
        tasks: ConnectionTasks,
        features: ConnectionFeatures,
        modern_retry: ModernRetry,
        http_status: HttpStatusLog,
        ended: ServerEnd,
    ) -> None:
        self.spec = link.spec
        self.name = link.name
        self._sink = link.sink
        self._link = link
        self._catalog = catalog
        self._calls = calls
        self.tasks = tasks
        self.features = features
        #: The 2026-07-28 connection of tools written only for that era (``era_retry.py``).
        self._modern_retry = modern_retry
        self._http_status = http_status
        self._ended = ended
        #: One scope per request in flight, cancelled when the connection ends.
        self._call_scopes: set[anyio.CancelScope] = set()
        #: The scopes of tool calls by the UI's call id, and the calls the user cancelled, with
        #: the task each ran as, if any (:meth:`cancel_call`).
        self._call_by_id: dict[int, anyio.CancelScope] = {}
        self._user_cancelled: dict[int, str | None] = {}

    def _protocol_version(self) -> str | None:
        info = self._link.info
        return info.protocol_version if info else None

    def _not_ready(self) -> CallOutcome:
        return CallOutcome(error=self._link.not_ready_reason())

    # ---- requests ---------------------------------------------------------------------------

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
        mark = self._ended.mark_stderr()
        outcome = await self._call_once(name, arguments, call_id=call_id, as_task=as_task)
        outcome = self._ended.explained(outcome, mark, "call")
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
        client = self._link.client
        if client is None:
            return self._not_ready()

        async def progress(progress: float, total: float | None, message: str | None) -> None:
            self._sink(ProgressReceived(self.name, call_id or 0, progress, total, message))

        with self._calls.track(name, call_id) as ref, self._call_scope() as scope:
            if call_id is not None:
                self._call_by_id[call_id] = scope.scope
            try:
                if self.tasks.task_mode(name, as_task, self._catalog.tools):
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
                        protocol_version=self._protocol_version(),
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
        client = self._link.client
        if client is None:
            return self._not_ready()
        mark = self._ended.mark_stderr()
        with self._call_scope():
            try:
                args = dict(arguments) if arguments is not None else None
                return convert.prompt_outcome(
                    await client.get_prompt(name, args, meta=self.features.request_meta())
                )
            except Exception as exc:
                return self._ended.explained(self._era_checked(self._error_outcome(exc)), mark)
        return self._ended.explained(self._interrupted(), mark)

    async def read_resource(self, uri: str) -> CallOutcome:
        client = self._link.client
        if client is None:
            return self._not_ready()
        mark = self._ended.mark_stderr()
        with self._call_scope():
            try:
                return convert.resource_outcome(
                    await client.read_resource(uri, meta=self.features.request_meta())
                )
            except Exception as exc:
                return self._ended.explained(self._era_checked(self._error_outcome(exc)), mark)
        return self._ended.explained(self._interrupted(), mark)

    def _error_outcome(self, exc: Exception) -> CallOutcome:
        """``convert.error_outcome``, naming the HTTP status the SDK reported as -32603."""
        outcome = convert.error_outcome(exc)
        status = self._http_status.last
        if status is None or not sdk_http_error(outcome.error_code, outcome.error):
            return outcome
        explained = explain_status(self.spec, status.status, status.reason)
        return replace(outcome, error=f"{outcome.error} — {explained}")

    def _cancelled(self, task: str | None = None) -> CallOutcome:
        version = self._protocol_version()
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
        era = needed_era(outcome, self._protocol_version())
        return outcome if era is None else replace(outcome, needs_era=era)

    def _interrupted(self) -> CallOutcome:
        return CallOutcome(error=INTERRUPTED, error_code=CONNECTION_CLOSED)

    def _call_scope(self) -> CallScope:
        return CallScope(self._call_scopes)

    def cancel_all(self) -> None:
        """Calls blocked in a form on 2026-07-28 wait on no response: end them with the link."""
        for scope in list(self._call_scopes):
            scope.cancel()
