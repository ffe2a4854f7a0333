"""The pure parts of task calls: when a tool runs as a task, how often the status is polled."""

from __future__ import annotations

import mcp_types as types

from mcp_tui.session.events import ServerInfo
from mcp_tui.session.tasks import poll_seconds, server_runs_tool_tasks, status_text

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
