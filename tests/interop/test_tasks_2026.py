"""Tasks on 2026-07-28 against a real task server: FastMCP 4.1.4 with ``fastmcp-tasks`` 4.1.4,
the ``io.modelcontextprotocol/tasks`` extension (SEP-2663) as FastMCP ships it
(``servers/fastmcp_tasks_server.py``, in its own venv).

Its tools run only as tasks: on 2025-11-25 they refuse with -32021 naming the extension, so in
the default mode the call is redone on a 2026-07-28 connection, where the server answers a task
that mcp-tui follows with ``tasks/get`` (no ``tasks/result``), answers the form the task asks
for with ``tasks/update``, and cancels with ``tasks/cancel``. Headless and in the TUI.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.cli import main as cli
from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.interop.python_peers import require_python_peer
from tests.interop.tui_driver import _messages, press_on, quit_app, wait_for

pytestmark = [pytest.mark.interop]

SERVER = Path(__file__).resolve().parent / "servers" / "fastmcp_tasks_server.py"


def command() -> list[str]:
    return [str(require_python_peer("fastmcp4tasks")), str(SERVER)]


def sent(log: Path, method: str) -> list[dict[str, Any]]:
    return [m for m in _messages(log, "out") if m.get("method") == method]


def is_task(result: Any) -> bool:
    return isinstance(result, dict) and result.get("resultType") == "task"


def test_headless_default_mode_answers_the_tasks_form_with_tasks_update(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text('{"answers": [{"action": "accept", "content": {"confirm": true}}]}')
    log = tmp_path / "traffic.jsonl"
    argv = ["call", "confirm_delete", "--args", '{"filename": "a.txt"}', "--answers", str(answers)]
    code = cli.main([*argv, "--log", str(log), "--", *command()])
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "Deleted 'a.txt'"), err
    assert "calling it again on a 2026-07-28 connection" in err
    assert "confirm_delete runs as task" in err and "task input_required" in err
    [update] = sent(log, "tasks/update")
    [response] = update["params"]["inputResponses"].values()
    assert response == {"action": "accept", "content": {"confirm": True}}
    assert sent(log, "tasks/get") and not sent(log, "tasks/result")
    calls = sent(log, "tools/call")
    capabilities = calls[-1]["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
    assert capabilities["extensions"] == {"io.modelcontextprotocol/tasks": {}}
    assert "task" not in calls[-1]["params"]  # 2026: no per-request task metadata


def test_headless_task_progress_and_result_on_2026(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "traffic.jsonl"
    argv = ["call", "count", "--args", '{"n": 2}', "--mode", "2026-07-28", "--task"]
    code = cli.main([*argv, "--log", str(log), "--", *command()])
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "counted to 2"), err
    assert "count runs as task" in err and "count: task completed" in err
    gets = [m for m in _messages(log, "in") if "status" in (m.get("result") or {})]
    assert gets[-1]["result"]["status"] == "completed"


def test_headless_a_sampling_request_of_a_task_is_answered_with_tasks_update(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text('{"answers": [{"sampling": {"text": "Old pond, a frog jumps"}}]}')
    log = tmp_path / "traffic.jsonl"
    argv = ["call", "write_haiku", "--args", '{"topic": "frogs"}', "--mode", "2026-07-28"]
    code = cli.main([*argv, "--answers", str(answers), "--log", str(log), "--", *command()])
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "Haiku:\nOld pond, a frog jumps"), err
    [update] = sent(log, "tasks/update")
    [reply] = update["params"]["inputResponses"].values()  # keyed as the server listed it
    assert reply["content"] == {"type": "text", "text": "Old pond, a frog jumps"}


@pytest.mark.anyio
async def test_tui_asks_the_tasks_form_and_shows_the_result(
    tmp_path: Path, anyio_backend: str
) -> None:
    log = tmp_path / "traffic.jsonl"
    cmd = command()
    spec = ServerSpec("tasks", StdioTarget(cmd[0], tuple(cmd[1:])), mode="2026-07-28")
    options = AppOptions(
        call=ToolCallRequest("confirm_delete", {"filename": "b.txt"}),
        traffic_log=log,
        stderr_log=tmp_path / "stderr.log",
    )
    app = McpTuiApp([spec], options)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationScreen) and app.screen, "the form"
        )
        task_id = screen.request.related_task
        assert task_id and screen.request.tool == "confirm_delete"
        headers = await wait_for(pilot, lambda: screen.query("#elicitation-header"), "a header")
        assert f"(task {task_id})" in str(headers.first().render())
        await press_on(pilot, "confirm", "space")
        await pilot.press("ctrl+s")
        session = app.session
        assert session is not None
        await wait_for(
            pilot,
            lambda: (
                session.areas.panels_ready
                and any("Deleted 'b.txt'" in e.full for e in session.areas.transcript.entries)
            ),
            "the task's result in the transcript",
        )
        await quit_app(pilot)
    [update] = sent(log, "tasks/update")
    assert update["params"]["taskId"] == task_id


@pytest.mark.anyio
async def test_tui_cancelling_a_task_call_sends_tasks_cancel(
    tmp_path: Path, anyio_backend: str
) -> None:
    log = tmp_path / "traffic.jsonl"
    cmd = command()
    spec = ServerSpec("tasks", StdioTarget(cmd[0], tuple(cmd[1:])), mode="2026-07-28")
    options = AppOptions(
        call=ToolCallRequest("wait_forever", {}),
        traffic_log=log,
        stderr_log=tmp_path / "stderr.log",
    )
    app = McpTuiApp([spec], options)
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        assert session is not None
        await wait_for(pilot, lambda: sent(log, "tasks/get"), "the task polled")
        await wait_for(pilot, lambda: session.calls.cancellable, "the call in the running panel")
        await pilot.press("c")
        [cancel] = await wait_for(pilot, lambda: sent(log, "tasks/cancel"), "tasks/cancel")

        def shown() -> str:
            return "\n".join(e.full for e in session.areas.transcript.entries)

        await wait_for(pilot, lambda: "cancelled by you" in shown(), "the cancelled mark")
        await quit_app(pilot)
    [created] = [m["result"] for m in _messages(log, "in") if is_task(m.get("result"))]
    assert cancel["params"]["taskId"] == created["taskId"]


def test_over_streamable_http_task_requests_carry_the_task_id_in_mcp_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The extension's HTTP binding: ``tasks/get``, ``tasks/update`` and ``tasks/cancel`` MUST
    carry ``Mcp-Name: <taskId>`` so intermediaries can route them to the task's instance."""
    from tests.interop.interop_peers import NodeServer, free_port

    headers = tmp_path / "headers.jsonl"
    answers = tmp_path / "answers.json"
    answers.write_text('{"answers": [{"action": "accept", "content": {"confirm": false}}]}')
    port = free_port()
    env = {"PORT": str(port), "HEADERS_LOG": str(headers)}
    server = NodeServer(command(), port, tmp_path / "server.log", env=env)
    server.start()
    try:
        log = tmp_path / "traffic.jsonl"
        argv = ["call", "confirm_delete", "--args", '{"filename": "c.txt"}', "--mode", "2026-07-28"]
        argv += ["--answers", str(answers), "--log", str(log), server.url]
        code = cli.main(argv)
    finally:
        server.stop()
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "Kept 'c.txt' (accept)"), err
    [created] = [m["result"] for m in _messages(log, "in") if is_task(m.get("result"))]
    routed = [json.loads(line) for line in headers.read_text().splitlines()]
    tasks = [h for h in routed if (h["mcp-method"] or "").startswith("tasks/")]
    assert {h["mcp-method"] for h in tasks} == {"tasks/get", "tasks/update"}
    assert all(h["mcp-name"] == created["taskId"] for h in tasks)
