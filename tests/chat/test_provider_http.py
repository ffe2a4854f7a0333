"""The OpenAI-compatible provider against a real HTTP server on 127.0.0.1 (``fake_openai``):
streamed text and tool calls arrive as events, and the next request carries the tool result."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.chat.conversation import ChatEvent, Conversation, TextDelta, TurnEnded
from mcp_tui.chat.providers import build_model
from mcp_tui.chat.tools import ChatTool, ToolCatalog
from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.session.events import CallOutcome, ContentItem, ToolInfo
from tests.chat.fake_openai import Reply, ToolCall, fake_openai

pytestmark = pytest.mark.anyio


async def test_a_streamed_tool_call_round_trip_over_http() -> None:
    script = [Reply(tool_calls=[ToolCall("demo__echo", {"text": "hi"})]), Reply(text="It said hi.")]
    events: list[ChatEvent] = []

    async def approve(_: Any) -> Any:
        return "once"

    async def call(tool: ChatTool, args: dict[str, Any]) -> CallOutcome:
        return CallOutcome(items=(ContentItem("text", text=f"echo {args['text']}"),))

    with fake_openai(script) as fake:
        model = build_model(
            ChatSettings(provider="openai-compatible", base_url=fake.url, model="m"), {}
        )
        tools = ToolCatalog([("demo", ToolInfo("echo", "Echo", input_schema={"type": "object"}))])
        ended = await Conversation(system_prompt="be brief").run_turn(
            "hello", model=model, tools=tools, approve=approve, call=call, emit=events.append
        )
    assert ended == TurnEnded("done")
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "It said hi."
    first, second = fake.requests
    assert first["stream"] is True and first["model"] == "m"
    assert [t["function"]["name"] for t in first["tools"]] == ["demo__echo"]
    assert first["messages"][0] == {"role": "system", "content": "be brief"}
    assert second["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": "echo hi",
    }
