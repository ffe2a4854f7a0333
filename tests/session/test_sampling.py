"""Sampling (``sampling/createMessage``) end to end on both protocol eras: what the server gets is
exactly the person's reply; decline, cancel, policies, the shared gate, and what is shown.

The fixture server (``tests/fixtures/elicit_server.py``) runs as a stdio child for the first test,
both eras; the others serve the same server from this process over Streamable HTTP
(``session_testkit.http_fixture``): what they prove is the same whatever carries the request, and a
child per test would import the SDK again (~0.7 s of CPU each)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
import pytest

from mcp_tui.config.servers import SamplingPolicy, ServerSpec
from mcp_tui.session.events import CallOutcome, Notice
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.session.sampling_bridge import describe_block, related_task, to_request
from tests.session.session_testkit import (
    ELICIT_SERVER,
    Recorder,
    ScriptedHandler,
    connected,
    http_fixture,
    stdio_spec,
)

ERAS = [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")]

pytestmark = pytest.mark.anyio


class Sampler(ScriptedHandler):
    """A handler that also answers sampling, recording each request."""

    def __init__(self, outcome: SamplingOutcome | None) -> None:
        super().__init__()
        self.outcome = outcome
        self.sampled: list[SamplingRequest] = []
        self.sampling_open = anyio.Event()
        self.withdrawn: list[SamplingRequest] = []

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        self.sampled.append(request)
        self.sampling_open.set()
        if self.outcome is None:
            try:
                await anyio.sleep_forever()
            except anyio.get_cancelled_exc_class():
                self.withdrawn.append(request)
                raise
        assert self.outcome is not None
        return self.outcome


def spec(mode: str, policy: SamplingPolicy = "ask") -> ServerSpec:
    """The fixture server as a stdio child."""
    base = stdio_spec(ELICIT_SERVER, mode=mode)  # type: ignore[arg-type]
    return ServerSpec(base.name, base.target, base.mode, sampling=policy)


@asynccontextmanager
async def served(mode: str, policy: SamplingPolicy = "ask") -> AsyncIterator[ServerSpec]:
    """The fixture server served from this process over Streamable HTTP, for one test."""
    async with http_fixture() as target:
        yield ServerSpec("fx", target, mode, sampling=policy)  # type: ignore[arg-type]


def echoed(outcome: CallOutcome) -> dict[str, Any]:
    assert outcome.error is None, outcome.error
    text = outcome.items[0].text
    assert text is not None
    parsed: dict[str, Any] = json.loads(text)
    return parsed


@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_the_reply_reaches_the_server_exactly(mode: str, version: str) -> None:
    handler = Sampler(SamplingOutcome("accept", "A cat.\n", model="me", stop_reason="stopSequence"))
    async with connected(spec(mode), handler) as conn:
        assert conn.info.protocol_version == version
        outcome = await conn.call_tool("sample", {})
    assert echoed(outcome) == {
        "role": "assistant",
        "content": {"type": "text", "text": "A cat.\n"},
        "model": "me",
        "stopReason": "stopSequence",
    }
    [request] = handler.sampled
    assert request.server == "fx" and request.tool == "sample"
    assert request.protocol_version == version
    assert request.system_prompt == "You are terse." and request.max_tokens == 64
    assert request.temperature == 0.2 and request.stop_sequences == ("END",)
    assert request.model_hints == ("sonnet",) and request.speed_priority == 0.9
    [message] = request.messages
    assert message.role == "user"
    assert [p.kind for p in message.parts] == ["text", "image"]
    assert message.parts[1].text == "[image: image/png, 900 B; not shown]"
    assert request.message == "Describe this picture"


async def test_the_capability_is_advertised_only_with_a_sampling_handler() -> None:
    recorder = Recorder()
    async with (
        served("legacy") as server,
        connected(server, Sampler(None), recorder, traffic_log=None),
    ):
        pass
    sent = [e.message for e in recorder.events if getattr(e, "method", None) == "initialize"]
    assert sent and sent[0]["params"]["capabilities"].get("sampling") == {"tools": {}}
    recorder = Recorder()
    async with served("legacy") as server, connected(server, ScriptedHandler(), recorder):
        pass
    sent = [e.message for e in recorder.events if getattr(e, "method", None) == "initialize"]
    assert "sampling" not in sent[0]["params"]["capabilities"]


@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_decline_and_cancel_are_the_rejection_error(action: str) -> None:
    handler = Sampler(SamplingOutcome(action))  # type: ignore[arg-type]
    async with served("legacy") as server, connected(server, handler) as conn:
        outcome = await conn.call_tool("sample", {})
    answer = echoed(outcome)
    assert answer["code"] == -1
    word = "rejected" if action == "decline" else "dismissed"
    assert word in answer["error"]


@pytest.mark.parametrize("text", ["", "  \n\t "])
async def test_a_blank_reply_is_never_sent_as_the_models_answer(text: str) -> None:
    handler, recorder = Sampler(SamplingOutcome("accept", text, model="me")), Recorder()
    async with served("legacy") as server, connected(server, handler, recorder) as conn:
        outcome = await conn.call_tool("sample", {})
    assert echoed(outcome)["code"] == -1  # the rejection error, no assistant message
    notice = await recorder.wait_for(Notice, lambda n: "sampling reply was blank" in n.text)
    assert notice.severity == "warning"


@pytest.mark.parametrize("policy", ["decline", "cancel"])
async def test_policy_answers_at_once_with_a_notice(policy: SamplingPolicy) -> None:
    handler, recorder = Sampler(None), Recorder()
    async with served("legacy", policy) as server, connected(server, handler, recorder) as conn:
        with anyio.fail_after(30):  # a policy that asked would wait forever
            outcome = await conn.call_tool("sample", {})
    assert echoed(outcome)["code"] == -1
    assert handler.sampled == []
    notice = await recorder.wait_for(Notice, lambda n: "sampling request automatically" in n.text)
    assert f"sampling = '{policy}'" in notice.text


async def test_stop_asking_refuses_sampling_too() -> None:
    handler = Sampler(SamplingOutcome("accept", "never"))
    async with served("legacy") as server, connected(server, handler) as conn:
        conn.set_elicitation_paused(True)
        with anyio.fail_after(30):
            outcome = await conn.call_tool("sample", {})
    assert echoed(outcome)["code"] == -1
    assert handler.sampled == []


async def test_withdrawn_request_cancels_the_handler() -> None:
    handler = Sampler(None)
    async with (
        served("legacy") as server,
        connected(server, handler) as conn,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(conn.call_tool, "sample", {})
        with anyio.fail_after(20):
            await handler.sampling_open.wait()
        await conn.close()  # the connection goes: the open request is withdrawn
    assert handler.withdrawn == handler.sampled and len(handler.sampled) == 1


def test_blocks_are_described_never_decoded() -> None:
    audio = types.AudioContent(type="audio", data="A" * 4_000_000, mime_type="audio/wav\x1b[31m")
    assert describe_block(audio).text == "[audio: audio/wav\\e[31m, 3.0 MB; not shown]"
    use = types.ToolUseContent(type="tool_use", name="get_weather", id="t1", input={"city": "X"})
    assert describe_block(use).text.startswith("[tool use get_weather (id t1)]\n{")
    result = types.ToolResultContent(
        type="tool_result",
        tool_use_id="t1",
        content=[types.TextContent(type="text", text="sunny")],
        is_error=True,
    )
    assert describe_block(result).text == "[tool result for t1 (error)]\nsunny"


def test_tools_and_related_task_are_kept() -> None:
    params = types.CreateMessageRequestParams.model_validate(
        {
            "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
            "maxTokens": 5,
            "tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"}}],
            "toolChoice": {"mode": "required"},
            "metadata": {"k": 1},
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "task-7"}},
        }
    )
    request = to_request("s", params)
    assert [t.name for t in request.tools] == ["t"] and request.tool_choice == "required"
    assert request.related_task == "task-7" and request.metadata == '{\n  "k": 1\n}'
    assert related_task({"io.modelcontextprotocol/related-task": "nope"}) is None


@pytest.mark.parametrize(("mode", "version"), ERAS)
async def test_a_tool_use_reply_reaches_the_server(mode: str, version: str) -> None:
    from mcp_tui.session.sampling import ToolUse

    use = ToolUse("get_weather", {"city": "Oslo"})
    handler = Sampler(SamplingOutcome("accept", "Let me look.", "me", "toolUse", tool_use=use))
    recorder = Recorder()
    async with served(mode) as server, connected(server, handler, recorder) as conn:
        outcome = await conn.call_tool("sample", {"tools": True})
    answer = echoed(outcome)
    assert answer["stopReason"] == "toolUse" and answer["model"] == "me"
    text, tool = answer["content"]
    assert text == {"type": "text", "text": "Let me look."}
    assert (tool["type"], tool["name"], tool["input"]) == (
        "tool_use",
        "get_weather",
        {"city": "Oslo"},
    )
    assert tool["id"].startswith("toolu_")
    [request] = handler.sampled
    assert [t.name for t in request.tools] == ["get_weather"]
