"""End to end: a real MCP server (stdio fixture) asks, the real form answers, the server echoes.

The fixture server's tools send ``elicitation/create`` (2025-11-25) or return ``input_required``
(2026-07-28) and echo what they received as JSON, so these tests assert the exact content the
server got, types included, through the whole stack: SDK -> session bridge -> schema parser ->
TuiElicitationHandler -> ElicitationScreen -> keys.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import CallOutcome, SessionEvent
from mcp_tui.ui.app.elicitation_handler import TuiElicitationHandler
from mcp_tui.ui.messages import ElicitationFinished
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.waits import wait_until

SERVER = Path(__file__).resolve().parents[2] / "fixtures" / "elicit_server.py"
ERAS = ["legacy", "2026-07-28"]


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.finished: list[ElicitationFinished] = []

    def on_elicitation_finished(self, message: ElicitationFinished) -> None:
        self.finished.append(message)


@asynccontextmanager
async def session(app: Host, mode: str) -> AsyncIterator[Any]:
    """A ``ServerConnection`` to the stdio fixture whose elicitation handler is the real TUI one."""
    from mcp_tui.session.connection import ServerConnection

    events: list[SessionEvent] = []
    spec = ServerSpec(
        "fixture",
        StdioTarget(sys.executable, (str(SERVER),)),
        mode=mode,  # type: ignore[arg-type]
    )
    conn = ServerConnection(spec, handler=TuiElicitationHandler(app), sink=events.append)
    runner = asyncio.create_task(conn.run())
    try:
        assert await conn.wait_ready(30), f"not ready: {conn.state} {conn.detail}"
        yield conn
    finally:
        await conn.close()
        await asyncio.wait_for(runner, 15)


async def until(pilot: Pilot[None], condition: Callable[[], bool], timeout: float = 15) -> None:
    await wait_until(condition, timeout, pilot=pilot)


async def open_form(pilot: Pilot[None], app: Host) -> ElicitationScreen:
    await until(pilot, lambda: isinstance(app.screen, ElicitationScreen))
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ElicitationScreen)
    return screen


def echoed(outcome: CallOutcome) -> dict[str, Any]:
    assert outcome.error is None, outcome.error
    text = outcome.items[0].text
    assert text is not None
    result: dict[str, Any] = json.loads(text)
    return result


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_every_field_kind_reaches_the_server_exactly(mode: str) -> None:
    app = Host()
    async with app.run_test(size=(100, 40)) as pilot, session(app, mode) as conn:
        call = asyncio.create_task(conn.call_tool("all_fields", {}))
        screen = await open_form(pilot, app)
        request: ElicitationRequest = screen.request
        assert request.server == "fixture" and request.tool == "all_fields"
        # name: keep the default "Ada"; age: required, empty -> the form is not sent.
        await pilot.press("tab", "ctrl+s")
        await pilot.pause()
        assert not call.done() and isinstance(app.screen, ElicitationScreen)
        assert app.focused is not None and app.focused.id == "field-1-control"
        await pilot.press(*"36", "tab")  # ratio: keep default 0.5
        await pilot.press("tab", "space")  # subscribe: true -> false
        await pilot.press("tab", "enter", "down", "down", "down", "enter")  # color: blue
        await pilot.pause()
        await pilot.press("tab", "space", "down", "down", "space")  # tags: a, c
        await pilot.press("ctrl+s")
        got = echoed(await asyncio.wait_for(call, 15))
    assert got["action"] == "accept"
    assert got["content"] == {
        "name": "Ada",
        "age": 36,
        "ratio": 0.5,
        "subscribe": False,
        "color": "blue",
        "tags": ["a", "c"],
    }
    assert type(got["content"]["age"]) is int
    assert type(got["content"]["ratio"]) is float
    assert [m.outcome.action for m in app.finished] == ["accept"]


@pytest.mark.anyio
@pytest.mark.parametrize(("key", "action"), [("ctrl+r", "decline"), ("escape", "cancel")])
async def test_decline_and_cancel_reach_the_server(key: str, action: str) -> None:
    app = Host()
    async with app.run_test(size=(100, 40)) as pilot, session(app, "legacy") as conn:
        call = asyncio.create_task(conn.call_tool("all_fields", {}))
        await open_form(pilot, app)
        await pilot.press(*"typed", key)
        if key == "escape":  # something was typed: Escape asks first, y confirms
            await wait_until(
                lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot, message="the question"
            )
            await pilot.press("y")
        got = echoed(await asyncio.wait_for(call, 15))
    assert got == {"action": action, "content": None}


@pytest.mark.anyio
async def test_confirmation_round_trip() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot, session(app, "legacy") as conn:
        call = asyncio.create_task(conn.call_tool("confirm", {}))
        screen = await open_form(pilot, app)
        assert screen.form is None
        await pilot.press("ctrl+s")
        got = echoed(await asyncio.wait_for(call, 15))
    assert got["action"] == "accept"
    assert got["content"] in ({}, None)


@pytest.mark.anyio
async def test_server_cancellation_closes_the_form_and_keeps_the_input() -> None:
    app = Host()
    async with app.run_test(size=(100, 40)) as pilot, session(app, "legacy") as conn:
        arguments = {"seconds": 60.0, "when_told": True}
        call = asyncio.create_task(conn.call_tool("server_gives_up", arguments))
        screen = await open_form(pilot, app)
        await pilot.press("tab", *"42")
        await until(pilot, lambda: screen.raw_text().get("age") == "42")
        # The server withdraws the form only now: a fixed 2 s could run out before the typing.
        assert not (await conn.call_tool("give_up_now")).error
        await until(pilot, lambda: not isinstance(app.screen, ElicitationScreen))
        outcome = await asyncio.wait_for(call, 15)
        await until(pilot, lambda: bool(app.finished))
    assert outcome.items[0].text == "gave up"
    finished = app.finished[0]
    assert finished.outcome.action == "cancel"
    assert finished.abandoned_input is not None
    assert finished.abandoned_input["age"] == "42"
