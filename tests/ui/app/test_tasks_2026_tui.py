"""The TUI and a tool that becomes a task on 2026-07-28 (the ``io.modelcontextprotocol/tasks``
extension; ``tests/fixtures/task_server_2026.py`` over stdio): the person sees what a 2025-11-25
task shows — its status in the running-calls row and the transcript, the form the task asks for
with the task named, the result; ``c`` cancels it and the server gets ``tasks/cancel``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.ui.app_testkit import session_of, transcript_text, wait_for
from tests.waits import mounted_screen

pytestmark = pytest.mark.anyio

SERVER = Path(__file__).resolve().parents[2] / "fixtures" / "task_server_2026.py"


def build(tmp_path: Path, tool: str) -> McpTuiApp:
    spec = ServerSpec("tasks", StdioTarget(sys.executable, (str(SERVER),)), mode="2026-07-28")
    options = AppOptions(
        call=ToolCallRequest(tool, {}),
        traffic_log=tmp_path / "traffic.jsonl",
        stderr_log=tmp_path / "stderr.log",
    )
    return McpTuiApp([spec], options)


def sent(log: Path, method: str) -> list[dict[str, Any]]:
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    messages = [e["message"] for line in lines if (e := json.loads(line)).get("dir") == "out"]
    return [m for m in messages if m.get("method") == method]


def running_text(app: McpTuiApp) -> str:
    return " ".join(str(w.render()) for w in session_of(app).query(".running-message"))


async def test_the_tasks_form_names_the_task_and_the_result_is_shown(tmp_path: Path) -> None:
    app = build(tmp_path, "confirm")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: mounted_screen(app, ElicitationScreen) is not None, 90)
        screen = mounted_screen(app, ElicitationScreen)
        assert screen is not None
        task_id = screen.request.related_task
        assert task_id and screen.request.tool == "confirm"
        header = str(screen.query_one("#elicitation-header").render())
        assert f"during tool call confirm (task {task_id})" in header
        await wait_for(
            pilot, lambda: "task input_required: waiting for you" in running_text(app), 50
        )
        assert f"confirm runs as task {task_id}" in transcript_text(app, full=True)
        await pilot.press("space")  # the one field, a checkbox, has the focus
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Deleted" in transcript_text(app, full=True), 90)
        await pilot.press("ctrl+q")
    [update] = sent(tmp_path / "traffic.jsonl", "tasks/update")
    assert update["params"]["taskId"] == task_id
    assert list(update["params"]["inputResponses"].values()) == [
        {"action": "accept", "content": {"confirm": True}}
    ]


async def test_c_cancels_a_task_and_the_server_gets_tasks_cancel(tmp_path: Path) -> None:
    log = tmp_path / "traffic.jsonl"
    app = build(tmp_path, "forever")
    async with app.run_test(size=(120, 40)) as pilot:
        session = session_of(app)
        await wait_for(pilot, lambda: bool(sent(log, "tasks/get")), 90)
        await wait_for(pilot, lambda: "task working: waiting" in running_text(app), 50)
        assert session.calls.cancellable
        await pilot.press("c")
        await wait_for(pilot, lambda: bool(sent(log, "tasks/cancel")), 90)
        await wait_for(pilot, lambda: "cancelled by you" in transcript_text(app, full=True), 50)
        shown = transcript_text(app, full=True)
        await pilot.press("ctrl+q")
    [get] = sent(log, "tasks/get")[:1]
    task_id = get["params"]["taskId"]
    assert f"cancelled by you: the call ran as task {task_id}: tasks/cancel was sent" in shown
    assert [c["params"]["taskId"] for c in sent(log, "tasks/cancel")] == [get["params"]["taskId"]]
