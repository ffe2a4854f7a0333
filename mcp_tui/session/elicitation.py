"""The seam between a server's elicitation request and whoever answers it (TUI or headless).

The session layer turns each ``elicitation/create`` (2025 eras) or ``input_required`` input request
(2026-07-28) into an :class:`ElicitationRequest` and awaits :meth:`ElicitationHandler.elicit`. The
handler returns an :class:`ElicitationOutcome`; the session maps it to the SDK's ``ElicitResult`` in
one place (``connection.py``). Nothing here imports ``mcp`` or ``textual``.

Requests whose schema the engine refuses never reach the handler: the session answers them with
JSON-RPC -32602 and reports the problems as an event, so the user sees them in the transcript.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from msgspec import Struct, field

from mcp_tui.session.sampling import SamplingOutcome

if TYPE_CHECKING:  # the schema engine is not needed to import this seam (the UI's first frame)
    from mcp_tui.schema.fields import ContentValue, FormSpec
    from mcp_tui.session.oauth.authorization import AuthorizationRequest
    from mcp_tui.session.sampling import SamplingRequest

Action = Literal["accept", "decline", "cancel"]


class ElicitationRequest(Struct, frozen=True):
    """One question from a server, ready to be shown.

    ``server`` is *our* name for the connection (from the command line or config), never text the
    server controls; ``tool`` is the tool call it interrupts when known. ``message``, ``url`` and
    everything inside ``form`` are untrusted.
    """

    server: str
    message: str
    mode: Literal["form", "url"]
    #: The parsed form (form mode only).
    form: FormSpec | None = None
    #: The URL exactly as received (url mode only); check it with ``url.check`` before showing.
    url: str | None = None
    #: ``elicitationId`` (2025-11-25 url mode); ``None`` on 2026-07-28.
    elicitation_id: str | None = None
    tool: str | None = None
    #: The JSON-RPC request id (2025 eras) or the ``inputRequests`` key (2026-07-28), for the log.
    request_key: str | int | None = None
    #: The negotiated protocol version of the connection that asked.
    protocol_version: str | None = None
    #: The ``call_id`` the UI gave ``ServerConnection.call_tool`` for the call this request
    #: interrupts, when known (same rules as ``tool``).
    call_id: int | None = None
    #: The task this request belongs to (``_meta`` ``io.modelcontextprotocol/related-task``).
    related_task: str | None = None
    #: ``_meta.ui.resourceUri`` of a form request (SEP-3118, app-rendered elicitation): the
    #: server's own MCP App for this form. mcp-tui never runs server apps: it shows its native
    #: form (the SEP's fallback) and says the app exists. Untrusted text.
    app_ui: str | None = None

    @classmethod
    def for_sign_in(cls, request: AuthorizationRequest) -> ElicitationRequest:
        """The URL-mode request an OAuth sign-in is shown as, so it gets the same consent screen
        (URL check, host, warnings, whole URL) as a server's own URL request, with our message.

        Built here rather than by the sign-in, so ``session/oauth/`` needs nothing from the
        session folder above it."""
        return cls(server=request.server, message=request.message, mode="url", url=request.url)


class ElicitationOutcome(Struct, frozen=True):
    """What the user chose. ``content`` only with ``accept`` in form mode."""

    action: Action
    content: dict[str, ContentValue] | None = None
    #: Optional note for the transcript (e.g. "cancelled automatically: rate limit").
    note: str | None = None

    @classmethod
    def cancel(cls, note: str | None = None) -> ElicitationOutcome:
        return cls("cancel", None, note)

    @classmethod
    def decline(cls, note: str | None = None) -> ElicitationOutcome:
        return cls("decline", None, note)


class ElicitationHandler(Protocol):
    """Answers elicitation requests. Must never raise: map failures to decline or cancel.

    If the server cancels the request (``notifications/cancelled``) or the connection dies, the
    awaiting task is cancelled; implementations close their form in a ``finally``.
    """

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome: ...


class CancelAll(Struct):
    """The handler used until something better is set: cancels every request, with a note."""

    note: str = "no one is available to answer elicitation requests"
    seen: list[ElicitationRequest] = field(default_factory=list)

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        self.seen.append(request)
        return ElicitationOutcome.cancel(self.note)

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        """Sampling too is advertised (so ``list`` shows what ``call`` would), and refused."""
        return SamplingOutcome.cancel(self.note)
