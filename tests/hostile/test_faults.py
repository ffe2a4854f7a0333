"""Faults: a server that dies, withdraws, floods, repeats ids, asks too early or never answers.

Each test runs the real app on a scripted ``raw_server.py`` and checks what the user is told and
that keys still work afterwards.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.hostile.hostile_kit import (
    HostileServer,
    assert_answers_keys,
    done,
    ready,
    session_of,
    transcript_text,
    wait_for,
)

pytestmark = pytest.mark.anyio

HTTP_EXIT_SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "http_exit_server.py"

NOTE_FORM = {
    "message": "Tell me something",
    "requestedSchema": {"type": "object", "properties": {"note": {"type": "string"}}},
}
CONFIRM = {"message": "Sure?", "requestedSchema": {"type": "object", "properties": {}}}

TOOLS = [
    {"name": name, "inputSchema": {"type": "object", "properties": {}}}
    for name in ("ask", "die", "withdraw", "slow")
]


def asking_script(**extra: Any) -> dict[str, Any]:
    """``ask`` opens a form and waits for its answer; the other tools break things meanwhile."""
    script: dict[str, Any] = {
        "tools": TOOLS,
        "on_call": {
            "ask": [{"elicit": NOTE_FORM, "id": "q1"}, {"await": "q1"}],
            "die": [{"stderr": "dying now"}, {"exit": 7}],
            "withdraw": [{"cancel": "q1", "reason": "changed my mind"}],
        },
        "results": {"ask": {"result_from": "q1"}, "slow": {"never": True}},
    }
    script.update(extra)
    return script


async def open_form(pilot: Any, app: Any, text: str) -> ElicitationScreen:
    await ready(pilot, app)
    await wait_for(pilot, lambda: bool(app.entries["evil"].tools), 20)
    session_of(app).calls.call_tool("evil", "ask", {})
    await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 30)
    screen = app.screen
    assert isinstance(screen, ElicitationScreen)
    await wait_for(pilot, done(lambda: isinstance(app.focused, Input)), 10)
    await pilot.press(*text)
    return screen


async def test_server_exits_while_a_form_is_open(tmp_path: Path) -> None:
    server = HostileServer(tmp_path, asking_script())
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_form(pilot, app, "half typed")
        session_of(app).calls.call_tool("evil", "die", {})
        await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationScreen), 30)
        await wait_for(pilot, lambda: app.entries["evil"].state is ConnectionState.FAILED, 30)
        await wait_for(pilot, lambda: "half typed" in transcript_text(app), 10)
        text = transcript_text(app)
        assert "what you typed" in text
        assert "The server exited with status" in text and "dying now" in text
        await assert_answers_keys(pilot, app)
        assert any("withdrawn" in str(n.message) for n in app._notifications)
    assert server.alive() == []


async def test_http_server_exits_while_a_form_is_open(tmp_path: Path) -> None:
    """Over Streamable HTTP as over stdio: the form closes at once and what was typed is kept
    (the call's stream ends; HTTP has no end of the connection to notice)."""
    process = subprocess.Popen(
        [sys.executable, str(HTTP_EXIT_SERVER)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline().split()[1])
        spec = ServerSpec("web", HttpTarget(f"http://127.0.0.1:{port}/mcp"), mode="legacy")
        app = McpTuiApp([spec], AppOptions(stderr_log=tmp_path / "stderr.log"))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: app.entries["web"].state is ConnectionState.READY, 90)
            await wait_for(pilot, lambda: bool(app.entries["web"].tools), 50)
            session_of(app).calls.call_tool("web", "ask", {})
            await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 50)
            await wait_for(pilot, done(lambda: isinstance(app.focused, Input)), 10)
            await pilot.press(*"half typed")
            process.kill()
            await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationScreen), 30)
            await wait_for(pilot, lambda: "half typed" in transcript_text(app), 10)
            assert "what you typed" in transcript_text(app)
            await wait_for(pilot, lambda: "SSE stream ended" in transcript_text(app), 30)
            assert any("withdrawn" in str(n.message) for n in app._notifications)
            await assert_answers_keys(pilot, app)
    finally:
        process.kill()
        process.wait()


async def test_server_cancels_the_request(tmp_path: Path) -> None:
    server = HostileServer(tmp_path, asking_script())
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_form(pilot, app, "kept text")
        session_of(app).calls.call_tool("evil", "withdraw", {})
        await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationScreen), 30)
        await wait_for(pilot, lambda: "kept text" in transcript_text(app), 10)
        assert "cancelled" in transcript_text(app)
        assert app.entries["evil"].state is ConnectionState.READY
        await assert_answers_keys(pilot, app)
        # The withdrawn request got no answer: the server is told nothing more about it.
        assert "q1" not in server.responses()
        # A call still runs: Ctrl+Q asks first, and a second Ctrl+Q answers "quit".
        await pilot.press("ctrl+q", "ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, 50)
    assert server.alive() == []


async def test_a_flood_of_200_elicitations_is_bounded_with_one_notice(tmp_path: Path) -> None:
    script = {"on_initialized": [{"elicit": CONFIRM, "id": "f", "count": 200}]}
    server = HostileServer(tmp_path, script)
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 50)
        # All but the admitted few are cancelled at once, without waiting for the user.
        await wait_for(pilot, lambda: len(server.responses()) >= 190, 50)
        answers = server.responses()
        assert all(r[0]["result"]["action"] == "cancel" for r in answers.values())
        screen = app.screen
        assert isinstance(screen, ElicitationScreen)
        assert 0 < screen.header.waiting < 20
        await wait_for(pilot, lambda: "cancelled automatically" in transcript_text(app), 10)
        entries = session_of(app).areas.transcript.entries
        flood_notices = [e for e in entries if "within" in e.full and e.kind == "notice"]
        assert len(flood_notices) == 1, [e.full for e in flood_notices]
        # Escape answers each admitted form in turn; the queue drains and the app is still live.
        for _ in range(screen.header.waiting + 1):
            await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 10)
            answered = app.screen
            await pilot.press("escape")
            await wait_for(pilot, lambda s=answered: app.screen is not s, 10)  # type: ignore[misc]
        await wait_for(pilot, lambda: not isinstance(app.screen, ElicitationScreen), 10)
        await wait_for(pilot, lambda: len(server.responses()) == 200, 30)
        assert app.entries["evil"].paused  # the rate limit paused asking; the user may resume
        await assert_answers_keys(pilot, app)


async def test_two_requests_with_the_same_id(tmp_path: Path) -> None:
    first = {**CONFIRM, "message": "first question"}
    second = {**CONFIRM, "message": "second question"}
    script = {"on_initialized": [{"elicit": first, "id": "same"}, {"elicit": second, "id": "same"}]}
    server = HostileServer(tmp_path, script)
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 50)
        await wait_for(pilot, lambda: "second request with the id 'same'" in transcript_text(app))
        # The form's own transcript line is written once the form has painted (it may follow).
        await wait_for(pilot, lambda: "first question" in transcript_text(app))
        # The duplicate was refused at once with a notice; the first is still on screen.
        replies = server.responses()["same"]
        assert len(replies) == 1 and replies[0]["error"]["code"] == -32600
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(server.responses()["same"]) == 2, 20)
        assert server.responses()["same"][1]["result"] == {"action": "accept", "content": {}}
        await assert_answers_keys(pilot, app)


async def test_elicitation_before_initialization_finished(tmp_path: Path) -> None:
    script = {"on_initialize": [{"elicit": NOTE_FORM, "id": "early"}, {"await": "early"}]}
    server = HostileServer(tmp_path, script)
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: "before the handshake" in transcript_text(app), 20)
        assert not isinstance(app.screen, ElicitationScreen)
        assert server.responses()["early"][0]["result"]["action"] == "cancel"
        await assert_answers_keys(pilot, app)


async def test_malformed_lines_and_non_json_on_stdout(tmp_path: Path) -> None:
    junk = [
        "this is not json \x1b]0;pwned\x07",
        '{"jsonrpc": "2.0", "method": 5}',
        "[1, 2",
        '{"jsonrpc": "2.0", "id": 4242, "result": {}}',
        "\x00\x01\x02",
        '{"jsonrpc": "1.0", "id": 1, "method": "ping"}',
    ]
    script = {"tools": TOOLS, "on_initialized": [{"raw": line} for line in junk]}
    server = HostileServer(tmp_path, script)
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        # The lines arrive in order but are told as they are read: wait for the last one's notice
        # (a count of notices was reached before it under load, other lines giving more than one).
        last = '(JSON that is not a JSON-RPC 2.0 message): {"jsonrpc": "1.0"'
        await wait_for(pilot, lambda: last in transcript_text(app), 30)
        text = transcript_text(app)
        assert "(a line that is not JSON): this is not json \\e]0;pwned\\x07" in text
        assert "(a line that is not JSON): \\x00\\x01\\x02" in text
        assert text.count("not a JSON-RPC") >= 5, text
        assert "\x1b" not in text and "pydantic" not in text
        # The connection survived: a tool call still works.
        session_of(app).calls.call_tool("evil", "hello", {"name": "again"})
        await wait_for(pilot, lambda: "hello again" in transcript_text(app), 30)
        assert app.entries["evil"].state is ConnectionState.READY
        await assert_answers_keys(pilot, app)


@pytest.mark.parametrize(
    ("action", "what"),
    [({"big_line": 33 * 1024 * 1024}, "one enormous message"), ({"stdout_bytes": -1}, "endless")],
)
async def test_enormous_message_or_endless_line_closes_with_a_clear_error(
    tmp_path: Path, action: dict[str, Any], what: str
) -> None:
    import resource

    server = HostileServer(tmp_path, {"on_initialized": [{"sleep": 0.2}, action]})
    app = server.app()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["evil"].state is ConnectionState.FAILED, 90)
        detail = app.entries["evil"].detail or ""
        assert "larger than 32 MiB" in detail, detail
        await wait_for(pilot, lambda: "larger than 32 MiB" in transcript_text(app), 10)
        await assert_answers_keys(pilot, app)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mib < 150, f"{what}: the client grew by {grown_mib:.0f} MiB"
    assert server.alive() == []


async def test_an_answer_the_dead_connection_could_not_take_is_shown_to_copy(
    tmp_path: Path,
) -> None:
    # The server stops reading (stdin closed, stdout still open) while the form is open: the
    # answer's write fails with a broken pipe, and the user sees exactly what they sent.
    script = {
        "on_initialized": [{"close_stdin": True}, {"elicit": NOTE_FORM, "id": "q"}, {"sleep": 30}]
    }
    server = HostileServer(tmp_path, script)
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 50)
        await wait_for(pilot, done(lambda: isinstance(app.focused, Input)), 10)
        await pilot.press(*"typed text")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "NOT delivered" in transcript_text(app, full=True), 30)
        full = transcript_text(app, full=True)
        assert '{"note": "typed text"}' in full
        assert "writing to the server failed" in full
        await wait_for(pilot, lambda: app.entries["evil"].state is ConnectionState.FAILED, 30)
        assert "Writing to the server failed" in (app.entries["evil"].detail or "")
        assert not isinstance(app.screen, ElicitationScreen)
        await assert_answers_keys(pilot, app)
    assert server.alive() == []
