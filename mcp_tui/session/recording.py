"""What a connection does with every message passing through its tap (``tap.py``).

- records it: the ``--log`` file (:class:`TrafficLog`) and a :class:`TrafficRecorded` event for
  the traffic view, both with the message exactly as it travelled;
- applies the SDK workaround for 2026-07-28 results without ``resultType`` (after recording);
- reports what is not a JSON-RPC message (a malformed stdout line) as a warning ``Notice``,
  at most :data:`MAX_STREAM_NOTICES` times per connection, and remembers a fatal stream problem
  (a message over the size limit) as the reason the connection ended;
- tells the connection when the server closed the stream;
- reports an accepted elicitation answer that could not be delivered (the connection died) as an
  error ``Notice`` holding the answer's JSON, so the user can copy what they typed;
- reports a result that arrives for a request mcp-tui cancelled (``notifications/cancelled``
  went out) when the user asked for it (a tool call, a prompt, a resource): the SDK drops it
  silently, and the user should know the server finished anyway;
- drops a request of the server's that was already answered (a replay after a resumed stream)
  and a URL request's completion for an id never asked for, and withdraws the requests stranded
  on a request's abandoned HTTP stream (``server_requests.py``);
- reports an ``elicitation/create`` the SDK refused before mcp-tui's callback saw it
  (``sdk_refusals.py``) as an :class:`ElicitationRefused` event. The check runs when the SDK's
  error answer (-32602 or -32601) to a remembered request goes out, not on every request: it
  validates the params a second time, which is a real part of a round trip's cost.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from mcp_tui.session.big_http import BigPayloads
from mcp_tui.session.big_json import MAX_META_KEYS
from mcp_tui.session.events import (
    ElicitationRefused,
    EventSink,
    LogReceived,
    Notice,
    TrafficRecorded,
)
from mcp_tui.session.sdk_refusals import ELICITATION_CREATE, sdk_refusal
from mcp_tui.session.sdk_workarounds import ResultTypeFixup
from mcp_tui.session.server_requests import RequestId, ServerRequests
from mcp_tui.session.stdio_transport import (
    DEFAULT_MAX_MESSAGE_BYTES,
    InvalidLine,
    LargeSessionMessage,
    MessageTooLarge,
    MetaTrimmed,
)
from mcp_tui.session.tap import ALREADY_CLOSED
from mcp_tui.session.traffic import Direction, TrafficLog
from mcp_tui.untrusted import one_line

#: Malformed messages reported individually before the rest are only counted.
MAX_STREAM_NOTICES = 20
#: Elicitation requests remembered (id -> params) to name an answer that was not delivered, and
#: to explain the SDK's refusal of one.
MAX_REMEMBERED_REQUESTS = 256
#: The errors the SDK answers a request it refuses with (bad params; an unknown method).
SDK_REFUSAL_CODES = frozenset({-32602, -32601})
#: Requests the user asked for: a late result for one of them, once cancelled, is worth a note.
#: mcp-tui cancels requests of its own too (a ``tasks/get`` poll once the result is in, a
#: superseded listing or completion), and those results are nobody's business.
NOTED_WHEN_LATE = frozenset({"tools/call", "tasks/result", "prompts/get", "resources/read"})


class ConnectionTap:
    """The :class:`~mcp_tui.session.tap.MessageTap` of one connection."""

    def __init__(
        self,
        server: str,
        sink: EventSink,
        traffic_log: TrafficLog | None,
        on_ended: Callable[[], None],
        protocol_version: Callable[[], str | None] = lambda: None,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    ) -> None:
        self.server = server
        #: Over HTTP, reads large messages for the SDK; what it stood in for comes back here.
        self.big = BigPayloads(self.trimmed, max_message_bytes)
        self._protocol_version = protocol_version
        self._sink = sink
        self._traffic_log = traffic_log
        self._on_ended = on_ended
        self.fixup = ResultTypeFixup()
        #: Why the stream ended, when it was our doing (e.g. a message over the size limit).
        self.fatal: str | None = None
        #: Why writing to the server failed, if it did (the first reason).
        self.write_failure: str | None = None
        self.stream_problems = 0
        self._questions: OrderedDict[str | int, Any] = OrderedDict()
        #: Ids of our requests of the kinds in NOTED_WHEN_LATE (bounded), and those of them we
        #: sent ``notifications/cancelled`` for (bounded).
        self._asked: OrderedDict[str | int, None] = OrderedDict()
        self._cancelled: OrderedDict[str | int, None] = OrderedDict()
        self.requests = ServerRequests(self._replayed, self._unknown_completion)

    def incoming(
        self, item: SessionMessage | Exception, via: RequestId | None = None
    ) -> Sequence[SessionMessage | Exception]:
        if isinstance(item, SessionMessage):
            item = self.big.restore(item)
        if isinstance(item, Exception):
            self._stream_problem(item)
            return [item]
        self._record("in", item)
        return [self._seen(message) for message in self.requests.incoming(item, via)]

    def _seen(self, item: SessionMessage) -> SessionMessage:
        message = item.message
        if isinstance(message, JSONRPCRequest) and message.method == ELICITATION_CREATE:
            self._remember(message)
        elif (
            self._cancelled
            and isinstance(message, (JSONRPCResponse, JSONRPCError))
            and message.id is not None
            and message.id in self._cancelled
        ):
            self._cancelled.pop(message.id, None)
            what = "an error" if isinstance(message, JSONRPCError) else "a result"
            self._sink(
                Notice(
                    self.server,
                    f"{what} for cancelled request {message.id!r} arrived late and was dropped",
                )
            )
        return self.fixup.incoming(item)

    def outgoing(self, message: SessionMessage) -> None:
        self.fixup.outgoing(message)
        self._record("out", message)
        self.requests.outgoing(message)
        answer = message.message
        if isinstance(answer, JSONRPCRequest) and answer.method in NOTED_WHEN_LATE:
            _remember_id(self._asked, answer.id)
        elif isinstance(answer, JSONRPCNotification) and answer.method == "notifications/cancelled":
            request_id = (answer.params or {}).get("requestId")
            if isinstance(request_id, (str, int)) and request_id in self._asked:
                del self._asked[request_id]
                _remember_id(self._cancelled, request_id)
        elif isinstance(answer, JSONRPCError) and answer.error.code in SDK_REFUSAL_CODES:
            request_id = answer.id
            if request_id is not None and request_id in self._questions:
                self._check_elicitation(self._questions[request_id])

    def ended(self) -> None:
        self._on_ended()

    def _unknown_completion(self, elicitation_id: str) -> None:
        self._sink(
            LogReceived(
                self.server,
                "debug",
                "mcp-tui",
                "ignored notifications/elicitation/complete for elicitation "
                f"{elicitation_id!r}: no URL request with that id was asked for",
            )
        )

    def _replayed(self, request_id: RequestId, method: str) -> None:
        self._sink(
            Notice(
                self.server,
                f"sent its request {request_id!r} ({one_line(method, limit=60)}) again after it "
                "was answered; the repeat was ignored (a request id is used once)",
                "warning",
            )
        )

    def trimmed(self, cuts: list[tuple[str, int]]) -> None:
        """Over HTTP, a large message's oversized ``_meta`` was cut before the SDK read it
        (``big_http``): said like the stdio reader's :class:`MetaTrimmed`."""
        for where, keys in cuts:
            self._stream_problem(MetaTrimmed(where, keys))

    def undelivered(self, message: SessionMessage, reason: str) -> None:
        """A message was not delivered: say so in the traffic log, and show a lost answer."""
        if self.write_failure is None and reason != ALREADY_CLOSED:
            self.write_failure = reason
        if self._traffic_log is not None:
            what = (
                getattr(message.message, "method", None)
                or f"id {getattr(message.message, 'id', '?')}"
            )
            self._traffic_log.record_error(self.server, "out", f"{what} not delivered: {reason}")
        answer = self._answer_in(message.message)
        if answer is None:
            return
        what, content = answer
        text = json.dumps(content, ensure_ascii=False, sort_keys=True)
        self._sink(
            Notice(
                self.server,
                f"your answer to {what} was NOT delivered ({reason}); here it is, to copy: {text}",
                "error",
            )
        )

    def _remember(self, request: JSONRPCRequest) -> None:
        self._questions[request.id] = request.params
        while len(self._questions) > MAX_REMEMBERED_REQUESTS:
            self._questions.popitem(last=False)

    def _answer_in(self, message: Any) -> tuple[str, Any] | None:
        """``(what was asked, the answer)`` when ``message`` carries an accepted answer."""
        if isinstance(message, JSONRPCResponse) and message.id in self._questions:
            question = _question(self._questions.pop(message.id))
            result = message.result
            if isinstance(result, dict) and result.get("action") == "accept":
                return f'"{question}" (request {message.id!r})', result.get("content", {})
            return None
        if isinstance(message, JSONRPCRequest) and isinstance(message.params, dict):
            answers = message.params.get("inputResponses")  # 2026-07-28: answers ride the retry
            if isinstance(answers, dict):
                accepted = {
                    key: answer.get("content", {})
                    for key, answer in answers.items()
                    if isinstance(answer, dict) and answer.get("action") == "accept"
                }
                if accepted:
                    return f"the {message.method} request {message.id!r}", accepted
        return None

    def _check_elicitation(self, request_params: Any) -> None:
        problems = sdk_refusal(request_params, self._protocol_version())
        if problems is None:
            return
        params = request_params if isinstance(request_params, dict) else {}
        text = params.get("message")
        message = text if isinstance(text, str) else "(the request has no readable message)"
        self._sink(ElicitationRefused(self.server, message, problems))

    def _record(self, direction: Direction, message: SessionMessage) -> None:
        # The event dumps the model when first read (``TrafficRecorded.message``); the log file
        # reads it at once, and the event then shares that dict. A large message comes with the
        # JSON value it was read from: no dump at all, and the log file writes it from a thread.
        wire = message.wire if isinstance(message, LargeSessionMessage) else None
        event = TrafficRecorded(self.server, direction, message.message if wire is None else wire)
        if self._traffic_log is not None:
            self._traffic_log.record(self.server, direction, event.message, large=wire is not None)
        self._sink(event)

    def _stream_problem(self, exc: Exception) -> None:
        if self._traffic_log is not None:
            self._traffic_log.record_error(self.server, "in", str(exc)[:10_000])
        if isinstance(exc, MessageTooLarge):
            self.fatal = str(exc)
            return
        self.stream_problems += 1
        if self.stream_problems <= MAX_STREAM_NOTICES:
            self._sink(Notice(self.server, describe_stream_problem(exc), "warning"))
        elif self.stream_problems == MAX_STREAM_NOTICES + 1:
            self._sink(
                Notice(
                    self.server,
                    "more invalid messages from this server are not reported",
                    "warning",
                )
            )


def _question(params: Any) -> str:
    """A remembered request's message, on one short line."""
    text = params.get("message") if isinstance(params, dict) else None
    return one_line(text if isinstance(text, str) else "", limit=80)


def describe_stream_problem(exc: Exception) -> str:
    """One line for the user about a message the server sent that could not be read."""
    if isinstance(exc, MetaTrimmed):
        return (
            f"the server sent a message whose {exc.where} had {exc.keys:,} keys; mcp-tui kept"
            f" the first {MAX_META_KEYS:,} (metadata that large would freeze the screen)"
        )
    if isinstance(exc, InvalidLine):
        shown = exc.line[:160]
        more = f" … ({exc.length:,} characters in all)" if exc.length > len(shown) else ""
        return (
            f"the server sent something that is not a JSON-RPC message ({exc.reason}): "
            f"{one_line(shown, limit=None)}{more}"
        )
    return f"the server sent something that is not a JSON-RPC message: {one_line(exc, limit=300)}"


def _remember_id(ids: OrderedDict[str | int, None], request_id: str | int) -> None:
    """Add ``request_id`` to a bounded set of ids (the oldest go first)."""
    ids[request_id] = None
    while len(ids) > MAX_REMEMBERED_REQUESTS:
        ids.popitem(last=False)
