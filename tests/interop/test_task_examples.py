"""Tasks through mcp-tui (issue 17): the TypeScript SDK's ``simpleTaskInteractive.js`` and
server-everything's ``simulate-research-query``.

Its two tools have ``execution.taskSupport: "required"``: a plain ``tools/call`` fails. mcp-tui
calls them as tasks (``session/tasks.py``): the ``CreateTaskResult``, ``tasks/result`` held open
while the server asks for a form (``confirm_delete``) or a sampling reply (``write_haiku``) with
the task's related-task metadata, ``tasks/get`` polled for the status, then the tool's result.
Headless with an answers file, and through the real TUI with Pilot. The server listens on
127.0.0.1 (``PORT``) and is stopped by each test.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import TextArea

from mcp_tui.cli import main as cli
from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from tests.interop.interop_peers import SDK_EXAMPLES, NodeServer, node_http_server
from tests.interop.tui_driver import _messages, press_on, quit_app, wait_for
from tests.waits import mounted_screen

pytestmark = [pytest.mark.interop]

INTERACTIVE_JS = SDK_EXAMPLES / "server" / "simpleTaskInteractive.js"


@pytest.fixture
def tasks_server(peers: None, tmp_path: Path) -> Iterator[NodeServer]:
    with node_http_server(INTERACTIVE_JS, tmp_path / "tasks-server.log") as server:
        yield server


def sent_methods(log: Path) -> list[str]:
    return [str(m.get("method")) for m in _messages(log, "out") if "method" in m]


def test_headless_form_and_sampling_inside_tasks(
    tasks_server: NodeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(
        json.dumps(
            {
                "answers": [
                    {"action": "accept", "content": {"confirm": True}},
                    {"sampling": {"text": "Old pond, a frog jumps"}},
                ]
            }
        ),
        encoding="utf-8",
    )
    log = tmp_path / "traffic.jsonl"
    common = ["--answers", str(answers), "--mode", "legacy", "--log", str(log), "-q"]
    code = cli.main(
        ["call", "confirm_delete", "--args", '{"filename": "a.txt"}', *common, tasks_server.url]
    )
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "Deleted 'a.txt'"), err
    assert "confirm_delete runs as task" in err
    code = cli.main(
        ["call", "write_haiku", "--args", '{"topic": "frogs"}', *common, tasks_server.url]
    )
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "Haiku:\nOld pond, a frog jumps"), err
    methods = sent_methods(log)
    assert methods.count("tasks/result") == 2
    calls = [m for m in _messages(log, "out") if m.get("method") == "tools/call"]
    assert all("task" in c["params"] for c in calls)


def test_without_answers_the_form_is_cancelled_and_the_task_still_ends(
    tasks_server: NodeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(
        ["call", "confirm_delete", "--mode", "legacy", "-q", "--timeout", "60", tasks_server.url]
    )
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "Deletion cancelled"), err


@pytest.mark.anyio
async def test_tui_answers_the_task_form_and_shows_the_result(
    tasks_server: NodeServer, tmp_path: Path, anyio_backend: str
) -> None:
    log = tmp_path / "traffic.jsonl"
    spec = ServerSpec("tasks", HttpTarget(tasks_server.url), mode="legacy")
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
        headers = await wait_for(pilot, lambda: screen.query("#elicitation-header"), "a header")
        header = str(headers.first().render())
        assert f"during tool call confirm_delete (task {screen.request.related_task})" in header
        assert screen.request.related_task
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
    assert "tasks/result" in sent_methods(log)


@pytest.mark.anyio
async def test_tui_writes_the_sampling_reply_of_a_task(
    tasks_server: NodeServer, tmp_path: Path, anyio_backend: str
) -> None:
    spec = ServerSpec("tasks", HttpTarget(tasks_server.url), mode="legacy")
    options = AppOptions(call=ToolCallRequest("write_haiku", {"topic": "rain"}))
    app = McpTuiApp([spec], options)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, SamplingScreen) and app.screen, "the review"
        )
        assert screen.request.related_task is not None
        await wait_for(
            pilot,
            lambda: isinstance(app.focused, TextArea) and app.focused.screen is screen,
            "the reply box focused",
        )
        await pilot.press(*"Soft rain")
        await pilot.press("ctrl+s")
        session = app.session
        assert session is not None
        await wait_for(
            pilot,
            lambda: (
                session.areas.panels_ready
                and any("Haiku:\nSoft rain" in e.full for e in session.areas.transcript.entries)
            ),
            "the haiku in the transcript",
        )
        await quit_app(pilot)


# ---- server-everything's task tool ---------------------------------------------------------------

RESEARCH = "simulate-research-query"


@pytest.mark.anyio
async def test_everything_research_task_asks_then_completes(
    peers: None, tmp_path: Path, anyio_backend: str
) -> None:
    from tests.interop.test_everything_features_tui import build_app, sent, transcript

    log = tmp_path / "traffic.jsonl"
    app = build_app(tmp_path, ToolCallRequest(RESEARCH, {"topic": "python", "ambiguous": True}))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationScreen) and app.screen, "the form"
        )
        assert "could have multiple interpretations" in screen.request.message
        await press_on(pilot, "interpretation", "enter", "down", "enter")  # the first one
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "Research Report" in transcript(app), "the report")
        shown = transcript(app)
        assert "runs as task" in shown and "task input_required" in shown
        await quit_app(pilot)
    assert sent(log, "tasks/get") and sent(log, "tasks/result")


@pytest.mark.anyio
async def test_cancelling_a_task_call_sends_tasks_cancel(
    peers: None, tmp_path: Path, anyio_backend: str
) -> None:
    from tests.interop.test_everything_features_tui import build_app, sent, transcript

    log = tmp_path / "traffic.jsonl"
    app = build_app(tmp_path, ToolCallRequest(RESEARCH, {"topic": "rust"}))
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        assert session is not None
        await wait_for(pilot, lambda: sent(log, "tasks/result"), "the task running")
        await wait_for(pilot, lambda: session.calls.cancellable, "the call in the running panel")
        await pilot.press("c")
        await wait_for(pilot, lambda: "cancelled by you" in transcript(app), "the cancelled mark")
        [cancel] = await wait_for(pilot, lambda: sent(log, "tasks/cancel"), "tasks/cancel")
        await quit_app(pilot)
    [call] = [m for m in _messages(log, "in") if m.get("result", {}).get("task")]
    assert cancel["params"] == {"taskId": call["result"]["task"]["taskId"]}
    answers = [m for m in _messages(log, "in") if m.get("id") == cancel["id"]]
    assert answers and answers[0]["result"]["status"] == "cancelled"


# ---- the SDK behaviour worked around (``sdk_workarounds`` 5) ------------------------------------


def _task_call() -> object:
    import mcp_types as types

    return types.CallToolRequest(
        params=types.CallToolRequestParams(
            name="confirm_delete", arguments={"filename": "x"}, task=types.TaskMetadata()
        )
    )


@pytest.mark.anyio
async def test_sdk_still_rejects_a_task_result_for_tools_call(
    tasks_server: NodeServer, anyio_backend: str
) -> None:
    import mcp_types as types
    from mcp import Client
    from pydantic import ValidationError

    async with Client(tasks_server.url, mode="legacy") as client:
        with pytest.raises(ValidationError, match="content"):
            await client.session.send_request(_task_call(), types.CreateTaskResult)  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_send_task_call_returns_the_created_task(
    tasks_server: NodeServer, anyio_backend: str
) -> None:
    from mcp import Client

    from mcp_tui.session.sdk_workarounds import send_task_call

    async with Client(tasks_server.url, mode="legacy") as client:
        created = await send_task_call(client.session, _task_call())
    assert created.task.status in ("working", "input_required") and created.task.task_id


# ---- a tool whose taskSupport is optional: the person (or --task) chooses ------------------------

OPTIONAL_JS = Path(__file__).resolve().parent / "servers" / "optional_task_server.mjs"


def optional_spec() -> ServerSpec:
    from mcp_tui.config.servers import StdioTarget
    from tests.interop.interop_peers import NODE

    return ServerSpec("opt", StdioTarget(str(NODE), (str(OPTIONAL_JS),)), mode="legacy")


def task_params(log: Path) -> list[object]:
    return [
        m["params"].get("task") for m in _messages(log, "out") if m.get("method") == "tools/call"
    ]


@pytest.mark.parametrize(("flag", "as_task"), [([], False), (["--task"], True)])
def test_call_task_flag_for_an_optional_tool(
    peers: None, tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: list[str], as_task: bool
) -> None:
    from tests.interop.interop_peers import NODE

    log = tmp_path / "traffic.jsonl"
    argv = ["call", "count", "--args", '{"n": 2}', "--mode", "legacy", "--log", str(log), *flag]
    code = cli.main([*argv, "--", str(NODE), str(OPTIONAL_JS)])
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "counted to 2 as a task"), err
    assert task_params(log) == ([{}] if as_task else [None])
    assert ("runs as task" in err) is as_task


@pytest.mark.anyio
async def test_tui_runs_an_optional_tool_as_a_task_when_ticked(
    peers: None, tmp_path: Path, anyio_backend: str
) -> None:
    from textual.widgets import Checkbox

    from mcp_tui.ui.screens.arguments import ArgumentsScreen

    log = tmp_path / "traffic.jsonl"
    app = McpTuiApp([optional_spec()], AppOptions(traffic_log=log))
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        assert session is not None
        entry = app.entries["opt"]
        await wait_for(pilot, lambda: entry.tools and session.areas.panels_ready, "the tools")
        app.call_later(session.forms.open_tool, "opt", "count")
        screen = await wait_for(
            pilot, lambda: mounted_screen(app, ArgumentsScreen), "the form and its widgets"
        )
        box = screen.query_one("#arguments-task", Checkbox)
        box.focus()
        await pilot.press("space")
        assert screen.as_task
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: any("runs as task" in e.full for e in session.areas.transcript.entries),
            "the task notice",
        )
        await wait_for(
            pilot,
            lambda: any(
                "counted to 3 as a task" in e.full for e in session.areas.transcript.entries
            ),
            "the result",
        )
        await quit_app(pilot)
    assert task_params(log) == [{}]


@pytest.mark.anyio
async def test_the_tasks_verb_lists_the_servers_tasks(
    peers: None, tmp_path: Path, anyio_backend: str
) -> None:
    from mcp_tui.ui.app.commands import verbs
    from tests.interop.test_everything_features_tui import build_app, sent, transcript

    log = tmp_path / "traffic.jsonl"
    app = build_app(tmp_path, ToolCallRequest(RESEARCH, {"topic": "go"}))
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        assert session is not None
        await wait_for(
            pilot,
            lambda: session.areas.panels_ready and "Research Report" in transcript(app),
            "the report",
        )
        [verb] = [v for v in verbs(app, session) if v.verb == "Tasks"]
        app.call_later(verb.run)
        await wait_for(pilot, lambda: "tasks/list: 1 task" in transcript(app), "the list")
        [created] = [m for m in _messages(log, "in") if (m.get("result") or {}).get("task")]
        task_id = created["result"]["task"]["taskId"]
        assert f"{task_id}  completed" in transcript(app)
        await quit_app(pilot)
    assert sent(log, "tasks/list")
