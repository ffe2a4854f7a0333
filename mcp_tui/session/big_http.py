"""Large HTTP messages read off the event loop, with ``_meta`` bounded (an SDK workaround; see
``sdk_workarounds`` item 7).

The SDK's Streamable HTTP and legacy SSE transports parse each message with pydantic's JSON
parser on the event loop: C code that holds the interpreter for the whole text, so one 14 MB
notification with 10^6 keys in ``_meta`` froze the UI for seconds (and the SDK then validated
every one of those keys, again on the loop). The stdio transport solves this at its line reader
(``stdio_transport``); over HTTP the SDK owns the reading, so mcp-tui wraps what it reads from:
the ``httpx2`` response. :class:`BigPayloads` is a response hook that puts
:class:`ShrinkingStream` between the network and the SDK for SSE and JSON bodies. Everything
passes through byte for byte, except a message over ``big_json.LARGE_LINE`` characters (one SSE
``data:`` line, or a whole JSON body): ``big_json`` parses it in a worker thread (which lets the
UI's thread run between small steps; each ``_meta`` keeps its first ``MAX_META_KEYS`` keys) and
the SDK is handed a **stand-in**, a small message of the same kind (method and id kept) whose
``_meta`` names it. The SDK parses and routes the stand-in; the connection's tap
(``recording.ConnectionTap``) swaps the parsed message back in with :meth:`BigPayloads.restore`
before anything else sees it, exactly as the stdio reader hands it over (a
``LargeSessionMessage`` carrying the parsed value, so the traffic record never dumps it again).
The SDK still does all the framing: this only looks for lines that start with ``data:``.

A large body that is not a JSON-RPC request, notification or result (an error, or not JSON)
goes to the SDK as before (with ``_meta`` cut, if it was), as do a compressed body and a line
longer than the SDK's own limit (its error stays the SDK's).
"""

from __future__ import annotations

import itertools
import json
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio.to_thread
import httpx2
from mcp.shared.message import SessionMessage
from mcp_types import (
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError

from mcp_tui.process.collector import Hold
from mcp_tui.session.big_json import LARGE_LINE, JsonError, ParsedLarge, parse_large
from mcp_tui.session.stdio_transport import LargeSessionMessage

#: ``(where, keys it had)`` for each ``_meta`` cut; see ``big_json.ParsedLarge.trimmed``.
Trimmed = list[tuple[str, int]]

_DATA = b"data:"
#: The ``_meta`` key of a stand-in (:meth:`BigPayloads.stand_in`).
STAND_IN = "io.github.mcp-tui/parsed"
#: Parsed messages kept for their stand-ins at most (the SDK reads them in order, at once).
MAX_WAITING = 16


def parse(payload: bytes) -> ParsedLarge | None:
    """``payload`` (one JSON message) read by ``big_json`` (``_meta`` bounded), or ``None``
    when it is not JSON (the caller passes the original on, for the SDK to refuse).

    Runs in a worker thread: ``big_json`` lets the event loop's thread run meanwhile.
    """
    try:
        return parse_large(payload.decode("utf-8"))
    except (UnicodeDecodeError, JsonError, RecursionError):
        return None


def compact(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


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
        stand_in: Callable[[Any], bytes | None] = lambda _value: None,
    ) -> None:
        self._inner = inner
        self._sse = sse
        self._on_trimmed = on_trimmed
        self._limit = limit
        self._stand_in = stand_in

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
        """What the SDK gets for a large message: a stand-in for the parsed message, or it
        written again with ``_meta`` cut, or ``None`` (the original)."""
        hold = Hold()  # as ``stdio_transport.parse_any_line``: no cycles to find in parsed JSON
        try:
            parsed = await anyio.to_thread.run_sync(parse, payload, abandon_on_cancel=True)
        finally:
            hold.release()
        if parsed is None:
            return None
        if parsed.trimmed:
            self._on_trimmed(parsed.trimmed)
        stand_in = self._stand_in(parsed.value)
        if stand_in is not None:
            return stand_in
        if not parsed.trimmed:
            return None
        return await anyio.to_thread.run_sync(compact, parsed.value, abandon_on_cancel=True)

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
    """The response hook that puts :class:`ShrinkingStream` under the SDK's reading, and the
    keeper of the large messages it parsed (:meth:`stand_in`, :meth:`restore`).

    ``on_trimmed`` hears of each message whose ``_meta`` was cut (the connection says so in the
    transcript); ``limit`` is the SDK's own bound on one message.
    """

    def __init__(self, on_trimmed: Callable[[Trimmed], None], limit: int) -> None:
        self._on_trimmed = on_trimmed
        self._limit = limit
        #: Parsed messages waiting for their stand-in to come out of the SDK (bounded).
        self._waiting: OrderedDict[str, Any] = OrderedDict()
        self._tickets = itertools.count(1)
        #: Tickets a server cannot guess: its own ``_meta`` can never name a waiting message.
        self._nonce = secrets.token_hex(8)

    def stand_in(self, value: Any) -> bytes | None:
        """A small message of the same kind for the SDK to parse in place of ``value`` (a
        request, notification or result), or ``None`` when ``value`` is none of those."""
        if not isinstance(value, dict) or value.get("jsonrpc") != "2.0":
            return None
        request_id = value.get("id")
        if request_id is not None and (
            isinstance(request_id, bool) or not isinstance(request_id, str | int)
        ):
            return None
        ticket = f"{self._nonce}-{next(self._tickets)}"
        marker = {"_meta": {STAND_IN: ticket}}
        method = value.get("method")
        if isinstance(method, str) and isinstance(value.get("params", {}), dict):
            shape: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": marker}
            if request_id is not None:
                shape["id"] = request_id
        elif request_id is not None and isinstance(value.get("result"), dict):
            shape = {"jsonrpc": "2.0", "id": request_id, "result": marker}
        else:
            return None
        self._waiting[ticket] = value
        while len(self._waiting) > MAX_WAITING:
            self._waiting.popitem(last=False)
        return compact(shape)

    def restore(self, item: SessionMessage) -> SessionMessage | Exception:
        """``item`` as the SDK read it; for a stand-in, the message it stands for (built from
        the parsed value: a shallow check of the envelope, no second parse)."""
        message = item.message
        if isinstance(message, JSONRPCRequest | JSONRPCNotification):
            body: Any = message.params
        elif isinstance(message, JSONRPCResponse):
            body = message.result
        else:
            return item
        meta = body.get("_meta") if isinstance(body, dict) else None
        ticket = meta.get(STAND_IN) if isinstance(meta, dict) else None
        if not isinstance(ticket, str) or ticket not in self._waiting:
            return item
        value = self._waiting.pop(ticket)
        if isinstance(message, JSONRPCResponse):  # the SDK may have put its own id back
            value = {**value, "id": message.id}
        try:
            restored = jsonrpc_message_adapter.validate_python(value, by_name=False)
        except ValidationError as exc:
            return exc
        return LargeSessionMessage(restored, metadata=item.metadata, wire=value)

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
            stream,
            sse=kind == "text/event-stream",
            on_trimmed=self._on_trimmed,
            limit=self._limit,
            stand_in=self.stand_in,
        )
