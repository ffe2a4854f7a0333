"""The server's requests of one connection as they pass the tap: one already answered is never
asked again, one that can no longer be answered is withdrawn, and a URL request's completion
counts only for a request that was made.

**Replays.** MCP forbids a requestor to reuse a request id within a session, yet a Streamable
HTTP server that resumes a stream (``Last-Event-ID``) may replay events, an answered
``elicitation/create`` among them. The SDK hands a replay to the callbacks like a new request: a
second form opened and a second answer went out for one id. A request whose id was answered (or
withdrawn) on this connection is dropped here, before the SDK sees it; the traffic view still
shows that it arrived, and the user is told once per id.

**Abandoned streams.** On Streamable HTTP a request the server sends during a tool call (2025
eras) travels on that call's SSE stream. When the stream ends without the call's response and
cannot be resumed (the server exited, the network dropped it), the SDK ends the call with -32000
("SSE stream ended without a response") but leaves the requests that came on it open: HTTP has
no end of stream to tell the session the server is gone, as stdio has, so a form stayed open and
could be "sent". Those requests are withdrawn the way a server withdraws one: a
``notifications/cancelled`` for each is handed to the SDK just before the call's error, so the
SDK cancels the callback (the UI closes the form and keeps what was typed) and writes no answer.

**Completions of URL requests never asked for.** The spec says a client must ignore a
``notifications/elicitation/complete`` whose ``elicitationId`` it does not know. Handed on, an
early one was remembered (a completion may overtake the person's own accept), so a later URL
request with that id started out "completed" and its real completion was ignored. The ids of the
URL-mode requests that arrived (``elicitation/create``, and those a -32042 error lists) are
remembered; a completion for any other id is dropped here, with a line in the log panel for the
developer testing the server.

Which stream a request came on: the tap marks every request it sends with a context variable
(``tap.SENT_WITH``); the SDK's HTTP transport posts each request in its sender's context and hands
what arrives on that POST's stream to the session with the same context, where the tap reads the
mark back. Messages of the standalone GET stream, and of stdio and legacy SSE, carry no mark.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from mcp.shared.message import SessionMessage
from mcp_types import (
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)

RequestId = str | int

#: The code the SDK's transports give a request whose answer can never arrive.
CONNECTION_CLOSED = -32000
#: ``URLElicitationRequiredError``: its data lists URL-mode requests (2025-11-25).
URL_ELICITATION_REQUIRED = -32042
ELICITATION_COMPLETE = "notifications/elicitation/complete"
#: Server request ids remembered as answered (the oldest go first past this many).
MAX_FINISHED = 10_000
#: Requests remembered as open on a request's stream (a server that never lets one finish
#: cannot grow this without end).
MAX_OPEN = 10_000


class ServerRequests:
    """See the module docstring. ``on_replay(id, method)`` hears of each dropped replay, and
    ``on_unknown_completion(elicitation_id)`` of each completion dropped for an unknown id."""

    def __init__(
        self,
        on_replay: Callable[[RequestId, str], None],
        on_unknown_completion: Callable[[str], None] = lambda _id: None,
    ) -> None:
        self._on_replay = on_replay
        self._on_unknown_completion = on_unknown_completion
        #: The ``elicitationId`` of every URL-mode request that arrived, newest last (bounded).
        self._url_ids: OrderedDict[str, None] = OrderedDict()
        self._finished: OrderedDict[RequestId, None] = OrderedDict()
        #: Open server requests that came on one of our requests' streams: id -> our request id.
        self._open_on: OrderedDict[RequestId, RequestId] = OrderedDict()
        #: Replays already reported (once per id).
        self._reported: set[RequestId] = set()

    def incoming(self, item: SessionMessage, via: RequestId | None) -> list[SessionMessage]:
        """What the SDK gets for ``item``, which arrived on the stream of our request ``via``
        (``None``: no request's stream): nothing for a replay, withdrawals before an abandoned
        call's error, else the item."""
        message = item.message
        if isinstance(message, JSONRPCRequest):
            if message.id in self._finished:
                if message.id not in self._reported and len(self._reported) < MAX_FINISHED:
                    self._reported.add(message.id)
                    self._on_replay(message.id, message.method)
                return []
            if via is not None:
                self._open_on[message.id] = via
                while len(self._open_on) > MAX_OPEN:
                    self._open_on.popitem(last=False)
            params = message.params or {}
            if message.method == "elicitation/create" and params.get("mode") == "url":
                self._asked_for_url(params)
            return [item]
        if isinstance(message, JSONRPCNotification):
            return self._notification(item, message)
        if isinstance(message, JSONRPCError) and message.error.code == URL_ELICITATION_REQUIRED:
            data = message.error.data
            listed = data.get("elicitations") if isinstance(data, dict) else None
            for request in listed if isinstance(listed, list) else ():
                self._asked_for_url(request)
            return [item]
        if (
            isinstance(message, JSONRPCError)
            and message.error.code == CONNECTION_CLOSED
            and message.id is not None
            and self._open_on
        ):
            stranded = [key for key, on in self._open_on.items() if on == message.id]
            for key in stranded:
                self._finish(key)
            return [_withdrawal(key, message.error.message) for key in stranded] + [item]
        return [item]

    def _notification(
        self, item: SessionMessage, message: JSONRPCNotification
    ) -> list[SessionMessage]:
        params = message.params or {}
        if message.method == "notifications/cancelled":
            withdrawn = params.get("requestId")
            if isinstance(withdrawn, str | int) and not isinstance(withdrawn, bool):
                self._finish(withdrawn)
        elif message.method == ELICITATION_COMPLETE:
            ident = params.get("elicitationId")
            if isinstance(ident, str) and ident not in self._url_ids:
                self._on_unknown_completion(ident)
                return []
        return [item]

    def _asked_for_url(self, params: Any) -> None:
        ident = params.get("elicitationId") if isinstance(params, dict) else None
        if isinstance(ident, str):
            self._url_ids[ident] = None
            self._url_ids.move_to_end(ident)
            while len(self._url_ids) > MAX_FINISHED:
                self._url_ids.popitem(last=False)

    def outgoing(self, item: SessionMessage) -> None:
        """An answer to one of the server's requests finishes it."""
        message = item.message
        if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            self._finish(message.id)

    def _finish(self, request_id: RequestId) -> None:
        self._open_on.pop(request_id, None)
        self._finished[request_id] = None
        while len(self._finished) > MAX_FINISHED:
            self._finished.popitem(last=False)


def _withdrawal(request_id: RequestId, why: str) -> SessionMessage:
    """A ``notifications/cancelled`` for the server's request ``request_id``, as the server would
    send it: the SDK's own way to withdraw a request (callback cancelled, nothing answered)."""
    params = {"requestId": request_id, "reason": f"the stream it came on ended: {why}"}
    return SessionMessage(
        JSONRPCNotification(jsonrpc="2.0", method="notifications/cancelled", params=params)
    )
