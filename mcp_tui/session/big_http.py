"""Large HTTP messages read off the event loop, with ``_meta`` bounded (an SDK workaround; see
``sdk_workarounds`` item 7).

The SDK's Streamable HTTP and legacy SSE transports parse each message with pydantic's JSON
parser on the event loop: C code that holds the interpreter for the whole text, so one 14 MB
notification with 10^6 keys in ``_meta`` froze the UI for seconds, and the SDK then validated
every one of those keys, again on the loop. The stdio transport solves this at its line reader
(``stdio_transport``); over HTTP the SDK owns the reading, so mcp-tui wraps what it reads from:
the ``httpx2`` response. :class:`BigPayloads` is a response hook that puts
:class:`ShrinkingStream` between the network and the SDK for SSE and JSON bodies. Everything
passes through byte for byte, except a message over ``big_json.LARGE_LINE`` characters (one SSE
``data:`` line, or a whole JSON body) whose ``_meta`` is too big: that one is parsed by
``big_json`` in a worker thread (which lets the UI's thread run between small steps), and the SDK
is handed the same message with each ``_meta`` cut to its first ``MAX_META_KEYS`` keys, written
compactly — small, so its own parse and validation are quick. The SDK still does all the framing:
this only looks for lines that start with ``data:``.

What is not shrunk goes to the SDK unchanged: a large message without an oversized ``_meta``
(the SDK parses it, on the loop, as before), anything that is not JSON, a compressed body, and a
line longer than the SDK's own event limit (its error stays the SDK's).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable

import anyio.to_thread
import httpx2

from mcp_tui.session.big_json import LARGE_LINE, JsonError, parse_large

#: ``(where, keys it had)`` for each ``_meta`` cut; see ``big_json.ParsedLarge.trimmed``.
Trimmed = list[tuple[str, int]]

_DATA = b"data:"


def shrink(payload: bytes) -> tuple[bytes, Trimmed] | None:
    """``payload`` (one JSON message) written again with each oversized ``_meta`` cut, or
    ``None`` when nothing was cut (or it is not JSON): the caller passes the original on.

    Runs in a worker thread: ``big_json`` lets the event loop's thread run meanwhile.
    """
    try:
        parsed = parse_large(payload.decode("utf-8"))
    except (UnicodeDecodeError, JsonError, RecursionError):
        return None
    if not parsed.trimmed:
        return None
    text = json.dumps(parsed.value, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8"), parsed.trimmed


class ShrinkingStream(httpx2.AsyncByteStream):
    """A response body as the SDK reads it, with large messages shrunk (see the module).

    ``sse``: the body is an event stream, read line by line (a small line goes on as soon as
    it is complete); otherwise it is one JSON message. ``limit``: a line or body longer than
    this passes through as it is, unread by us.
    """

    def __init__(
        self,
        inner: httpx2.AsyncByteStream,
        *,
        sse: bool,
        on_trimmed: Callable[[Trimmed], None],
        limit: int,
    ) -> None:
        self._inner = inner
        self._sse = sse
        self._on_trimmed = on_trimmed
        self._limit = limit

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._sse:
            async for chunk in self._lines():
                yield chunk
        else:
            async for chunk in self._body():
                yield chunk

    async def _shrunk(self, payload: bytes) -> bytes | None:
        result = await anyio.to_thread.run_sync(shrink, payload, abandon_on_cancel=True)
        if result is None:
            return None
        self._on_trimmed(result[1])
        return result[0]

    async def _body(self) -> AsyncIterator[bytes]:
        body = bytearray()
        passing = False  # too big to hold: the rest goes through as it comes
        async for chunk in self._inner:
            if passing:
                yield chunk
                continue
            body += chunk
            if len(body) > self._limit:
                yield bytes(body)
                body.clear()
                passing = True
        if not body:
            return
        if len(body) > LARGE_LINE:
            shrunk = await self._shrunk(bytes(body))
            if shrunk is not None:
                yield shrunk
                return
        yield bytes(body)

    async def _lines(self) -> AsyncIterator[bytes]:
        line = bytearray()  # the line being read (no newline yet)
        passing = False  # the current line is too long to hold: it goes through as it comes
        async for chunk in self._inner:
            ready: list[bytes] = []  # complete small lines: one piece per chunk read
            start = 0
            while start < len(chunk):
                end = chunk.find(b"\n", start)
                stop = len(chunk) if end < 0 else end + 1
                piece, start = chunk[start:stop], stop
                if passing:
                    ready.append(piece)
                    passing = end < 0
                elif end < 0:
                    line += piece
                    if len(line) > self._limit:
                        ready.append(bytes(line))
                        line.clear()
                        passing = True
                elif not line and (len(piece) <= LARGE_LINE or not piece.startswith(_DATA)):
                    ready.append(piece)
                else:
                    line += piece
                    if ready:
                        yield b"".join(ready)
                        ready.clear()
                    yield await self._line(bytes(line))
                    line.clear()
            if ready:
                yield b"".join(ready)
        if line:
            yield bytes(line)

    async def _line(self, line: bytes) -> bytes:
        """One complete line (newline included), shrunk if it is a large ``data:`` line."""
        if len(line) <= LARGE_LINE or not line.startswith(_DATA):
            return line
        body = line[len(_DATA) :].rstrip(b"\r\n")
        ending = line[len(_DATA) + len(body) :]
        shrunk = await self._shrunk(body.removeprefix(b" "))
        return line if shrunk is None else _DATA + b" " + shrunk + ending


class BigPayloads:
    """The response hook that puts :class:`ShrinkingStream` under the SDK's reading.

    ``on_trimmed`` hears of each message whose ``_meta`` was cut (the connection says so in the
    transcript); ``limit`` is the SDK's own bound on one message.
    """

    def __init__(self, on_trimmed: Callable[[Trimmed], None], limit: int) -> None:
        self._on_trimmed = on_trimmed
        self._limit = limit

    def watch(self, client: httpx2.AsyncClient) -> None:
        hooks = client.event_hooks
        hooks["response"] = [*hooks.get("response", []), self.hook]
        client.event_hooks = hooks

    async def hook(self, response: httpx2.Response) -> None:
        kind = response.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind not in ("text/event-stream", "application/json"):
            return
        if response.headers.get("content-encoding", "identity").strip().lower() != "identity":
            return  # compressed: the bytes here are not the text; left to the SDK
        stream = response.stream
        if not isinstance(stream, httpx2.AsyncByteStream):
            return
        response.stream = ShrinkingStream(
            stream, sse=kind == "text/event-stream", on_trimmed=self._on_trimmed, limit=self._limit
        )
