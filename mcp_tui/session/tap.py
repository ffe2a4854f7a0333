"""One place where every JSON-RPC message in and out of a connection passes, on every transport.

:func:`tapped` wraps any SDK transport (stdio, Streamable HTTP, SSE): the SDK's dispatcher reads
and writes through :class:`TapReadStream` / :class:`TapWriteStream`, which hand each
``SessionMessage`` to a :class:`MessageTap` first. ``connection.py`` uses it to record traffic
(the ``--log`` file and the traffic view), to apply the SDK workaround for results without
``resultType``, and to learn that the server closed the connection (end of the read stream),
which the SDK itself does not report.

The wrappers forward ``last_context`` (the sender's ``contextvars`` snapshot that the SDK's
streams carry), so the SDK's context propagation — which links a Streamable HTTP response to the
task that sent its request — keeps working through them.
"""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Protocol, Self

import anyio
from mcp.client._transport import ReadStream, Transport, TransportStreams, WriteStream
from mcp.shared.message import SessionMessage


class MessageTap(Protocol):
    """Sees every message; may replace an incoming one (the replacement is what the SDK gets)."""

    def incoming(self, item: SessionMessage | Exception) -> SessionMessage | Exception: ...

    def outgoing(self, message: SessionMessage) -> None: ...

    def ended(self) -> None:
        """The read stream ended: the server closed the connection (or we did)."""
        ...


class TapReadStream:
    """The SDK reads from this; each item goes through the tap first."""

    def __init__(self, inner: ReadStream[SessionMessage | Exception], tap: MessageTap) -> None:
        self._inner = inner
        self._tap = tap
        self._ended = False

    @property
    def last_context(self) -> contextvars.Context | None:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        try:
            item = await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._end()
            raise
        return self._tap.incoming(item)

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


class TapWriteStream:
    """The SDK writes to this; each message goes through the tap, then to the transport."""

    def __init__(self, inner: WriteStream[SessionMessage], tap: MessageTap) -> None:
        self._inner = inner
        self._tap = tap

    async def send(self, item: SessionMessage, /) -> None:
        # Tapped before sending, so a response can never be seen before its request. Sent from
        # the caller's task, so a context-carrying inner stream still snapshots its contextvars.
        self._tap.outgoing(item)
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

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


@asynccontextmanager
async def tapped(inner: Transport, tap: MessageTap) -> AsyncIterator[TransportStreams]:
    """Enter ``inner`` and yield tapped streams in place of its own."""
    async with inner as (read_stream, write_stream):
        yield TapReadStream(read_stream, tap), TapWriteStream(write_stream, tap)
