"""One conversation with a model: the turn loop, tool calls with the user's approval, stopping.

A turn starts with the user's text and goes on as long as the model asks for tools: each request
streams the model's reply (:class:`TextDelta` events as it arrives), then every tool call it made is
shown (:class:`ToolCallProposed`), approved by the person unless they allowed that tool for the
session, run through the server's connection — where its elicitation forms, URL consents and
sampling requests open the usual screens — and its result is given back to the model.

Stopping (Escape in the UI) cancels the task running :meth:`Conversation.run_turn`; the history is
left valid for the next turn: text received so far is kept, and a tool call that never ran gets a
result saying the user stopped it, because providers refuse a history with unanswered tool calls.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import anyio
from msgspec import Struct

from mcp_tui.chat.guidance import describe_provider_error
from mcp_tui.chat.tools import ChatTool, ToolCatalog
from mcp_tui.session.events import CallOutcome

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage, ModelResponse
    from pydantic_ai.models import Model

#: Model requests one turn may make before it is stopped (a model looping on tools).
MAX_STEPS = 25

Approval = Literal["once", "always", "deny"]


class TextDelta(Struct, frozen=True):
    """More of the model's reply text."""

    text: str


class ResponseStarted(Struct, frozen=True):
    """The model starts a new reply (a turn has one per model request)."""


class ToolCallProposed(Struct, frozen=True):
    """The model wants to call a tool; ``tool`` is ``None`` for a name it made up."""

    call_id: str
    name: str
    arguments: dict[str, Any]
    tool: ChatTool | None
    #: The arguments were not a JSON object (shown to the user, sent back to the model).
    bad_arguments: str | None = None


class ToolCallFinished(Struct, frozen=True):
    """A proposed call ended: ran (with its outcome), was denied, or failed before running."""

    call_id: str
    status: Literal["done", "error", "denied", "stopped"]
    #: What the model is told: the result's text, or why it did not run.
    result: str
    #: ``result`` is what the server answered (the call ran), not mcp-tui's note on why not.
    ran: bool = False


class TurnEnded(Struct, frozen=True):
    status: Literal["done", "stopped", "error", "step_limit"]
    error: str | None = None


ChatEvent = TextDelta | ResponseStarted | ToolCallProposed | ToolCallFinished | TurnEnded
ApproveFn = Callable[[ToolCallProposed], Awaitable[Approval]]
CallFn = Callable[[ChatTool, dict[str, Any]], Awaitable[CallOutcome]]


def outcome_text(outcome: CallOutcome) -> tuple[str, bool]:
    """The tool result as text for the model, and whether it is an error."""
    if outcome.error is not None:
        return f"The tool call failed: {outcome.error}", True
    parts: list[str] = []
    for item in outcome.items:
        if item.text is not None:
            parts.append(item.text)
        else:
            what = item.mime_type or item.kind
            parts.append(f"[{item.kind}: {what}{f', {item.size} bytes' if item.size else ''}]")
    if not parts and outcome.structured is not None:
        parts.append(json.dumps(outcome.structured, ensure_ascii=False))
    text = "\n".join(parts) or "(the tool returned no content)"
    return text, outcome.is_error


class Conversation:
    """The history of one conversation and the loop that extends it."""

    def __init__(
        self,
        *,
        system_prompt: str,
        history: list[ModelMessage] | None = None,
        on_message: Callable[[ModelMessage], None] | None = None,
    ) -> None:
        self.system_prompt = system_prompt
        self.history: list[ModelMessage] = list(history or [])
        #: Tools the user allowed for the rest of the session (by model-facing name).
        self.allowed: set[str] = set()
        self._on_message = on_message

    def _append(self, message: ModelMessage) -> None:
        self.history.append(message)
        if self._on_message is not None:
            self._on_message(message)

    async def run_turn(
        self,
        text: str,
        *,
        model: Model,
        tools: ToolCatalog,
        approve: ApproveFn,
        call: CallFn,
        emit: Callable[[ChatEvent], None],
    ) -> TurnEnded:
        """Send ``text`` and go on until the model answers without tools; see the module doc."""
        from pydantic_ai.messages import ModelRequest, UserPromptPart

        self._append(
            ModelRequest(parts=[UserPromptPart(content=text)], instructions=self.system_prompt)
        )
        ended: TurnEnded
        try:
            ended = await self._loop(model, tools, approve, call, emit)
        except anyio.get_cancelled_exc_class():
            emit(TurnEnded("stopped"))
            raise
        except Exception as exc:  # the provider's errors: shown, never a crash
            ended = TurnEnded("error", describe_provider_error(exc))
        emit(ended)
        return ended

    async def _loop(
        self,
        model: Model,
        tools: ToolCatalog,
        approve: ApproveFn,
        call: CallFn,
        emit: Callable[[ChatEvent], None],
    ) -> TurnEnded:
        from pydantic_ai.messages import ModelRequest, ToolCallPart

        for _ in range(MAX_STEPS):
            response = await self._stream(model, tools, emit)
            calls = [p for p in response.parts if isinstance(p, ToolCallPart)]
            if not calls:
                return TurnEnded("done")
            returns = []
            try:
                for part in calls:
                    returns.append(await self._run_call(part, tools, approve, call, emit))
            finally:
                # Every call of the response gets a result, even when the turn is stopped.
                for part in calls[len(returns) :]:
                    emit(ToolCallFinished(part.tool_call_id, "stopped", STOPPED))
                    returns.append(_tool_return(part, STOPPED))
                self._append(ModelRequest(parts=returns, instructions=self.system_prompt))
        return TurnEnded("step_limit", f"The model made {MAX_STEPS} requests in one turn.")

    async def _stream(
        self, model: Model, tools: ToolCatalog, emit: Callable[[ChatEvent], None]
    ) -> ModelResponse:
        from pydantic_ai.direct import model_request_stream
        from pydantic_ai.messages import (
            ModelResponse,
            PartDeltaEvent,
            PartStartEvent,
            TextPart,
            TextPartDelta,
        )
        from pydantic_ai.models import ModelRequestParameters

        params = ModelRequestParameters(function_tools=tools.definitions(), allow_text_output=True)
        emit(ResponseStarted())
        received: list[str] = []
        try:
            async with model_request_stream(
                model, self.history, model_request_parameters=params
            ) as stream:
                async for event in stream:
                    delta = None
                    if isinstance(event, PartStartEvent) and isinstance(event.part, TextPart):
                        delta = event.part.content
                    elif isinstance(event, PartDeltaEvent) and isinstance(
                        event.delta, TextPartDelta
                    ):
                        delta = event.delta.content_delta
                    if delta:
                        received.append(delta)
                        emit(TextDelta(delta))
                response = stream.get()
        except BaseException:
            if received:  # keep what was shown, so the history matches the screen
                self._append(ModelResponse(parts=[TextPart("".join(received))]))
            raise
        self._append(response)
        return response

    async def _run_call(
        self,
        part: Any,
        tools: ToolCatalog,
        approve: ApproveFn,
        call: CallFn,
        emit: Callable[[ChatEvent], None],
    ) -> Any:
        tool = tools.get(part.tool_name)
        arguments, bad = _arguments(part)
        proposed = ToolCallProposed(part.tool_call_id, part.tool_name, arguments, tool, bad)
        emit(proposed)
        if tool is None:
            return self._finish(part, "error", f"There is no tool named {part.tool_name!r}.", emit)
        if bad is not None:
            return self._finish(part, "error", f"The arguments were not a JSON object: {bad}", emit)
        if part.tool_name not in self.allowed:
            answer = await approve(proposed)
            if answer == "deny":
                return self._finish(part, "denied", DENIED, emit)
            if answer == "always":
                self.allowed.add(part.tool_name)
        text, is_error = outcome_text(await call(tool, arguments))
        return self._finish(part, "error" if is_error else "done", text, emit, ran=True)

    @staticmethod
    def _finish(
        part: Any, status: Any, text: str, emit: Callable[[ChatEvent], None], *, ran: bool = False
    ) -> Any:
        emit(ToolCallFinished(part.tool_call_id, status, text, ran))
        return _tool_return(part, text)


DENIED = "The user declined to run this tool call."
STOPPED = "The user stopped the conversation before this tool call ran."


def _tool_return(part: Any, text: str) -> Any:
    from pydantic_ai.messages import ToolReturnPart

    return ToolReturnPart(tool_name=part.tool_name, content=text, tool_call_id=part.tool_call_id)


def _arguments(part: Any) -> tuple[dict[str, Any], str | None]:
    """The call's arguments as a dict, or the raw text when they are not a JSON object."""
    raw = part.args
    if raw is None or raw == "":
        return {}, None
    if isinstance(raw, dict):
        return dict(raw), None
    try:
        value = json.loads(raw)
    except ValueError:
        return {}, str(raw)[:500]
    if not isinstance(value, dict):
        return {}, str(raw)[:500]
    return value, None
