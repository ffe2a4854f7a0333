"""The conversation loop with the provider library's offline test model (``FunctionModel``):
approval (once, always, deny), unknown tools and bad arguments, stopping mid-stream and mid-call
with a history that stays valid, provider errors, and the step limit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from mcp_tui.chat import conversation as conv_mod
from mcp_tui.chat.conversation import (
    ChatEvent,
    Conversation,
    TextDelta,
    ToolCallFinished,
    ToolCallProposed,
    TurnEnded,
    outcome_text,
)
from mcp_tui.chat.tools import ChatTool, ToolCatalog
from mcp_tui.session.events import CallOutcome, ContentItem, ToolInfo

pytestmark = pytest.mark.anyio

ECHO = ToolInfo("echo", "Echo", input_schema={"type": "object", "properties": {"t": {}}})
WIPE = ToolInfo("wipe", "Wipe", input_schema={"type": "object", "properties": {"t": {}}})
TOOLS = ToolCatalog([("demo", ECHO)])


def tool_results(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    return [
        p
        for m in messages
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    ]


def scripted(*steps: Any) -> FunctionModel:
    """A model that replies with each step in turn: a str streams text, a list is tool calls."""
    remaining = list(steps)

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        step = remaining.pop(0)
        if isinstance(step, str):
            for word in step.split(" "):
                yield word + " "
        else:
            yield {
                i: DeltaToolCall(name=name, json_args=args, tool_call_id=f"c{i}")
                for i, (name, args) in enumerate(step)
            }

    return FunctionModel(stream_function=stream)


class Recorder:
    def __init__(self, answers: list[str] | None = None) -> None:
        self.events: list[ChatEvent] = []
        self.answers = list(answers or [])
        self.asked: list[ToolCallProposed] = []
        self.calls: list[tuple[ChatTool, dict[str, Any]]] = []

    def emit(self, event: ChatEvent) -> None:
        self.events.append(event)

    async def approve(self, call: ToolCallProposed) -> Any:
        self.asked.append(call)
        return self.answers.pop(0)

    async def call(self, tool: ChatTool, args: dict[str, Any]) -> CallOutcome:
        self.calls.append((tool, args))
        return CallOutcome(items=(ContentItem("text", text=f"echo {args.get('t')}"),))

    def text(self) -> str:
        return "".join(e.text for e in self.events if isinstance(e, TextDelta))


async def turn(conv: Conversation, model: FunctionModel, rec: Recorder, text: str = "hi") -> Any:
    return await conv.run_turn(
        text, model=model, tools=TOOLS, approve=rec.approve, call=rec.call, emit=rec.emit
    )


async def test_text_streams_and_the_turn_ends() -> None:
    rec = Recorder()
    conv = Conversation(system_prompt="sys")
    ended = await turn(conv, scripted("Hello there"), rec)
    assert ended == TurnEnded("done")
    assert rec.text().strip() == "Hello there"
    assert isinstance(conv.history[-1], ModelResponse)


async def test_an_approved_call_runs_and_the_model_sees_its_result() -> None:
    seen: list[list[ModelMessage]] = []
    steps: list[Any] = [[("demo__echo", '{"t": "x"}')], "done"]

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        seen.append(list(messages))
        assert [t.name for t in info.function_tools] == ["demo__echo"]
        step = steps.pop(0)
        if isinstance(step, str):
            yield step
        else:
            yield {0: DeltaToolCall(name=step[0][0], json_args=step[0][1], tool_call_id="c0")}

    rec = Recorder(["once"])
    conv = Conversation(system_prompt="sys")
    assert await turn(conv, FunctionModel(stream_function=stream), rec) == TurnEnded("done")
    assert [c[1] for c in rec.calls] == [{"t": "x"}]
    assert rec.asked[0].tool is not None and rec.asked[0].tool.label == "demo › echo"
    assert [r.content for r in tool_results(seen[1])] == ["echo x"]
    assert conv.allowed == set()


async def test_always_allows_the_tool_for_the_rest_of_the_session() -> None:
    rec = Recorder(["always"])
    conv = Conversation(system_prompt="sys")
    model = scripted([("demo__echo", '{"t": 1}')], "ok", [("demo__echo", '{"t": 2}')], "ok")
    await turn(conv, model, rec)
    await turn(conv, model, rec, "again")
    assert len(rec.asked) == 1  # the second call was not asked about
    assert [c[1] for c in rec.calls] == [{"t": 1}, {"t": 2}]


async def test_always_for_one_tool_still_asks_about_a_different_one() -> None:
    rec = Recorder(["always", "deny"])
    conv = Conversation(system_prompt="sys")
    model = scripted(
        [("demo__echo", '{"t": 1}')],
        [("demo__wipe", '{"t": 2}')],
        [("demo__echo", '{"t": 3}')],
        "ok",
    )
    tools = ToolCatalog([("demo", ECHO), ("demo", WIPE)])
    await conv.run_turn(
        "hi", model=model, tools=tools, approve=rec.approve, call=rec.call, emit=rec.emit
    )
    assert [c.name for c in rec.asked] == ["demo__echo", "demo__wipe"]
    assert [(c[0].tool.name, c[1]) for c in rec.calls] == [("echo", {"t": 1}), ("echo", {"t": 3})]
    assert conv.allowed == {"demo__echo"}


async def test_a_denied_call_does_not_run_and_the_model_is_told() -> None:
    rec = Recorder(["deny"])
    conv = Conversation(system_prompt="sys")
    await turn(conv, scripted([("demo__echo", "{}")], "fine"), rec)
    assert rec.calls == []
    assert [r.content for r in tool_results(conv.history)] == [conv_mod.DENIED]
    assert ToolCallFinished("c0", "denied", conv_mod.DENIED) in rec.events


async def test_unknown_tools_and_bad_arguments_are_answered_without_asking() -> None:
    rec = Recorder()
    conv = Conversation(system_prompt="sys")
    model = scripted([("nope__x", "{}"), ("demo__echo", "[1, 2]")], "sorry")
    assert await turn(conv, model, rec) == TurnEnded("done")
    assert rec.asked == [] and rec.calls == []
    results = [r.content for r in tool_results(conv.history)]
    assert results[0] == "There is no tool named 'nope__x'."
    assert results[1].startswith("The arguments were not a JSON object")


async def test_stopping_mid_stream_keeps_the_text_received() -> None:
    started = anyio.Event()

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        yield "partial "
        started.set()
        await anyio.sleep_forever()
        yield "never"

    rec = Recorder()
    conv = Conversation(system_prompt="sys")
    async with anyio.create_task_group() as tg:
        tg.start_soon(turn, conv, FunctionModel(stream_function=stream), rec)
        with anyio.fail_after(10):
            await started.wait()
        tg.cancel_scope.cancel()
    assert rec.events[-1] == TurnEnded("stopped")
    last = conv.history[-1]
    assert isinstance(last, ModelResponse)
    assert last.parts == [TextPart("partial ")]


async def test_stopping_during_a_tool_call_answers_every_call_of_the_response() -> None:
    running = anyio.Event()

    class Slow(Recorder):
        async def call(self, tool: ChatTool, args: dict[str, Any]) -> CallOutcome:
            running.set()
            await anyio.sleep_forever()
            raise AssertionError

    rec = Slow(["once"])
    conv = Conversation(system_prompt="sys")
    model = scripted([("demo__echo", "{}"), ("demo__echo", '{"t": 2}')])
    async with anyio.create_task_group() as tg:
        tg.start_soon(turn, conv, model, rec)
        with anyio.fail_after(10):
            await running.wait()
        tg.cancel_scope.cancel()
    # Both calls of the response have a result, so the next request is a valid history.
    assert [r.tool_call_id for r in tool_results(conv.history)] == ["c0", "c1"]
    assert {r.content for r in tool_results(conv.history)} == {conv_mod.STOPPED}
    calls = [p for p in conv.history[-2].parts if isinstance(p, ToolCallPart)]
    assert len(calls) == 2


async def test_a_provider_error_ends_the_turn_with_a_readable_message() -> None:
    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        raise RuntimeError("quota exceeded")
        yield ""

    rec = Recorder()
    ended = await turn(Conversation(system_prompt="s"), FunctionModel(stream_function=stream), rec)
    assert ended.status == "error"
    assert ended.error == "RuntimeError: quota exceeded"


async def test_the_step_limit_stops_a_model_that_loops_on_tools(monkeypatch: Any) -> None:
    monkeypatch.setattr(conv_mod, "MAX_STEPS", 3)
    rec = Recorder(["always"])
    model = scripted(*[[("demo__echo", "{}")]] * 3)
    ended = await turn(Conversation(system_prompt="s"), model, rec)
    assert ended.status == "step_limit"
    assert len(rec.calls) == 3


def test_outcome_text() -> None:
    assert outcome_text(CallOutcome(error="-32602 bad")) == (
        "The tool call failed: -32602 bad",
        True,
    )
    items = (ContentItem("text", text="a"), ContentItem("image", mime_type="image/png", size=3))
    assert outcome_text(CallOutcome(items=items, is_error=True)) == (
        "a\n[image: image/png, 3 bytes]",
        True,
    )
    assert outcome_text(CallOutcome(structured={"n": 1})) == ('{"n": 1}', False)
    assert outcome_text(CallOutcome()) == ("(the tool returned no content)", False)
