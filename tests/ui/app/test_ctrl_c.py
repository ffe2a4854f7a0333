"""Ctrl+C in the TUI (issue 28, item 13): it cancels the running call, or asks to quit like
Ctrl+Q; Ctrl+Q asks first while a call runs. Fake connections, real keys."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from mcp_tui.session.events import CallOutcome, ConnectionState, ContentItem
from mcp_tui.ui.screens.confirm import ConfirmScreen
from tests.ui.app_testkit import Script, make_app, session_of, wait_for

pytestmark = pytest.mark.anyio


def slow_tool(release: asyncio.Event) -> Any:
    async def run(_conn: Any, _args: Any, _call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text="done"),))

    return run


def _footer_keys(app: Any) -> dict[str, str]:
    return {b.binding.key: b.binding.description for b in app.active_bindings.values() if b.enabled}


async def test_ctrl_c_cancels_the_running_call_then_asks_to_quit() -> None:
    release = asyncio.Event()
    app, factory = make_app({"demo": Script(results={"echo": slow_tool(release)})})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        call_id = session.calls.call_tool("demo", "echo", {"text": "a"})
        await wait_for(pilot, lambda: factory.latest("demo").in_flight == {call_id})
        assert _footer_keys(app).get("ctrl+c") == "Cancel call"
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: factory.latest("demo").cancelled == [call_id])
        release.set()  # the fake server stops, as a real one does when told
        await wait_for(pilot, lambda: not session.calls.cancellable)
        assert _footer_keys(app).get("ctrl+c") == "Quit"
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert app.is_running


async def test_ctrl_q_with_a_call_running_asks_first() -> None:
    release = asyncio.Event()
    app, factory = make_app({"demo": Script(results={"echo": slow_tool(release)})})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        call_id = session.calls.call_tool("demo", "echo", {"text": "a"})
        await wait_for(pilot, lambda: factory.latest("demo").in_flight == {call_id})
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "1 call is running" in app.screen._question  # type: ignore[attr-defined]
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert app.is_running and session.calls.cancellable
        release.set()
