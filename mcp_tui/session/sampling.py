"""The seam between a server's ``sampling/createMessage`` and the person who answers it.

MCP lets a server ask the client's model for a completion. mcp-tui has no model: a *person*
reads the request and writes the reply (a tool for testing servers by hand). The session layer
turns each request into a :class:`SamplingRequest` (plain data, every string the server's and so
untrusted) and awaits :meth:`SamplingHandler.sample`; the handler returns a
:class:`SamplingOutcome`, which ``sampling_bridge.py`` maps to the SDK's result in one place.

A handler that also answers sampling implements :class:`SamplingHandler` next to
``ElicitationHandler.elicit``; the connection advertises the ``sampling`` capability only then.
Nothing here imports ``mcp`` or ``textual``.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal, Protocol, runtime_checkable

from msgspec import Struct

Action = Literal["accept", "decline", "cancel"]

#: The stop reasons the spec names ("toolUse" only when the request offered tools).
STOP_REASONS: tuple[str, ...] = ("endTurn", "stopSequence", "maxTokens")
TOOL_USE = "toolUse"

#: The model name reported when the person does not choose one.
DEFAULT_MODEL = "human"


class SamplingPart(Struct, frozen=True):
    """One content block of a message, as text a person can read.

    ``kind`` is the block's type (``text``, ``image``, ``audio``, ``tool_use``, ``tool_result``).
    ``text`` is the block's text for ``text``; for anything else a description written by us
    around the server's values (an image is never decoded nor drawn: "image/png, 1.2 kB").
    """

    kind: str
    text: str


class SamplingMessage(Struct, frozen=True):
    role: str
    parts: tuple[SamplingPart, ...]


class SamplingTool(Struct, frozen=True):
    """A tool the server offers the model (2025-11-25 ``tools``): shown, never called by us."""

    name: str
    description: str | None = None
    #: The tool's ``inputSchema`` as indented JSON.
    input_schema: str = "{}"


class SamplingRequest(Struct, frozen=True):
    """One ``sampling/createMessage``, ready to be shown.

    ``server`` is *our* name for the connection; ``tool`` the tool call it interrupts when known.
    Everything else is the server's and untrusted.
    """

    server: str
    messages: tuple[SamplingMessage, ...]
    max_tokens: int
    system_prompt: str | None = None
    temperature: float | None = None
    stop_sequences: tuple[str, ...] = ()
    #: ``modelPreferences.hints[].name``, in order.
    model_hints: tuple[str, ...] = ()
    #: ``costPriority``, ``speedPriority``, ``intelligencePriority`` (0..1 each, when given).
    cost_priority: float | None = None
    speed_priority: float | None = None
    intelligence_priority: float | None = None
    include_context: str | None = None
    tools: tuple[SamplingTool, ...] = ()
    #: ``toolChoice.mode`` (auto, required, none) when given.
    tool_choice: str | None = None
    #: ``metadata`` as indented JSON, when given.
    metadata: str | None = None
    tool: str | None = None
    call_id: int | None = None
    #: The JSON-RPC request id (2025 eras) or the ``inputRequests`` key (2026-07-28).
    request_key: str | int | None = None
    protocol_version: str | None = None
    #: The task this request belongs to (``_meta`` ``io.modelcontextprotocol/related-task``).
    related_task: str | None = None
    #: The params exactly as received, as JSON (the wire panel shows them; never parsed again).
    params: dict[str, Any] | None = None

    @property
    def message(self) -> str:
        """The last message's text: what an answers file's ``match`` is searched in."""
        for message in reversed(self.messages):
            texts = [p.text for p in message.parts if p.kind == "text"]
            if texts:
                return "\n".join(texts)
        return ""


class ToolUse(Struct, frozen=True):
    """A ``tool_use`` block of the reply: which offered tool, with which input."""

    name: str
    input: dict[str, object]
    #: The block's id. The review screen draws it once, so the wire panel shows the very id that
    #: is sent; ``None`` lets :func:`~mcp_tui.session.sampling_bridge.to_result` draw one.
    id: str | None = None


def new_tool_use_id() -> str:
    """A fresh ``tool_use`` block id, in the form models use (``toolu_`` and 24 hex digits)."""
    return f"toolu_{uuid.uuid4().hex[:24]}"


class SamplingOutcome(Struct, frozen=True):
    """What the person chose. ``text``, ``model`` and ``stop_reason`` only matter with accept."""

    action: Action
    text: str = ""
    model: str = DEFAULT_MODEL
    stop_reason: str = "endTurn"
    #: Optional note for the transcript (e.g. "declined automatically: sampling = 'decline'").
    note: str | None = None
    #: With stop reason ``toolUse``: the tool the "model" calls, and its input (a JSON object).
    tool_use: ToolUse | None = None

    @classmethod
    def decline(cls, note: str | None = None) -> SamplingOutcome:
        return cls("decline", note=note)

    @classmethod
    def cancel(cls, note: str | None = None) -> SamplingOutcome:
        return cls("cancel", note=note)


@runtime_checkable
class SamplingHandler(Protocol):
    """Answers sampling requests. Must never raise: map failures to decline or cancel.

    If the server cancels the request or the connection dies, the awaiting task is cancelled;
    implementations close their screen in a ``finally``.
    """

    async def sample(self, request: SamplingRequest) -> SamplingOutcome: ...
