"""A server's ``sampling/createMessage`` answered by the chat's model, once the person asks.

The person-only path stays the default (the sampling review screen): the request is shown in full,
and only when the person presses "Ask the chat's model" is it sent to the model — the messages as
the server wrote them, its system prompt, ``maxTokens``, ``temperature`` and stop sequences. The
reply streams into the review screen's reply box, where the person can still edit it, and is sent
to the server only when they accept, as today. Images and audio are sent as the same descriptions
the screen shows (never decoded), and tools the server offers are not given to the model (the
reply is text).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from mcp_tui.session.sampling import SamplingRequest

if TYPE_CHECKING:
    from pydantic_ai.models import Model

#: The provider's finish reasons, in the spec's words.
_STOP_REASONS = {"stop": "endTurn", "length": "maxTokens", "content_filter": "endTurn"}


class ModelReply(Struct, frozen=True):
    text: str
    stop_reason: str
    model: str


def _messages(request: SamplingRequest) -> list[Any]:
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, UserPromptPart

    history: list[Any] = []
    for message in request.messages:
        text = "\n".join(part.text for part in message.parts)
        if message.role == "assistant":
            history.append(ModelResponse(parts=[TextPart(text)]))
        else:
            history.append(ModelRequest(parts=[UserPromptPart(content=text)]))
    if not history or not isinstance(history[-1], ModelRequest):
        history.append(ModelRequest(parts=[UserPromptPart(content="Continue.")]))
    if request.system_prompt:
        first = history[0]
        if isinstance(first, ModelRequest):
            history[0] = ModelRequest(parts=first.parts, instructions=request.system_prompt)
        else:
            history.insert(0, ModelRequest(parts=[], instructions=request.system_prompt))
    return history


async def answer(
    model: Model, request: SamplingRequest, on_text: Callable[[str], None]
) -> ModelReply:
    """Stream the model's completion of ``request``; ``on_text`` gets the text so far."""
    from pydantic_ai.direct import model_request_stream
    from pydantic_ai.messages import PartDeltaEvent, PartStartEvent, TextPart, TextPartDelta
    from pydantic_ai.settings import ModelSettings

    settings = ModelSettings(max_tokens=request.max_tokens)
    if request.temperature is not None:
        settings["temperature"] = request.temperature
    if request.stop_sequences:
        settings["stop_sequences"] = list(request.stop_sequences)
    received = ""
    async with model_request_stream(model, _messages(request), model_settings=settings) as stream:
        async for event in stream:
            delta = None
            if isinstance(event, PartStartEvent) and isinstance(event.part, TextPart):
                delta = event.part.content
            elif isinstance(event, PartDeltaEvent) and isinstance(event.delta, TextPartDelta):
                delta = event.delta.content_delta
            if delta:
                received += delta
                on_text(received)
        response = stream.get()
    reason = _STOP_REASONS.get(str(response.finish_reason), "endTurn")
    return ModelReply(received, reason, response.model_name or model.model_name)
