"""One place where every JSON-RPC message in and out of a connection passes, on every transport.

:func:`tapped` wraps any SDK transport (stdio, Streamable HTTP, SSE): the SDK's dispatcher reads
and writes through :class:`TapReadStream` / :class:`TapWriteStream`, which hand each
``SessionMessage`` to a :class:`MessageTap` first. ``connection.py`` uses it to record traffic
(the ``--log`` file and the traffic view), to apply the SDK workaround for results without
``resultType``, and to learn that the server closed the connection (end of the read stream),
which the SDK itself does not report.

A message the transport would not take (the connection is closed, or the server stopped
reading) is handed to :meth:`MessageTap.undelivered` before the error goes on to the SDK, which
drops failed response writes with only a debug log: an elicitation answer the user typed must not
vanish that way. A response (an answer to the server's request) is handed over shielded from
cancellation, for at most :data:`RESPONSE_SEND_GRACE` seconds, so an answer given just as the
connection closes is either written or reported as not delivered — never lost in between.

The wrappers forward ``last_context`` (the sender's ``contextvars`` snapshot that the SDK's
streams carry), so the SDK's context propagation — which links a Streamable HTTP response to the
task that sent its request — keeps working through them. The write side marks each request it
sends with :data:`SENT_WITH`; the read side reads the mark back from ``last_context`` and tells
the tap which of our requests' streams an item came on (``server_requests.py`` uses it). The tap
may hand the SDK nothing for an item (a replayed request) or more than it (a withdrawal first).
"""

from __future__ import annotations

import contextvars
from collections import deque
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Protocol, Self

import anyio
from mcp.client._transport import ReadStream, Transport, TransportStreams, WriteStream
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCRequest, JSONRPCResponse

#: How long a response may wait for the transport to take it (a server that does not read its
#: stdin blocks the writer); well under the connection's close grace.
RESPONSE_SEND_GRACE = 5.0
#: The reason given for a message sent after the transport had closed.
ALREADY_CLOSED = "the connection was already closed"

#: The id of the request being written, in the writer's context while it is handed to the
#: transport: a context-carrying transport (Streamable HTTP) gives what arrives on that request's
#: stream the same context, so the mark says which request's stream an incoming item came on.
SENT_WITH: contextvars.ContextVar[str | int | None] = contextvars.ContextVar(
    "mcp_tui_sent_with", default=None
)


class MessageTap(Protocol):
    """Sees every message; says what the SDK gets for an incoming one (none, it, or more)."""

    def incoming(
        self, item: SessionMessage | Exception, via: str | int | None = None
    ) -> Sequence[SessionMessage | Exception]:
        """``via``: the id of our request on whose stream ``item`` came (:data:`SENT_WITH`)."""
        ...

    def outgoing(self, message: SessionMessage) -> None: ...

    def ended(self) -> None:
        """The read stream ended: the server closed the connection (or we did)."""
        ...

    def undelivered(self, message: SessionMessage, reason: str) -> None:
        """``message`` (already passed to :meth:`outgoing`) was not delivered, for ``reason``."""
        ...


class _ClosedOnExit:
    """``async with stream``: the stream, closed on the way out (what the SDK's streams do)."""

    async def aclose(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


class TapReadStream(_ClosedOnExit):
    """The SDK reads from this; each item goes through the tap first."""

    def __init__(self, inner: ReadStream[SessionMessage | Exception], tap: MessageTap) -> None:
        self._inner = inner
        self._tap = tap
        self._ended = False
        self._ready: deque[SessionMessage | Exception] = deque()

    @property
    def last_context(self) -> contextvars.Context | None:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        while not self._ready:
            try:
                item = await self._inner.receive()
            except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                self._end()
                raise
            context = self.last_context
            via = context.get(SENT_WITH) if context is not None else None
            self._ready.extend(self._tap.incoming(item, via))
        return self._ready.popleft()

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            self._tap.ended()

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class TapWriteStream(_ClosedOnExit):
    """The SDK writes to this; each message goes through the tap, then to the transport."""

    def __init__(self, inner: WriteStream[SessionMessage], tap: MessageTap) -> None:
        self._inner = inner
        self._tap = tap

    async def send(self, item: SessionMessage, /) -> None:
        # Tapped before sending, so a response can never be seen before its request. Sent from
        # the caller's task, so a context-carrying inner stream still snapshots its contextvars,
        # the request's own id among them (``SENT_WITH``; nothing for anything else).
        self._tap.outgoing(item)
        token = SENT_WITH.set(item.message.id if isinstance(item.message, JSONRPCRequest) else None)
        try:
            await self._send(item)
        finally:
            SENT_WITH.reset(token)

    async def _send(self, item: SessionMessage) -> None:
        if not isinstance(item.message, JSONRPCResponse | JSONRPCError):
            try:
                await self._inner.send(item)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._tap.undelivered(item, ALREADY_CLOSED)
                raise
            return
        # A response: the SDK writes it after the handler returned, possibly while the connection
        # is being torn down. Unshielded, a cancellation could drop it silently, or raise after
        # the transport took it (so it could not even be reported truthfully).
        with anyio.move_on_after(RESPONSE_SEND_GRACE, shield=True) as waited:
            try:
                await self._inner.send(item)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                self._tap.undelivered(item, ALREADY_CLOSED)
                raise
        if waited.cancelled_caught:
            self._tap.undelivered(
                item, f"the server did not read its input for {RESPONSE_SEND_GRACE:g} s"
            )
            raise anyio.BrokenResourceError

    async def aclose(self) -> None:
        await self._inner.aclose()


@asynccontextmanager
async def tapped(inner: Transport, tap: MessageTap) -> AsyncIterator[TransportStreams]:
    """Enter ``inner`` and yield tapped streams in place of its own."""
    async with inner as (read_stream, write_stream):
        yield TapReadStream(read_stream, tap), TapWriteStream(write_stream, tap)
