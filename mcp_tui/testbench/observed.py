"""What one call did, as plain data: the record a case's expectations are checked against.

The running half (``headless/testrun.py``) fills it from the session's outcome, the requests its
handler answered and the traffic tap; the Python API hands it to the test author as the result of
a call. Everything in it that came from the server is untrusted text: it is compared, and escaped
before it is shown (``report.py``), never interpreted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from mcp_tui.testbench.model import Outcome


@dataclass(frozen=True)
class SeenElicitation:
    """One elicitation request the call made, and the answer it got."""

    mode: Literal["form", "url"]
    message: str
    #: The requestedSchema exactly as received (form mode).
    schema: dict[str, Any] | None = None
    url: str | None = None
    action: str = "cancel"
    content: dict[str, Any] | None = None
    #: ``_meta.ui.resourceUri``: the server's own app for this form (SEP-3118), not shown.
    app_ui: str | None = None
    #: The id the server gave the request (JSON-RPC id, or 2026-07-28 ``inputRequests`` key):
    #: a recorded snapshot that shows it matches it by regex (``volatile.py``).
    request_key: str | int | None = None


@dataclass(frozen=True)
class SeenSampling:
    """One ``sampling/createMessage`` the call made, and the answer it got."""

    message: str
    system_prompt: str | None = None
    max_tokens: int = 0
    action: str = "decline"
    text: str | None = None
    #: As :attr:`SeenElicitation.request_key`.
    request_key: str | int | None = None


@dataclass(frozen=True)
class Offered:
    """What the server listed when a call was made (names only): what ``--coverage`` counts
    the run's calls against. One record per listing, shared by every call made while it held."""

    #: The name the server gave in its handshake (``serverInfo.name``), else the spec's.
    server: str
    tools: tuple[str, ...] = ()
    #: The tools that declare an ``outputSchema``.
    structured_tools: tuple[str, ...] = ()
    prompts: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    #: The resource templates' URI templates.
    templates: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "tools": list(self.tools),
            "structured_tools": list(self.structured_tools),
            "prompts": list(self.prompts),
            "resources": list(self.resources),
            "templates": list(self.templates),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Offered:
        def names(key: str) -> tuple[str, ...]:
            return tuple(str(n) for n in data.get(key) or ())

        return cls(
            str(data.get("server", "")),
            names("tools"),
            names("structured_tools"),
            names("prompts"),
            names("resources"),
            names("templates"),
        )


@dataclass(frozen=True)
class Observed:
    """One call, seen from the client."""

    outcome: Outcome
    #: The text of the result: its text blocks (a prompt's messages, a resource's text), joined
    #: with newlines.
    text: str = ""
    structured: Any = None
    has_structured: bool = False
    error: str | None = None
    error_code: int | None = None
    elicitations: tuple[SeenElicitation, ...] = ()
    sampling: tuple[SeenSampling, ...] = ()
    #: The methods mcp-tui sent during the call (requests and notifications), in order.
    sent: tuple[str, ...] = ()
    seconds: float = 0.0
    #: The era the connection was on ("2025-11-25", "2026-07-28", ...).
    protocol_version: str | None = None
    #: The era the call failed for want of (the session's reading of the error: a
    #: ``ctx.elicit()`` tool on 2026-07-28 needs "2025-11-25"), else ``None``.
    needs_era: str | None = None
    #: Why the run could not give an answer (a scripted answer that does not fit its form).
    answer_problem: str | None = None
    #: The handler's report of each request and answer, for a failure's details.
    transcript: str = ""
    #: The whole result as it came over the wire (tools), for ``--json``.
    raw: dict[str, Any] | None = field(default=None, compare=False)
    #: What the server listed when the call was made (``--coverage``).
    offered: Offered | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"


def outcome_of(*, ended: bool, error: str | None, is_error: bool) -> Outcome:
    """How a finished call ended, as a case's ``outcome`` says it: one rule for the runner
    (``headless/probe.py``) and the recorder (``ui/record_case.py``), so a case recorded from a
    call expects what a replay of it reports.

    ``ended``: the call ended with its connection (the session's rule). Otherwise any error is
    ``error``, with the JSON-RPC code the server sent or with none when mcp-tui itself refused
    the answer (a result that does not follow the protocol, too many input rounds).
    """
    if ended:
        return "connection_lost"
    if error is not None:
        return "error"
    return "tool_error" if is_error else "ok"


class ContentBlock(Protocol):
    """What :func:`text_of` reads of a result's block (the session's ``ContentItem``)."""

    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str | None: ...
    @property
    def mime_type(self) -> str | None: ...
    @property
    def uri(self) -> str | None: ...
    @property
    def size(self) -> int | None: ...


class HasItems(Protocol):
    @property
    def items(self) -> Iterable[ContentBlock]: ...


def text_of(outcome: HasItems) -> str:
    """The text blocks of a result (a prompt's messages, a resource's contents), one per line;
    other blocks as a bracketed description (binary content is never decoded).

    One function for the runner (what a call gave) and the TUI's "Save as a test" (the snapshot
    it writes), so a case saved from a call passes against the same answer.
    """
    parts: list[str] = []
    for item in outcome.items:
        if item.text is not None:
            parts.append(item.text)
        else:
            what = " ".join(str(p) for p in (item.kind, item.mime_type, item.uri) if p)
            size = f", {item.size} bytes" if item.size is not None else ""
            parts.append(f"[{what}{size}]")
    return "\n".join(parts)
