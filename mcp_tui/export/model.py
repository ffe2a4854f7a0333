"""What an export holds: plain records of a session, secrets already masked.

The UI fills these from its call history, transcript and traffic. Masking happens on the way in
(:func:`masked`): every string equal to, or containing, a value typed into a secret-looking field
is replaced wherever it appears (the answer sent, the traffic message that carried it, a result
that echoed it back), so neither writer can leak one by forgetting a field.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from msgspec import Struct, field

#: What a secret is written as.
MASK = "••••••"


class SharedLine(Struct, frozen=True):
    """One transcript entry: its kind (call, result, elicitation, notice...) and its text."""

    kind: str
    text: str


class SharedExchange(Struct, frozen=True):
    """One request the server made during a call and the answer the person gave."""

    kind: Literal["form", "url", "sampling"]
    message: str
    action: str
    #: The form's ``requestedSchema`` (form mode), as received.
    schema: dict[str, Any] | None = None
    url: str | None = None
    #: What was sent back on accept (secrets masked).
    content: Any = None
    #: Field names whose values were masked.
    masked_fields: tuple[str, ...] = ()


class SharedCall(Struct, frozen=True):
    """One call the person made: what was sent, what was asked meanwhile, how it ended."""

    call_id: int
    heading: str
    arguments: dict[str, Any] = field(default_factory=dict)
    exchanges: tuple[SharedExchange, ...] = ()
    outcome: str = ""
    result: str = ""
    seconds: float | None = None


class SharedMessage(Struct, frozen=True):
    """One JSON-RPC message of the traffic, with when and which way it went."""

    time: str
    server: str
    direction: str
    summary: str
    message: Any


class SharedSession(Struct, frozen=True):
    """Everything an export writes."""

    title: str
    exported_at: str
    servers: tuple[str, ...] = ()
    transcript: tuple[SharedLine, ...] = ()
    calls: tuple[SharedCall, ...] = ()
    traffic: tuple[SharedMessage, ...] = ()
    #: Messages the traffic backlog no longer held (older ones are dropped).
    traffic_dropped: int = 0
    secrets_masked: int = 0


def masked(value: Any, secrets: Iterable[str]) -> Any:
    """``value`` (JSON-like, or a string) with every occurrence of each secret replaced by
    :data:`MASK`, in strings and in object keys alike."""
    found = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not found:
        return value
    return _masked(value, found)


def _masked(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value
    if isinstance(value, dict):
        return {_masked(k, secrets): _masked(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_masked(v, secrets) for v in value]
    return value
