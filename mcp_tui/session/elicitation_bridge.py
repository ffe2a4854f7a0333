"""The SDK's ``elicitation_callback``: from ``ElicitRequest*Params`` to the UI's handler and back.

One :class:`ElicitationBridge` per connection. For each request (an ``elicitation/create`` on
2025-era connections, an ``inputRequests`` entry on 2026-07-28) it:

0. refuses what no well-behaved server sends: a request before the handshake finished (cancelled,
   with a notice) and, on 2025-era connections, a second request whose JSON-RPC id is still
   waiting for an answer (-32600, with a notice: two answers with one id cannot be told apart);
1. asks the anti-spam gate (``elicitation_gate.py``) — paused, rate-limited or over-full servers
   get ``cancel`` at once, with one notice per flood (steps 0 and 1 are :meth:`~ElicitationBridge.
   guarded`, shared with sampling requests: one gate, one "stop asking", per server). The input
   requests of one ``tasks/get`` arrive together: the task follower asks the gate for them all
   at once (:meth:`~ElicitationBridge.admit_many`) and answers the refused ones itself, in bulk;
   each admitted one then reaches this callback inside :meth:`~ElicitationBridge.admitted`,
   which tells step 1 it was counted already;
2. applies the server's policy (``elicitation = "decline" | "cancel"`` answers at once, with a
   notice);
3. parses a form's ``requestedSchema`` with the schema engine; a refused schema is answered
   JSON-RPC -32602 listing the problems, and an :class:`ElicitationRefused` event carries the same
   list to the transcript (on 2026-07-28 there is no per-request error reply: the SDK ends the
   call locally with that error instead). A URL-mode request on a session whose protocol has no
   URL mode (2025-06-18; the SDK checks every request against the 2025-11-25 shapes, so it lets
   one through) is refused the same way, before the policy and before anyone is asked, as any
   mode the client did not declare is;
4. awaits the handler and maps its :class:`ElicitationOutcome` to an ``ElicitResult`` in one
   function, :func:`to_elicit_result` (``content`` only for a form's ``accept``).

It never raises: a failure anywhere becomes ``cancel`` plus a notice. The one exception is
cancellation — the server withdrew the request (``notifications/cancelled``) or the connection is
closing — which propagates after the gate slot is released; the UI closes its form in a
``finally``.

Linking a request to the tool call it interrupts: :class:`CallTracker`. On 2026-07-28 the
callback runs inside the ``call_tool`` task (the SDK's driver), so a context variable names the
call; on Streamable HTTP the SDK carries the sender's context to the callback too. Otherwise
(stdio on 2025 eras) the request is attributed to the call in flight if exactly one is.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import count
from typing import Any, Literal, TypeVar

import mcp_types as types
from mcp.client.session import ClientRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from mcp_tui.config.servers import DEFAULT_ELICITATION, ElicitationPolicy
from mcp_tui.errors import SchemaError
from mcp_tui.schema.parse_cache import FORMS
from mcp_tui.session.convert import validation_summary
from mcp_tui.session.elicitation import ElicitationHandler, ElicitationOutcome, ElicitationRequest
from mcp_tui.session.elicitation_gate import Decision, ElicitationGate, Verdict
from mcp_tui.session.events import (
    ElicitationPauseChanged,
    ElicitationRefused,
    EventSink,
    Notice,
)
from mcp_tui.untrusted import one_line

log = logging.getLogger(__name__)

INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
#: The protocol versions with ``elicitation/create`` but no URL mode (it came in 2025-11-25).
NO_URL_MODE = frozenset({"2025-06-18"})
Severity = Literal["information", "warning", "error"]
R = TypeVar("R")


@dataclass(frozen=True)
class CallRef:
    """A tool call in flight: its name and the UI's ``call_id`` for it."""

    tool: str
    call_id: int | None


_current_call: ContextVar[CallRef | None] = ContextVar("mcp_tui_current_call", default=None)


class _Slot:
    """A gate slot taken in advance for one request (``admit_many``), until step 1 uses it."""

    __slots__ = ("used",)

    def __init__(self) -> None:
        self.used = False


_admitted: ContextVar[_Slot | None] = ContextVar("mcp_tui_admitted", default=None)


class CallTracker:
    """Which tool calls of one connection are in flight, to name the call a request interrupts."""

    def __init__(self) -> None:
        self._keys = count(1)
        self._in_flight: dict[int, CallRef] = {}

    @contextmanager
    def track(self, tool: str, call_id: int | None) -> Iterator[CallRef]:
        ref = CallRef(tool, call_id)
        key = next(self._keys)
        self._in_flight[key] = ref
        token = _current_call.set(ref)
        try:
            yield ref
        finally:
            _current_call.reset(token)
            del self._in_flight[key]

    def attribute(self) -> CallRef | None:
        """The call the current elicitation interrupts, or ``None`` when it cannot be known."""
        current = _current_call.get()
        if current is not None and current in self._in_flight.values():
            return current
        if len(self._in_flight) == 1:
            return next(iter(self._in_flight.values()))
        return None

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)


RELATED_TASK_KEY = "io.modelcontextprotocol/related-task"


def related_task(meta: Any) -> str | None:
    """The ``taskId`` of ``_meta["io.modelcontextprotocol/related-task"]``, when present."""
    if not isinstance(meta, dict):
        return None
    related = meta.get(RELATED_TASK_KEY)
    if isinstance(related, dict) and isinstance(related.get("taskId"), str):
        return str(related["taskId"])
    return None


def app_ui(meta: Any) -> str | None:
    """``_meta.ui.resourceUri`` (SEP-3118: the server offers an MCP App for this form)."""
    ui = meta.get("ui") if isinstance(meta, dict) else None
    uri = ui.get("resourceUri") if isinstance(ui, dict) else None
    return uri if isinstance(uri, str) and uri else None


def to_elicit_result(outcome: ElicitationOutcome, mode: str) -> types.ElicitResult:
    """The one mapping from the UI's outcome to the wire answer. Raises ``ValueError`` if the
    content cannot be sent as it is (the caller turns that into ``cancel``)."""
    if outcome.action != "accept" or mode != "form":
        return types.ElicitResult(action=outcome.action)
    content: dict[str, Any] = dict(outcome.content or {})
    for key, value in content.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{key!r} is {value!r}, which JSON cannot carry")
    try:
        return types.ElicitResult(action="accept", content=content)
    except ValidationError as exc:
        raise ValueError(
            f"the answer cannot be sent: {exc.error_count()} invalid value(s)"
        ) from exc


class ElicitationBridge:
    """The ``elicitation_callback`` of one connection (see the module docstring)."""

    def __init__(
        self,
        server: str,
        *,
        handler: ElicitationHandler,
        sink: EventSink,
        gate: ElicitationGate,
        calls: CallTracker,
        policy: ElicitationPolicy = DEFAULT_ELICITATION,
        protocol_version: Callable[[], str | None] = lambda: None,
        handshake_done: Callable[[], bool] = lambda: True,
    ) -> None:
        self.server = server
        self.handler = handler
        self._sink = sink
        self.gate = gate
        self.calls = calls
        self.policy = policy
        self._protocol_version = protocol_version
        self._handshake_done = handshake_done
        #: JSON-RPC ids of requests being answered now (2025 eras), to catch a repeated id.
        self._open_ids: set[str | int] = set()
        #: The last forms asked, as received (``message``, ``requestedSchema``, the tool), for
        #: ``Check this server`` in the TUI; refused schemas too.
        self.schemas_seen: deque[dict[str, Any]] = deque(maxlen=50)

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        try:
            return await self.guarded(
                context,
                params.message,
                lambda: self._answer(context, params),
                lambda: types.ElicitResult(action="cancel"),
            )
        except Exception as exc:  # never raise into the SDK: the server gets "cancel"
            log.exception("elicitation for %s failed", self.server)
            self._notice(f"an elicitation request was cancelled after an error: {exc}", "error")
            return types.ElicitResult(action="cancel")

    async def guarded(
        self,
        ctx: ClientRequestContext,
        summary: str,
        answer: Callable[[], Awaitable[R]],
        refuse: Callable[[], R],
        *,
        what: str = "an elicitation request",
    ) -> R | types.ErrorData:
        """Steps 0 and 1 of the module docstring, for any request a person answers (elicitation,
        sampling): ``answer()`` once admitted, else ``refuse()`` (the kind's "cancel") or -32600.
        ``summary`` is the server's text that names the request in notices."""
        if not self._handshake_done():
            self._notice(
                f"sent {what} before the handshake finished, which MCP does not "
                "allow; it was cancelled without asking you: "
                f"{one_line(summary, limit=120)}",
                "warning",
            )
            return refuse()
        key = ctx.request_id if isinstance(ctx.request_id, str | int) else None
        if key is None or self._protocol_version() in MODERN_PROTOCOL_VERSIONS:
            return await self._gated(answer, refuse, what, summary)
        if key in self._open_ids:
            self._notice(
                f"sent a second request with the id {one_line(repr(key), limit=60)} while the "
                "first is still open; the second was refused (-32600): "
                f"{one_line(summary, limit=120)}",
                "warning",
            )
            return types.ErrorData(
                code=INVALID_REQUEST,
                message="mcp-tui is still answering another request with this id",
            )
        self._open_ids.add(key)
        try:
            return await self._gated(answer, refuse, what, summary)
        finally:
            self._open_ids.discard(key)

    def admit_many(self, count: int) -> tuple[int, Decision | None]:
        """Step 1 for ``count`` requests that arrived together (a task's input requests): how
        many the gate admits (the first ones; each is then answered inside :meth:`admitted`),
        and the verdict on the rest, which the caller cancels and tells the person about in one
        notice. A tripped rate limit pauses the server here, as one more request would."""
        admitted, decision = self.gate.arrive_many(count)
        if decision is not None and decision.verdict is Verdict.RATE_LIMITED:
            self._sink(ElicitationPauseChanged(self.server, True, by_limit=True))
        return admitted, decision

    @contextmanager
    def admitted(self) -> Iterator[None]:
        """Around answering one request :meth:`admit_many` admitted: step 1 takes its slot
        instead of asking the gate again, and the slot is released once, used or not (a
        ``roots/list`` never reaches the gate)."""
        slot = _Slot()
        token = _admitted.set(slot)
        try:
            yield
        finally:
            _admitted.reset(token)
            if not slot.used:
                self.gate.release()

    async def _gated(
        self,
        answer: Callable[[], Awaitable[R]],
        refuse: Callable[[], R],
        what: str = "a request",
        summary: str = "",
    ) -> R:
        slot = _admitted.get()
        if slot is not None and not slot.used:  # counted with the others of its tasks/get
            slot.used = True
            try:
                return await answer()
            finally:
                self.gate.release()
        decision = self.gate.arrive()
        if not decision.admitted:
            if decision.verdict is Verdict.RATE_LIMITED:
                self._sink(ElicitationPauseChanged(self.server, True, by_limit=True))
            if decision.notice:
                self._notice(decision.notice, "warning")
            elif decision.verdict is Verdict.PAUSED:
                # Said as it is: the client cancelled, not the person (the server only hears
                # "cancel" and may well say "you cancelled").
                self._notice(
                    f"cancelled automatically (stop asking is on): {what}: "
                    + one_line(summary, limit=120)
                )
            return refuse()
        try:
            return await answer()
        finally:
            self.gate.release()

    async def _answer(
        self, ctx: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        version = self._protocol_version()
        if isinstance(params, types.ElicitRequestURLParams) and version in NO_URL_MODE:
            problem = (
                f"URL mode is not part of protocol {version}, the version this session "
                "negotiated (it came in 2025-11-25): the request was refused, not shown"
            )
            self._sink(ElicitationRefused(self.server, params.message, (problem,), mode="url"))
            return types.ErrorData(
                code=INVALID_PARAMS,
                message=f"elicitation mode 'url' is not supported on protocol {version}",
            )
        if self.policy != "ask":
            verb = "declined" if self.policy == "decline" else "cancelled"
            self._notice(
                f"{verb} automatically (elicitation = {self.policy!r} for this server): "
                f"{one_line(params.message, limit=120)}"
            )
            return types.ElicitResult(action=self.policy)
        try:
            request = self.build_request(ctx, params)
        except SchemaError as exc:
            problems = tuple(str(p) for p in exc.problems)
            self._sink(ElicitationRefused(self.server, params.message, problems))
            return types.ErrorData(
                code=INVALID_PARAMS,
                message="mcp-tui cannot show this requested schema as a form: "
                + "; ".join(problems),
                data={"problems": list(problems)},
            )
        outcome = await self.handler.elicit(request)
        try:
            return to_elicit_result(outcome, request.mode)
        except ValueError as exc:
            self._notice(f"the answer was not sent (cancelled instead): {exc}", "error")
            return types.ElicitResult(action="cancel")

    def build_request(
        self, ctx: ClientRequestContext, params: types.ElicitRequestParams
    ) -> ElicitationRequest:
        """Raises ``SchemaError`` for a form the engine refuses."""
        call = self.calls.attribute()
        request_key = ctx.request_id if isinstance(ctx.request_id, str | int) else None
        common: dict[str, Any] = {
            "server": self.server,
            "message": params.message,
            "tool": call.tool if call else None,
            "call_id": call.call_id if call else None,
            "request_key": request_key,
            "protocol_version": self._protocol_version(),
            "related_task": related_task(ctx.meta if ctx.meta is not None else params.meta),
        }
        if isinstance(params, types.ElicitRequestURLParams):
            return ElicitationRequest(
                mode="url", url=params.url, elicitation_id=params.elicitation_id, **common
            )
        offered_app = app_ui(params.meta)
        seen: dict[str, Any] = {
            "message": params.message,
            "requestedSchema": _plain(params.requested_schema),
            "_mcp_tui_call": common["tool"],
        }
        if offered_app is not None:
            seen["_meta"] = {"ui": {"resourceUri": offered_app}}
        self.schemas_seen.append(seen)
        form = FORMS.parse(params.requested_schema)  # the same form asked again: parsed once
        return ElicitationRequest(mode="form", form=form, app_ui=offered_app, **common)

    def set_paused(self, paused: bool) -> None:
        if paused != self.gate.paused:
            self.gate.set_paused(paused)
            self._sink(ElicitationPauseChanged(self.server, paused))
        else:
            self.gate.set_paused(paused)

    def protocol_version(self) -> str | None:
        """The negotiated protocol version of the connection (``None`` before the handshake)."""
        return self._protocol_version()

    def sink(self, event: Any) -> None:
        """Send a session event from this connection (the sampling bridge's notices)."""
        self._sink(event)

    def _notice(self, text: str, severity: Severity = "information") -> None:
        self._sink(Notice(self.server, text, severity))


def _plain(schema: Any) -> Any:
    """A requested schema as plain JSON (the SDK may hand a model or a dict)."""
    dump = getattr(schema, "model_dump", None)
    return dump(by_alias=True, mode="json", exclude_unset=True) if callable(dump) else schema


def url_requests_from_error(
    server: str,
    data: Any,
    *,
    call: CallRef | None,
    protocol_version: str | None,
) -> tuple[ElicitationRequest, ...]:
    """The URL-mode requests in a -32042 error's ``data``; raises ``ValueError`` if invalid."""
    try:
        parsed = types.ElicitationRequiredErrorData.model_validate(data)
    except ValidationError as exc:
        raise ValueError(validation_summary(exc)) from exc
    if not parsed.elicitations:
        raise ValueError("it lists no elicitations")
    return tuple(
        ElicitationRequest(
            server=server,
            message=e.message,
            mode="url",
            url=e.url,
            elicitation_id=e.elicitation_id,
            tool=call.tool if call else None,
            call_id=call.call_id if call else None,
            protocol_version=protocol_version,
        )
        for e in parsed.elicitations
    )
