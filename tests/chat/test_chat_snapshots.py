"""Snapshots of the chat screen at 80x24 and 120x40: a reply, a tool call waiting for approval,
and a finished call with its result. The model is the provider library's offline test model;
the server is the session snapshots' fake weather server.

Update with ``pytest tests/chat/test_chat_snapshots.py --snapshot-update`` and look at the SVGs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel
from textual.pilot import Pilot

from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.chat_screen import ChatScreen
from mcp_tui.ui.widgets.chat_blocks import ToolBlock
from tests.ui.app_testkit import mounted_screen, wait_for
from tests.ui.screens.test_session_snapshots import make_session_app

SMALL = (80, 24)
LARGE = (120, 40)
SnapCompare = Callable[..., bool]


async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    """Calls ``forecast`` for Lisbon, then sums up what the tool said."""
    results = [p for p in messages[-1].parts if isinstance(p, ToolReturnPart)]
    if results:
        yield "Lisbon: sunny on Monday (18°C), rain on Tuesday, clouds on Wednesday."
        return
    yield "Let me look that up."
    args = '{"city": "Lisbon", "days": 3}'
    yield {1: DeltaToolCall(name="weather__forecast", json_args=args, tool_call_id="c1")}


def chat_app(tmp_path: Path) -> McpTuiApp:
    return make_session_app(
        ChatSettings(provider="openai-compatible", base_url="http://127.0.0.1:9/v1", model="m")
    )


async def open_chat(pilot: Pilot[None], *, approve: bool) -> None:
    app = pilot.app
    assert isinstance(app, McpTuiApp)
    await wait_for(pilot, lambda: app.entries["weather"].state is ConnectionState.READY)
    await wait_for(pilot, lambda: app.session is not None and app.session.areas.panels_ready)
    await pilot.press("m")
    await wait_for(pilot, lambda: mounted_screen(app, ChatScreen) is not None, timeout=90)
    chat = app.screen
    assert isinstance(chat, ChatScreen)
    chat._model = FunctionModel(stream_function=stream)
    # A steady cursor: a blinking one is drawn or not depending on how long the steps took.
    chat.query_one("#chat-input").cursor_blink = False  # type: ignore[attr-defined]
    chat.query_one("#chat-input").value = "What is the weather in Lisbon this week?"  # type: ignore[attr-defined]
    await pilot.press("enter")
    await wait_for(
        pilot, lambda: any(b.has_class("-asking") for b in chat.query(ToolBlock)), timeout=90
    )
    if approve:
        await pilot.press("y")
        await wait_for(pilot, lambda: not chat.generating, timeout=90)
        await wait_for(pilot, lambda: all(b.result for b in chat.query(ToolBlock)))
    await pilot.wait_for_scheduled_animations()


@pytest.mark.parametrize("approve", [False, True], ids=["waiting", "answered"])
@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_a_tool_call(
    snap_compare: SnapCompare,
    size: tuple[int, int],
    approve: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Waiting for approval, then (answered) its result and the model's reply."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def run(pilot: Pilot[None]) -> None:
        await open_chat(pilot, approve=approve)

    assert snap_compare(chat_app(tmp_path), terminal_size=size, run_before=run)
