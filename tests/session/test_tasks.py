"""Task calls: when a tool runs as a task, how often the status is polled, and a whole task
call against a scripted task server (the raw stdio server: ``tasks/get`` answers ``working``
with the server's ``pollInterval``, ``tasks/result`` never comes, ``tasks/cancel`` ends it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session import tasks as tasks_module
from mcp_tui.session.events import ServerInfo
from mcp_tui.session.tasks import poll_seconds, server_runs_tool_tasks, status_text
from tests.session.session_testkit import RAW_SERVER, connected

TASKS = {"tasks": {"requests": {"tools": {"call": {}}}}}


def info(capabilities: dict[str, object], version: str = "2025-11-25") -> ServerInfo:
    return ServerInfo("s", "1", capabilities=capabilities, protocol_version=version)


def test_only_a_2025_11_25_server_that_says_so_runs_tool_calls_as_tasks() -> None:
    assert server_runs_tool_tasks(info(TASKS))
    assert not server_runs_tool_tasks(info(TASKS, "2026-07-28"))
    assert not server_runs_tool_tasks(info({"tasks": {"list": {}}}))
    assert not server_runs_tool_tasks(info({"tasks": "yes"}))
    assert not server_runs_tool_tasks(None)


def task(poll: int | None, message: str | None = None) -> types.Task:
    return types.Task(
        task_id="t",
        status="working",
        status_message=message,
        created_at="2026-01-01T00:00:00Z",
        last_updated_at="2026-01-01T00:00:00Z",
        ttl=None,
        poll_interval=poll,
    )


def test_the_poll_interval_is_the_servers_within_bounds() -> None:
    assert poll_seconds(task(None)) == 1.0
    assert poll_seconds(task(2500)) == 2.5
    assert poll_seconds(task(0)) == 0.1
    assert poll_seconds(task(10**9)) == 10.0


def test_status_text_is_one_escaped_line() -> None:
    assert status_text(task(None, "step 2\n\x1b[31m")) == "task working: step 2\\n\\e[31m"


# ---- a task call against a task server --------------------------------------------------------

TASK_SERVER = {
    "capabilities": {"tools": {}, **TASKS},
    "tools": [
        {
            "name": "long",
            "inputSchema": {"type": "object"},
            "execution": {"taskSupport": "required"},
        }
    ],
    "task_poll_ms": 250,
}


def sent(record: Path, method: str) -> list[dict[str, Any]]:
    """What the server got for ``method``, in order."""
    lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    return [m for line in lines if (m := json.loads(line)).get("method") == method]


@pytest.mark.anyio
async def test_a_task_call_polls_at_the_servers_interval_and_cancelling_sends_tasks_cancel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake clock stands in for the wait between two ``tasks/get``: it records each wait and
    lets the next poll go at once, so the test takes no real poll time. A busy loop (no wait, or
    a wait of 0) or a fixed interval would record something else than the server's 250 ms."""
    waits: list[float] = []
    polled = anyio.Event()

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) >= 3:
            polled.set()
            await anyio.sleep_forever()  # until the call is cancelled
        await anyio.sleep(0)

    monkeypatch.setattr(tasks_module, "sleep", fake_sleep)
    path, record = tmp_path / "script.json", tmp_path / "got.jsonl"
    path.write_text(json.dumps(TASK_SERVER), encoding="utf-8")
    args = (str(RAW_SERVER), "--script", str(path), "--record", str(record))
    spec = ServerSpec("tasks", StdioTarget(sys.executable, args), mode="legacy")
    async with connected(spec) as conn:
        with anyio.fail_after(10):
            while not conn.tools:  # the tool's taskSupport is known once it is listed
                await anyio.sleep(0.01)
        outcomes: list[Any] = []

        async def call() -> None:
            outcomes.append(await conn.call_tool("long", {}, call_id=5))

        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            with anyio.fail_after(20):
                await polled.wait()
            assert conn.tasks.task_of(5) == "task-1"
            assert conn.cancel_call(5)
        assert outcomes[0].cancelled
        with anyio.fail_after(10):
            while not sent(record, "tasks/cancel"):
                await anyio.sleep(0.01)
    assert waits == [0.25, 0.25, 0.25]  # the server's pollInterval before each tasks/get
    assert len(sent(record, "tasks/get")) == 2  # one per wait that ended
    assert sent(record, "tasks/cancel")[0]["params"] == {"taskId": "task-1"}
