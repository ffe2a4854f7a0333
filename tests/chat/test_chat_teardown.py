"""A reply that goes on streaming while the chat screen is taken down never touches its widgets.

The turn runs in a worker of the chat screen, which Textual cancels only once the screen's widgets
are gone (``ui/closing.py``). The model here pauses mid-reply until that window (the chat
screen's ``Unmount``: every child removed), then sends more text or a tool call; the screen must
drop it rather than query a log that is no longer there. The model is the provider library's
offline test model; the server is the app tests' fake.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel
from textual.css.query import NoMatches
from textual.worker import WorkerState

from mcp_tui.chat.conversation import ChatEvent, TextDelta, ToolCallProposed, TurnEnded
from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.config.options import AppOptions
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.screens.chat_screen import ChatScreen
from tests.ui.app_testkit import make_app, mounted_screen, wait_for, wait_until

pytestmark = pytest.mark.anyio


def _gone(chat: ChatScreen) -> bool:
    try:
        chat.query_one("#chat-log")
    except NoMatches:
        return True
    return False


@pytest.mark.parametrize("then", ["text", "tool call"])
async def test_a_reply_arriving_while_the_chat_closes_is_dropped(
    then: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    more = asyncio.Event()

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        yield "The first words"
        await more.wait()
        if then == "text":
            yield " and the rest, once the screen is going."
        else:
            call = DeltaToolCall(name="demo__echo", json_args='{"text": "hi"}', tool_call_id="c")
            yield {1: call}

    seen: list[ChatEvent] = []
    errors: list[BaseException] = []
    on_event = ChatScreen._on_event

    def recorded(self: ChatScreen, event: ChatEvent) -> None:
        try:
            on_event(self, event)
        except Exception as error:  # reported below
            errors.append(error)
            raise
        finally:
            seen.append(event)

    monkeypatch.setattr(ChatScreen, "_on_event", recorded)
    arrived: list[bool] = []

    async def in_the_window(self: ChatScreen) -> None:
        assert _gone(self)
        before = len(seen)
        more.set()
        wanted = TextDelta if then == "text" else ToolCallProposed

        def came() -> bool:
            return any(isinstance(e, wanted) for e in seen[before:])

        turn = self._turn
        assert turn is not None
        await wait_until(
            lambda: came() or turn.is_finished, message="the model's last part never arrived"
        )
        arrived.append(came())

    settings = ChatSettings(provider="openai-compatible", base_url="http://127.0.0.1:9/", model="m")
    app, _ = make_app(options=AppOptions(chat=settings))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_for(pilot, lambda: app.session is not None and app.session.areas.panels_ready)
        await pilot.press("m")
        await wait_for(pilot, lambda: mounted_screen(app, ChatScreen) is not None, timeout=90)
        chat = app.screen
        assert isinstance(chat, ChatScreen)
        chat._model = FunctionModel(stream_function=stream)
        chat.query_one("#chat-input").value = "Hello"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(isinstance(e, TextDelta) for e in seen), timeout=90)
        monkeypatch.setattr(ChatScreen, "on_unmount", in_the_window, raising=False)
    assert arrived == [True], "the model's last part did not arrive in the teardown window"
    assert errors == []
    # Done, or cancelled with the screen (the tool call never asked about); not an error.
    ends = [e for e in seen if isinstance(e, TurnEnded)]
    assert [e.status for e in ends] == ["done" if then == "text" else "stopped"], ends
    assert chat._turn is not None and chat._turn.state is not WorkerState.ERROR, chat._turn.error
