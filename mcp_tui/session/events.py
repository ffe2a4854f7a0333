"""Plain records the session layer emits, so the UI never touches raw ``mcp`` types.

A :class:`ServerConnection` (``connection.py``) calls its ``EventSink`` with these on the event
loop.
High-rate events (logs, progress, traffic, stderr) must be cheap to create: the UI batches them.
All text fields that came from a server are untrusted.

They are frozen ``msgspec.Struct`` classes rather than dataclasses (equal, hashable and immutable
alike) because this module is on the way to the first frame: Python 3.11 compiles six methods for
every frozen dataclass, ~0.5 ms a class, and these 17 cost 8-13 ms; as structs, 0.3 ms. The other
records on that path (server specs, options, the UI's entries) are structs for the same reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum
from functools import cached_property
from typing import Any, Literal

from msgspec import Struct, field


class ConnectionState(Enum):
    CONNECTING = "connecting"
    READY = "ready"
    FAILED = "failed"
    CLOSED = "closed"


class ServerInfo(Struct, frozen=True):
    """What the server told us about itself at the handshake (all untrusted except the version)."""

    name: str | None
    version: str | None
    title: str | None = None
    instructions: str | None = None
    capabilities: dict[str, Any] = field(default_factory=dict)
    protocol_version: str | None = None


class ToolInfo(Struct, frozen=True):
    name: str
    description: str | None = None
    title: str | None = None
    input_schema: dict[str, Any] = field(default_factory=dict)
    output_schema: dict[str, Any] | None = None
    #: ``execution.taskSupport`` (2025-11-25): ``required``, ``optional``; ``None``: forbidden.
    task_support: str | None = None


class PromptArgumentInfo(Struct, frozen=True):
    name: str
    description: str | None = None
    required: bool = False


class PromptInfo(Struct, frozen=True):
    name: str
    description: str | None = None
    title: str | None = None
    arguments: tuple[PromptArgumentInfo, ...] = ()


class ResourceInfo(Struct, frozen=True):
    uri: str
    name: str
    description: str | None = None
    mime_type: str | None = None
    #: True for a resource template (``uri`` is then the URI template).
    template: bool = False


class ContentItem(Struct, frozen=True):
    """One block of a tool result or prompt message, reduced to what a terminal can show.

    ``kind`` is ``text``, ``image``, ``audio``, ``resource_link``, ``resource`` or ``unknown``;
    ``text`` holds the text (or a resource's text); binary content is described by
    ``mime_type`` and ``size`` (decoded bytes) and never shown raw.
    """

    kind: str
    text: str | None = None
    mime_type: str | None = None
    size: int | None = None
    uri: str | None = None
    name: str | None = None
    #: For prompt messages (``get_prompt``): the message's role, ``"user"`` or ``"assistant"``;
    #: each message of a prompt is one item. ``None`` for tool results and resources.
    role: str | None = None


class CallOutcome(Struct, frozen=True):
    """The end of a tool call, prompt get or resource read, success or not."""

    items: tuple[ContentItem, ...] = ()
    structured: Any = None
    is_error: bool = False
    #: A JSON-RPC error or local failure, readable: "-32602 Invalid params: ...".
    error: str | None = None
    error_code: int | None = None
    error_data: Any = None
    #: Set when the error is -32042 and its data held valid URL-mode requests: a tuple of
    #: ``ElicitationRequest`` (mode ``url``), to show through the consent screen before a retry.
    url_elicitations: tuple[Any, ...] = ()
    #: ``get_prompt``: the prompt's description from the result, if any (untrusted).
    description: str | None = None
    #: The user cancelled the call (``notifications/cancelled`` went out when a request was in
    #: flight); ``error`` says what was done.
    cancelled: bool = False
    #: The protocol era the request needed, when it failed because its connection is on the
    #: other one (``era.needed_era``): "2025-11-25" or "2026-07-28".
    needs_era: str | None = None
    #: The connection died under the request (a crashed server): ``error`` names how the
    #: server ended. Not an answer from the server, whatever the SDK's -32000 suggests.
    connection_lost: bool = False
    #: A failure's stderr: the lines the server wrote since the request started (untrusted).
    stderr: tuple[str, ...] = ()


#: The syslog levels of ``logging/setLevel``, most verbose first.
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


class RoundTrip(Struct, frozen=True):
    """A ping: how long the server took to answer ``method``, or why it did not."""

    method: str
    seconds: float | None = None
    error: str | None = None


# ---- events -------------------------------------------------------------------------------------


class ServerStateChanged(Struct, frozen=True):
    server: str
    state: ConnectionState
    detail: str | None = None  # the reason for FAILED / CLOSED
    info: ServerInfo | None = None


class CatalogChanged(Struct, frozen=True):
    """The tools, prompts or resources of a server were (re)listed.

    ``full``: this is a listing of every kind at once (the first one after connecting, or a
    refresh of everything), where a kind that failed is ``None``; otherwise one kind's
    ``list_changed`` refresh, the other kinds ``None``. Servers send ``list_changed`` while the
    first listing still runs (server-everything registers tools as the client connects), so a
    refresh of the tools alone can arrive before the prompts and resources are in.
    """

    server: str
    tools: tuple[ToolInfo, ...] | None = None
    prompts: tuple[PromptInfo, ...] | None = None
    resources: tuple[ResourceInfo, ...] | None = None
    full: bool = False

    @property
    def size(self) -> int:
        """How many items this listing holds, of every kind it carries."""
        return sum(len(kind or ()) for kind in (self.tools, self.prompts, self.resources))


class LogReceived(Struct, frozen=True):
    server: str
    level: str
    logger: str | None
    data: Any
    at: float = field(default_factory=time.time)


class ProgressReceived(Struct, frozen=True):
    server: str
    call_id: int
    progress: float
    total: float | None
    message: str | None


class TrafficRecorded(Struct, frozen=True, dict=True):  # dict: for the cached message
    """One JSON-RPC message in or out; :attr:`message` is it as a JSON-able dict.

    ``raw`` is that dict, or the SDK's message model as it crossed the wire: turning a model into
    a dict costs more than everything else mcp-tui does with a message, and most traffic events
    are never looked at (the traffic view is hidden until asked for, a headless run reads only
    its tool call's result), so the model is dumped the first time :attr:`message` is read.
    Models are never changed after they cross the wire (the SDK workarounds copy them).
    """

    server: str
    direction: Literal["in", "out"]
    raw: Any
    at: float = field(default_factory=time.time)

    @cached_property
    def message(self) -> dict[str, Any]:
        raw = self.raw
        if isinstance(raw, dict):
            return raw
        try:
            dumped: dict[str, Any] = raw.model_dump(by_alias=True, mode="json", exclude_unset=True)
        except Exception as exc:  # never let the traffic view break on one message
            return {"unrecordable": repr(exc)}
        return dumped

    @property
    def method(self) -> str | None:
        """The request's or notification's method, without dumping the message."""
        value = _field(self.raw, "method")
        return value if isinstance(value, str) else None

    @property
    def id(self) -> Any:
        """The message's JSON-RPC id (``None`` for notifications), without dumping it."""
        return _field(self.raw, "id")


def _field(raw: Any, name: str) -> Any:
    """``raw[name]`` of a dict, or the field ``name`` of a model (``None`` when it has none).

    A model's fields are its ``__dict__``: asking a pydantic model for an attribute it lacks
    (``method`` of a response) goes through its ``__getattr__``, which builds and catches an
    ``AttributeError`` (~3 µs, paid for every elicitation answer). A model keeping extra fields
    (JSON-RPC messages do not) is still asked the slow way.
    """
    if isinstance(raw, dict):
        return raw.get(name)
    fields = getattr(raw, "__dict__", None)
    if fields is None or getattr(raw, "__pydantic_extra__", None):
        return getattr(raw, name, None)
    return fields.get(name)


class StderrReceived(Struct, frozen=True):
    server: str
    line: str


class ElicitationRefused(Struct, frozen=True):
    """A request mcp-tui refused without asking (a schema the engine cannot show, a mode the
    session's protocol has not got); the server got an error (-32602) with the same list.
    ``mode``: what was asked, ``"form"`` or ``"url"``."""

    server: str
    message: str
    problems: tuple[str, ...]
    mode: str = "form"


class ElicitationCompleted(Struct, frozen=True):
    """``notifications/elicitation/complete`` for a URL-mode request."""

    server: str
    elicitation_id: str


class ElicitationPauseChanged(Struct, frozen=True):
    """The per-server "stop asking" state changed.

    ``by_limit`` is true when the automatic rate limit paused the server (a ``Notice`` says so
    too); ``ServerConnection.set_elicitation_paused(False)`` turns asking back on.
    """

    server: str
    paused: bool
    by_limit: bool = False


class ResourceUpdated(Struct, frozen=True):
    """``notifications/resources/updated`` for a resource this client subscribed to."""

    server: str
    uri: str


class Notice(Struct, frozen=True):
    """Something the user should know that fits in one line (auto-cancelled requests, ...)."""

    server: str
    text: str
    severity: Literal["information", "warning", "error"] = "information"


SessionEvent = (
    ServerStateChanged
    | CatalogChanged
    | LogReceived
    | ProgressReceived
    | TrafficRecorded
    | StderrReceived
    | ElicitationRefused
    | ElicitationCompleted
    | ElicitationPauseChanged
    | ResourceUpdated
    | Notice
)

EventSink = Callable[[SessionEvent], None]
