"""What a connection does with every message passing through its tap (``tap.py``).

- records it: the ``--log`` file (:class:`TrafficLog`) and a :class:`TrafficRecorded` event for
  the traffic view, both with the message exactly as it travelled;
- applies the SDK workaround for 2026-07-28 results without ``resultType`` (after recording);
- reports what is not a JSON-RPC message (a malformed stdout line) as a warning ``Notice``,
  at most :data:`MAX_STREAM_NOTICES` times per connection, and remembers a fatal stream problem
  (a message over the size limit) as the reason the connection ended;
- tells the connection when the server closed the stream;
- reports an ``elicitation/create`` the SDK will refuse before mcp-tui's callback sees it
  (``sdk_refusals.py``) as an :class:`ElicitationRefused` event.
"""

from __future__ import annotations

from collections.abc import Callable

from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCRequest

from mcp_tui.session.events import ElicitationRefused, EventSink, Notice, TrafficRecorded
from mcp_tui.session.sdk_refusals import ELICITATION_CREATE, sdk_refusal
from mcp_tui.session.sdk_workarounds import ResultTypeFixup
from mcp_tui.session.stdio_transport import InvalidLine, MessageTooLarge
from mcp_tui.session.traffic import Direction, TrafficLog
from mcp_tui.untrusted import one_line

#: Malformed messages reported individually before the rest are only counted.
MAX_STREAM_NOTICES = 20


class ConnectionTap:
    """The :class:`~mcp_tui.session.tap.MessageTap` of one connection."""

    def __init__(
        self,
        server: str,
        sink: EventSink,
        traffic_log: TrafficLog | None,
        on_ended: Callable[[], None],
        protocol_version: Callable[[], str | None] = lambda: None,
    ) -> None:
        self.server = server
        self._protocol_version = protocol_version
        self._sink = sink
        self._traffic_log = traffic_log
        self._on_ended = on_ended
        self.fixup = ResultTypeFixup()
        #: Why the stream ended, when it was our doing (e.g. a message over the size limit).
        self.fatal: str | None = None
        self.stream_problems = 0

    def incoming(self, item: SessionMessage | Exception) -> SessionMessage | Exception:
        if isinstance(item, Exception):
            self._stream_problem(item)
            return item
        self._record("in", item)
        message = item.message
        if isinstance(message, JSONRPCRequest) and message.method == ELICITATION_CREATE:
            self._check_elicitation(message)
        return self.fixup.incoming(item)

    def outgoing(self, message: SessionMessage) -> None:
        self.fixup.outgoing(message)
        self._record("out", message)

    def ended(self) -> None:
        self._on_ended()

    def _check_elicitation(self, request: JSONRPCRequest) -> None:
        problems = sdk_refusal(request.params, self._protocol_version())
        if problems is None:
            return
        params = request.params if isinstance(request.params, dict) else {}
        text = params.get("message")
        message = text if isinstance(text, str) else "(the request has no readable message)"
        self._sink(ElicitationRefused(self.server, message, problems))

    def _record(self, direction: Direction, message: SessionMessage) -> None:
        try:
            data = message.message.model_dump(by_alias=True, mode="json", exclude_unset=True)
        except Exception as exc:  # never let the log break the connection
            data = {"unrecordable": repr(exc)}
        if self._traffic_log is not None:
            self._traffic_log.record(self.server, direction, data)
        self._sink(TrafficRecorded(self.server, direction, data))

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


def describe_stream_problem(exc: Exception) -> str:
    """One line for the user about a message the server sent that could not be read."""
    if isinstance(exc, InvalidLine):
        shown = exc.line[:160]
        more = f" … ({exc.length:,} characters in all)" if exc.length > len(shown) else ""
        return (
            f"the server sent something that is not a JSON-RPC message ({exc.reason}): "
            f"{one_line(shown, limit=None)}{more}"
        )
    return f"the server sent something that is not a JSON-RPC message: {one_line(exc, limit=300)}"
