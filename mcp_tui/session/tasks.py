"""Tool calls as tasks (the 2025-11-25 "tasks" utility): create, follow, fetch, cancel.

A tool whose ``execution.taskSupport`` is ``"required"`` cannot be called plainly (the TypeScript
SDK's task examples answer -32601/-32603); ``"optional"`` ones may be. :class:`ConnectionTasks`
runs such a call as a task when the server advertises ``tasks.requests.tools.call``:

1. ``tools/call`` with ``task`` metadata answers a ``CreateTaskResult`` (the task, ``working``);
2. ``tasks/result`` is asked at once: the server holds it until the task ends, and sends what the
   task needs from the person (``elicitation/create``, ``sampling/createMessage`` with the
   ``io.modelcontextprotocol/related-task`` metadata) meanwhile, so those reach the normal forms
   through the connection's callbacks; its answer is the tool's ``CallToolResult``;
3. meanwhile ``tasks/get`` is polled every ``pollInterval`` (the server's suggestion, bounded) and
   each status change (``working``, ``input_required``, ``completed``, ``failed``,
   ``cancelled``) reaches the UI as a progress message of the call and a notice;
4. cancelling the call (the running-calls panel's cancel key) sends ``tasks/cancel`` before the
   call ends.

The SDK 2.3 client has no task API: every request goes through the SDK session's generic
``send_request`` with the typed models of ``mcp_types`` (never hand-written framing). This is the
2025-11-25 design; on 2026-07-28 tasks are an extension the server chooses to use, followed by
``tasks_modern.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import anyio
import mcp_types as types
from anyio import sleep
from mcp import Client
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from msgspec import Struct

from mcp_tui.session.convert import describe_exception
from mcp_tui.session.events import Notice, ServerInfo, ToolInfo
from mcp_tui.session.link import ConnectionLink
from mcp_tui.session.sdk_workarounds import send_task_call
from mcp_tui.untrusted import one_line

log = logging.getLogger(__name__)

#: Bounds on the server's ``pollInterval`` (ms), so a server can neither flood nor stall us.
MIN_POLL = 0.1
MAX_POLL = 10.0
DEFAULT_POLL = 1.0
TERMINAL = frozenset({"completed", "failed", "cancelled"})

Progress = Callable[[float, float | None, str | None], Awaitable[None]]


def server_runs_tool_tasks(info: ServerInfo | None) -> bool:
    """The server advertised ``tasks.requests.tools.call`` on a 2025-11-25 connection."""
    if info is None or info.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return False
    tasks = info.capabilities.get("tasks")
    requests = tasks.get("requests") if isinstance(tasks, dict) else None
    tools = requests.get("tools") if isinstance(requests, dict) else None
    return isinstance(tools, dict) and tools.get("call") is not None


def bounded_poll(interval_ms: float | None) -> float:
    """The seconds to wait before the next ``tasks/get``: the server's interval, bounded."""
    if interval_ms is None:
        return DEFAULT_POLL
    return min(MAX_POLL, max(MIN_POLL, interval_ms / 1000))


def poll_seconds(task: types.Task) -> float:
    return bounded_poll(task.poll_interval)


def describe_status(status: str, message: str | None) -> str:
    """``task STATUS: MESSAGE`` on one escaped line (both are the server's words)."""
    text = f"task {one_line(status, limit=40)}"
    if message:
        text += f": {one_line(message, limit=200)}"
    return text


def status_text(task: types.Task) -> str:
    return describe_status(task.status, task.status_message)


#: How many pages of ``tasks/list`` are read at most (a server that never ends its cursor).
MAX_PAGES = 20


class TaskSummary(Struct, frozen=True):
    """One task as ``tasks/list`` reports it (the server's strings: untrusted)."""

    task_id: str
    status: str
    status_message: str | None = None
    created_at: str | None = None


def server_lists_tasks(info: ServerInfo | None) -> bool:
    """The server advertised ``tasks.list`` on a 2025-11-25 connection."""
    if info is None or info.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return False
    tasks = info.capabilities.get("tasks")
    return isinstance(tasks, dict) and tasks.get("list") is not None


class ConnectionTasks:
    """Task-augmented tool calls of one connection, a part ``ServerConnection`` owns
    (``connection.tasks``): the connection's ``link`` has its SDK client (``None`` unless ready)
    and its handshake; ``task_by_call`` is shared with the connection, whose cancel reads it, and
    with the 2026-07-28 follower (``tasks_modern.py``)."""

    def __init__(self, link: ConnectionLink, task_by_call: dict[int, str]) -> None:
        self.name = link.name
        self._sink = link.sink
        self._link = link
        #: The task id of each call running as a task, by the UI's call id.
        self._task_by_call = task_by_call

    def task_mode(self, tool: str, as_task: bool | None, tools: Sequence[ToolInfo]) -> bool:
        """Whether ``tool`` (of the listed ``tools``) is called as a task: required by the tool,
        or chosen for an optional one (``as_task``), and only where the server runs tool calls as
        tasks."""
        if not server_runs_tool_tasks(self._link.info):
            return False
        support = next((t.task_support for t in tools if t.name == tool), None)
        if support == "required":
            return True
        return bool(as_task) and support == "optional"

    def task_of(self, call_id: int) -> str | None:
        """The task id of a call running as a task (for the UI and cancel)."""
        return self._task_by_call.get(call_id)

    async def call_as_task(
        self,
        client: Client,
        name: str,
        arguments: Mapping[str, Any] | None,
        call_id: int | None,
        progress: Progress,
    ) -> types.CallToolResult:
        """Steps 1-4 of the module docstring; raises like ``Client.call_tool``."""
        session = client.session
        created: types.CreateTaskResult = await send_task_call(  # ``sdk_workarounds`` 5
            session,
            types.CallToolRequest(
                params=types.CallToolRequestParams(
                    name=name,
                    arguments=dict(arguments) if arguments is not None else None,
                    task=types.TaskMetadata(),
                )
            ),
        )
        task: types.Task = created.task
        if call_id is not None:
            self._task_by_call[call_id] = task.task_id
        self._notice(f"{name} runs as task {one_line(task.task_id, limit=80)} ({task.status})")
        await progress(0.0, None, status_text(task))
        last = [task]
        try:
            async with anyio.create_task_group() as polling:
                polling.start_soon(self._follow, session, last, progress, name)
                result = await session.send_request(
                    types.GetTaskPayloadRequest(
                        params=types.GetTaskPayloadRequestParams(task_id=task.task_id)
                    ),
                    types.CallToolResult,
                )
                polling.cancel_scope.cancel()
        except BaseException:
            if last[-1].status not in TERMINAL:
                with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                    await self._cancel_task(session, task.task_id, name)
            raise
        finally:
            if call_id is not None:
                self._task_by_call.pop(call_id, None)
        self._notice(f"task {one_line(task.task_id, limit=80)} of {name} ended; result fetched")
        return result

    async def _follow(
        self, session: Any, last: list[types.Task], progress: Progress, name: str
    ) -> None:
        """Poll ``tasks/get`` until the task ends, reporting each status change."""
        while last[-1].status not in TERMINAL:
            await sleep(poll_seconds(last[-1]))  # the server's interval: never a busy loop
            try:
                task = await session.send_request(
                    types.GetTaskRequest(
                        params=types.GetTaskRequestParams(task_id=last[-1].task_id)
                    ),
                    types.GetTaskResult,
                )
            except Exception as exc:
                log.debug("tasks/get failed", exc_info=True)
                self._notice(f"tasks/get failed for {name}: {exc}", "warning")
                return
            if (task.status, task.status_message) != (last[-1].status, last[-1].status_message):
                await progress(0.0, None, status_text(task))
                if task.status != "working":
                    self._notice(f"{name}: {status_text(task)}")
            last.append(task)
            del last[:-1]

    async def list_tasks(self) -> tuple[TaskSummary, ...] | str:
        """Every task the server reports (``tasks/list``, page by page), or why not."""
        client = self._link.client
        if client is None:
            return "not connected"
        found: list[TaskSummary] = []
        cursor: str | None = None
        try:
            for _ in range(MAX_PAGES):
                params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
                page = await client.session.send_request(
                    types.ListTasksRequest(params=params), types.ListTasksResult
                )
                found += [
                    TaskSummary(t.task_id, t.status, t.status_message, t.created_at)
                    for t in page.tasks
                ]
                cursor = page.next_cursor
                if not cursor:
                    break
        except Exception as exc:
            return describe_exception(exc)
        return tuple(found)

    async def _cancel_task(self, session: Any, task_id: str, name: str) -> None:
        try:
            await session.send_request(
                types.CancelTaskRequest(params=types.CancelTaskRequestParams(task_id=task_id)),
                types.CancelTaskResult,
            )
            self._notice(f"sent tasks/cancel for task {one_line(task_id, limit=80)} of {name}")
        except Exception as exc:
            self._notice(f"tasks/cancel for {name} failed: {exc}", "warning")

    def _notice(self, text: str, severity: Any = "information") -> None:
        self._sink(Notice(self.name, text, severity))
