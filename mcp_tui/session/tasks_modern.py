"""Tool calls that become tasks on 2026-07-28: the ``io.modelcontextprotocol/tasks`` extension.

2026-07-28 moved tasks out of the core protocol into an extension (SEP-2663), and changed them:

- the client declares the extension in each request's capabilities (the SDK stamps every request
  with the capabilities of :class:`ModernTasks`, a ``ClientExtension``); the *server* then decides
  per call whether a ``tools/call`` becomes a task, answering ``resultType: "task"`` with the task
  (``taskId``, ``status``, ``pollIntervalMs``, ...) instead of the tool's result. There is no
  ``taskSupport`` to read and nothing the client can ask for;
- ``tasks/get`` is the only way to follow it: polled every ``pollIntervalMs`` (bounded as on
  2025-11-25), it answers the status, and in the end the tool's result inline (``completed``), the
  JSON-RPC error (``failed``) or nothing (``cancelled``). No ``tasks/result``, no ``tasks/list``;
- what the task needs from the person comes as ``inputRequests`` in a ``tasks/get`` answer
  (``input_required``), keyed like a multi-round-trip result. Each new key goes to the
  connection's own callbacks (the elicitation form, the sampling review, roots) with the task
  as its related task, within the limits of a request flood, and the answers go back in
  ``tasks/update`` (``task_inputs.py``). A form whose task ended is closed. A request that cannot
  be answered (a form the engine refuses) ends the call, as it does in a multi-round-trip call,
  and the task is cancelled;
- ``tasks/cancel`` is sent when the call is cancelled (the running-calls panel, Ctrl+C, a
  timeout) before the task ended.

The SDK gives the seam: a ``ResultClaim`` for ``resultType: "task"`` on ``tools/call``, whose
resolver (:meth:`ModernTasks.follow`) runs inside ``Client.call_tool`` and returns the final
``CallToolResult``. What the call site knows (the UI's call id, its progress callback) reaches the
resolver through :func:`calling`, a context variable set around ``call_tool`` in the same task.
Requests go through the session's ``send_request`` with typed models (``name_param`` puts the
task id in the ``Mcp-Name`` header the extension requires over HTTP). What is accepted is
generous: unknown statuses keep the polling going, missing timestamps are fine.

Importing this module imports ``mcp``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal

import anyio
import mcp_types as types
from anyio import sleep
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from pydantic import model_validator

from mcp_tui.errors import TaskEnded
from mcp_tui.session.era import TASKS_EXTENSION
from mcp_tui.session.events import EventSink, Notice
from mcp_tui.session.task_inputs import (
    Acknowledged,
    Admission,
    GateAdmission,
    TaskInputs,
    TaskParams,
)
from mcp_tui.session.tasks import TERMINAL, bounded_poll, describe_status
from mcp_tui.untrusted import one_line

log = logging.getLogger(__name__)

EXTENSION = TASKS_EXTENSION
INTERNAL_ERROR = -32603
#: ``tasks/get`` errors that end the call at once: the task is unknown (or expired), the
#: connection is closed. Any other error is asked again, up to ``MAX_FAILED_POLLS`` in a row.
FINAL_ERRORS = frozenset({-32602, -32000})
MAX_FAILED_POLLS = 3

Progress = Callable[[float, float | None, str | None], Awaitable[None]]


# ---- the extension's wire shapes ------------------------------------------------------------


def _flat(data: Any) -> Any:
    """Generous in what is read: a task nested under ``task`` (2025-11-25's shape) is read as the
    flat one, and ``pollInterval`` (2025-11-25's name) as ``pollIntervalMs``."""
    if not isinstance(data, dict):
        return data
    nested = data.get("task")
    if isinstance(nested, dict) and "taskId" not in data:
        data = {**nested, **{k: v for k, v in data.items() if k != "task"}}
    interval = data.get("pollInterval")
    if "pollIntervalMs" not in data and isinstance(interval, int | float):
        data = {**data, "pollIntervalMs": interval}
    return data


class CreatedTask(types.Result):
    """``CreateTaskResult``: what ``tools/call`` answers when the server made it a task."""

    _generous = model_validator(mode="before")(_flat)

    result_type: Literal["task"] = "task"
    task_id: str
    status: str = "working"
    status_message: str | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    ttl_ms: float | None = None
    poll_interval_ms: float | None = None


class DetailedTask(types.Result):
    """A ``tasks/get`` answer: the task, with its result, error or input requests inline."""

    _generous = model_validator(mode="before")(_flat)

    result_type: str | None = None
    task_id: str | None = None
    status: str
    status_message: str | None = None
    poll_interval_ms: float | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    #: Read as it came (an object of requests, checked by ``task_inputs``): a poll can list
    #: 100,000, and a typed field would copy them all on the UI's loop.
    input_requests: Any = None


class GetTask(types.Request[TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    name_param = "taskId"


class CancelTask(types.Request[TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    name_param = "taskId"


# ---- what the call site hands over -----------------------------------------------------------


@dataclass(frozen=True)
class TaskCall:
    """The tool call a task belongs to, as the call site knows it."""

    tool: str
    call_id: int | None
    progress: Progress


async def _no_progress(progress: float, total: float | None, message: str | None) -> None:
    return None


_calling: ContextVar[TaskCall | None] = ContextVar("mcp_tui_task_call", default=None)


@contextmanager
def calling(tool: str, call_id: int | None, progress: Progress) -> Iterator[None]:
    """Around ``Client.call_tool``: a task it turns into is followed as this call."""
    token = _calling.set(TaskCall(tool, call_id, progress))
    try:
        yield
    finally:
        _calling.reset(token)


# ---- the extension --------------------------------------------------------------------------


class ModernTasks(ClientExtension):
    """The client side of the tasks extension for one connection.

    ``task_by_call`` is the connection's map from the UI's call id to its task id (the same one
    the 2025-11-25 tasks use), read by the UI and by cancel. ``admission`` is the connection's
    anti-spam gate as input requests meet it (its ``ElicitationBridge``); without one, the
    extension keeps a gate of its own with the default limits.
    """

    identifier = EXTENSION

    def __init__(
        self,
        server: str,
        sink: EventSink,
        task_by_call: dict[int, str],
        admission: Admission | None = None,
    ) -> None:
        self.server = server
        self._sink = sink
        self.task_by_call = task_by_call
        self.admission: Admission = admission or GateAdmission()

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self.follow)]

    async def follow(self, created: CreatedTask, context: ClaimContext) -> types.CallToolResult:
        """Follow the task until it ends; its tool result, or raise like ``call_tool``."""
        call = _calling.get() or TaskCall(context.tool_name, None, _no_progress)
        return await _FollowedTask(self, context.session, call, created).run()

    def notice(self, text: str, severity: Any = "information") -> None:
        self._sink(Notice(self.server, text, severity))


class _FollowedTask:
    """One task being followed (see the module docstring)."""

    def __init__(
        self, owner: ModernTasks, session: ClientSession, call: TaskCall, created: CreatedTask
    ) -> None:
        self.owner = owner
        self.session = session
        self.call = call
        self.task_id = created.task_id
        self.shown_id = one_line(created.task_id, limit=80)
        self.status = created.status
        self.message = created.status_message
        self.poll_ms = created.poll_interval_ms
        #: Why the call ends without the task's result (a refused request, a failed update).
        self.refused: Exception | None = None
        #: Its input requests and their answers (the forms run in its task group).
        self.inputs: TaskInputs | None = None

    async def run(self) -> types.CallToolResult:
        call = self.call
        if call.call_id is not None:
            self.owner.task_by_call[call.call_id] = self.task_id
        self.owner.notice(f"{call.tool} runs as task {self.shown_id} ({self.status})")
        await call.progress(0.0, None, describe_status(self.status, self.message))
        final: DetailedTask | None = None
        try:
            async with anyio.create_task_group() as forms:
                self.inputs = TaskInputs(
                    self.session,
                    self.task_id,
                    named=f"task {self.shown_id} of {call.tool}",
                    admission=self.owner.admission,
                    forms=forms,
                    notice=self.owner.notice,
                    stop=self._stop,
                )
                try:
                    final = await self._poll()
                except Exception as exc:  # out of the task group it would come out grouped
                    self._stop(exc)
                forms.cancel_scope.cancel()  # a form still open: the task ended without it
            if self.refused is not None:
                raise self.refused
        except BaseException:
            if self.status not in TERMINAL:
                with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                    await self._cancel()
            raise
        finally:
            if call.call_id is not None:
                self.owner.task_by_call.pop(call.call_id, None)
        assert final is not None
        return self._result_of(final)

    async def _poll(self) -> DetailedTask:
        """``tasks/get`` at the server's interval until the task ends."""
        failures = 0
        while True:
            await sleep(bounded_poll(self.poll_ms))  # the server's interval: never a busy loop
            try:
                task = await self.session.send_request(
                    GetTask(params=TaskParams(task_id=self.task_id)), DetailedTask
                )
            except MCPError as exc:
                failures += 1
                said = f"tasks/get for task {self.shown_id} failed: {exc.error.message}"
                if exc.code in FINAL_ERRORS or failures >= MAX_FAILED_POLLS:
                    raise MCPError(exc.code, said) from exc
                self.owner.notice(f"{said}; asking again", "warning")
                continue
            failures = 0
            await self._show(task)
            if task.poll_interval_ms is not None:
                self.poll_ms = task.poll_interval_ms
            if task.status in TERMINAL:
                return task
            assert self.inputs is not None
            await self.inputs.listed(task.input_requests)  # generous: whatever the status says

    async def _show(self, task: DetailedTask) -> None:
        if (task.status, task.status_message) == (self.status, self.message):
            return
        self.status, self.message = task.status, task.status_message
        text = describe_status(task.status, task.status_message)
        await self.call.progress(0.0, None, text)
        if task.status != "working":
            self.owner.notice(f"{self.call.tool}: {text}")

    def _stop(self, why: Exception) -> None:
        if self.refused is None:
            self.refused = why
        assert self.inputs is not None
        self.inputs.forms.cancel_scope.cancel()

    async def _cancel(self) -> None:
        try:
            await self.session.send_request(
                CancelTask(params=TaskParams(task_id=self.task_id)), Acknowledged
            )
            self.owner.notice(f"sent tasks/cancel for task {self.shown_id} of {self.call.tool}")
        except Exception as exc:
            self.owner.notice(f"tasks/cancel for {self.call.tool} failed: {exc}", "warning")

    def _result_of(self, task: DetailedTask) -> types.CallToolResult:
        """The tool's result of an ended task; raises for ``failed`` and ``cancelled``."""
        tool = self.call.tool
        if task.status == "failed":
            error = task.error or {}
            code = error.get("code")
            message = error.get("message") or task.status_message or "the task failed"
            raise MCPError(
                code if isinstance(code, int) else INTERNAL_ERROR, str(message), error.get("data")
            )
        if task.status == "cancelled":
            why = f": {one_line(task.status_message, limit=200)}" if task.status_message else ""
            raise TaskEnded(f"the server cancelled task {self.shown_id} of {tool}{why}")
        if task.result is None:
            raise TaskEnded(f"task {self.shown_id} of {tool} completed without a result")
        result = types.CallToolResult.model_validate(task.result)
        self.owner.notice(f"task {self.shown_id} of {tool} ended; result in its tasks/get")
        return result
