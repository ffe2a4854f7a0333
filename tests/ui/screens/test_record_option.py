"""``--record FILE`` and the "Save as a test" dialog's refusals, with fake connections.

Every call that finishes is appended as a case (a cancelled one is not, and the transcript says
why); a file name ``mcp-tui test`` would not find is refused in the dialog, which stays open with
what was typed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from mcp_tui.config.options import AppOptions
from mcp_tui.session.events import CallOutcome, ConnectionState, ContentItem
from mcp_tui.session.server_exit import CONNECTION_CLOSED, INTERRUPTED
from mcp_tui.testbench.load import load_test_file
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.save_test import SaveTestScreen
from tests.ui.app_testkit import make_app, mounted_screen, session_of, transcript_text, wait_until
from tests.ui.fixtures.fake_connection import FakeConnection, Script

pytestmark = pytest.mark.anyio


async def test_record_saves_every_finished_call_but_a_cancelled_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    release = asyncio.Event()

    async def slow(connection: FakeConnection, arguments: object, call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome(error="cancelled by the user", cancelled=True)

    script = Script(results={"nested": slow})
    record = tmp_path / "rec.mcptest.toml"
    options = AppOptions(stderr_log=Path("/var/log/x.log"), record=record)
    app, _ = make_app({"demo": script}, options=options)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        await wait_until(lambda: "--record: every call" in transcript_text(app), pilot=pilot)
        session.calls.call_tool("demo", "echo", {"text": "hi"})
        await wait_until(record.exists, pilot=pilot)
        session.calls.call_tool("demo", "nested", {"point": {"x": 1, "y": 2}})
        release.set()
        await wait_until(
            lambda: (
                "#2 not saved: it did not finish by itself (you cancelled it)"
                in transcript_text(app)
            ),
            pilot=pilot,
        )
        session.calls.call_tool("demo", "ping", {})
        await wait_until(lambda: len(load_test_file(record).model.case) == 2, pilot=pilot)
    cases = load_test_file(record).model.case
    assert [(c.name, c.tool, c.arguments) for c in cases] == [
        ("echo", "echo", {"text": "hi"}),
        ("ping", "ping", {}),
    ]
    assert cases[0].expect.text == "echo got {'text': 'hi'}"
    assert cases[0].expect.elicitation_count == 0


@pytest.mark.parametrize(
    "ended",
    [
        CallOutcome(error=INTERRUPTED, error_code=CONNECTION_CLOSED),  # a reconnect, a restart
        CallOutcome(  # the server lost mid-call (how it ended is known)
            error="the connection was lost: the server exited with status 1 during the call",
            error_code=CONNECTION_CLOSED,
            connection_lost=True,
        ),
    ],
    ids=["closed-under-it", "server-lost"],
)
async def test_record_saves_no_call_whose_connection_ended_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ended: CallOutcome
) -> None:
    """The session's rule (``ended_under``) decides, as for ``mcp-tui test``: the -32000 the SDK
    makes up for a closed stream is not the server's answer; one the server sends is."""
    monkeypatch.chdir(tmp_path)
    answered = CallOutcome(error="-32000 Server busy", error_code=CONNECTION_CLOSED)
    script = Script(results={"echo": ended, "ping": answered})
    record = tmp_path / "rec.mcptest.toml"
    app, _ = make_app({"demo": script}, options=AppOptions(record=record))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        session.calls.call_tool("demo", "echo", {"text": "hi"})
        await wait_until(
            lambda: (
                "#1 not saved: it did not finish by itself (its connection ended during it)"
                in transcript_text(app)
            ),
            pilot=pilot,
        )
        assert not record.exists()
        session.calls.call_tool("demo", "ping", {})
        await wait_until(record.exists, pilot=pilot)
    (case,) = load_test_file(record).model.case
    assert (case.tool, case.expect.outcome, case.expect.error_code) == ("ping", "error", -32000)


async def test_a_call_cancelled_by_ctrl_c_is_neither_recorded_nor_offered_as_a_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def until_cancelled(
        connection: FakeConnection, arguments: object, call_id: int
    ) -> CallOutcome:
        await wait_until(lambda: call_id in connection.cancelled)
        return CallOutcome(
            error="cancelled by you: notifications/cancelled was sent", cancelled=True
        )

    script = Script(results={"echo": until_cancelled})
    record = tmp_path / "rec.mcptest.toml"
    app, _ = make_app({"demo": script}, options=AppOptions(record=record))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        session.calls.call_tool("demo", "echo", {"text": "hi"})
        await wait_until(lambda: session.calls.cancellable, pilot=pilot)
        await pilot.press("ctrl+c")
        await wait_until(lambda: "#1 not saved" in transcript_text(app), pilot=pilot)
        await pilot.press("S")
        await wait_until(
            lambda: any(
                "#1 is not saved as a test: it did not finish by itself (you cancelled it)"
                in str(n.message)
                for n in app._notifications
            ),
            pilot=pilot,
        )
        assert not any(isinstance(s, SaveTestScreen) for s in app.screen_stack)
    assert not record.exists()


async def test_record_saves_no_call_that_ends_while_mcp_tui_quits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even one whose server answers as the connection closes: the quit stopped it."""
    monkeypatch.chdir(tmp_path)

    async def answers_on_close(
        connection: FakeConnection, arguments: object, call_id: int
    ) -> CallOutcome:
        await connection.closed.wait()
        return CallOutcome(items=(ContentItem("text", text="done"),))

    script = Script(results={"echo": answers_on_close})
    record = tmp_path / "rec.mcptest.toml"
    app, factory = make_app({"demo": script}, options=AppOptions(record=record))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        session.calls.call_tool("demo", "echo", {"text": "hi"})
        await pilot.press("ctrl+q")
        await wait_until(lambda: mounted_screen(app, ConfirmScreen), pilot=pilot)
        await pilot.press("y")
        await wait_until(lambda: not app.is_running, pilot=pilot)
    assert factory.latest("demo").close_count == 1
    assert not record.exists()


async def test_the_dialog_refuses_a_name_mcp_tui_test_would_not_find(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    script = Script(results={"echo": CallOutcome(items=(ContentItem("text", text="hi"),))})
    app, _ = make_app({"demo": script})
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        assert not session.check_action("save_as_test", ()), "nothing finished yet"
        session.calls.call_tool("demo", "echo", {"text": "hi"})
        await wait_until(lambda: session.calls.history.last_finished is not None, pilot=pilot)
        session.areas.catalog.focus()
        await pilot.press("S")
        dialog = await wait_until(lambda: mounted_screen(app, SaveTestScreen), pilot=pilot)
        path = dialog.query_one("#save-test-path", Input)
        assert path.value == str(Path("tests") / "mcp" / "demo.mcptest.toml")
        status = dialog.query_one("#save-test-status", Static)
        path.value = "tests/demo.toml"
        await wait_until(lambda: "tests/demo.toml is new" in str(status.render()), pilot=pilot)
        await pilot.press("ctrl+s")
        await wait_until(lambda: "Not saved" in str(status.render()), pilot=pilot)
        assert "*.mcptest.toml" in str(status.render())
        assert app.screen is dialog and path.value == "tests/demo.toml", "what was typed stays"
        path.value = "tests/demo.mcptest.toml"
        await wait_until(lambda: "demo.mcptest.toml is new" in str(status.render()), pilot=pilot)
        await pilot.press("ctrl+s")
        await wait_until(lambda: dialog not in app.screen_stack, pilot=pilot)
        (case,) = load_test_file(tmp_path / "tests" / "demo.mcptest.toml").model.case
        assert case.expect.text == "hi"
        # The dialog offers the file it saved to next time.
        await pilot.press("S")
        again = await wait_until(lambda: mounted_screen(app, SaveTestScreen), pilot=pilot)
        assert again.query_one("#save-test-path", Input).value == "tests/demo.mcptest.toml"
