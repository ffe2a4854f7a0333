"""``--record FILE`` and the "Save as a test" dialog's refusals, with fake connections.

Every call that finishes is appended as a case (a cancelled one is not, and the transcript says
why); a file name ``mcp-tui test`` would not find is refused in the dialog, which stays open with
what was typed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from app_testkit import make_app, mounted_screen, session_of, transcript_text, wait_until
from fake_connection import FakeConnection, Script
from textual.widgets import Input, Static

from mcp_tui.config.options import AppOptions
from mcp_tui.session.events import CallOutcome, ConnectionState, ContentItem
from mcp_tui.testbench.load import load_test_file
from mcp_tui.ui.screens.save_test import SaveTestScreen

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


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
            lambda: "#2 not saved: a call you cancelled" in transcript_text(app), pilot=pilot
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
