"""The stdio transport, with a bound on message size (an SDK workaround; see ``sdk_workarounds``).

``mcp`` 2.3.0's ``stdio_client`` reads the server's stdout by concatenating decoded text until a
newline arrives, with no size limit: one 30 MiB line stalled a session for about ten seconds, and a
server writing without a newline grew the client without bound until it hung. A server is
untrusted, so mcp-tui uses this copy of the SDK transport whose only difference is the reader:

- it buffers **bytes** and scans each byte once for newlines (linear, not quadratic);
- a message longer than ``max_message_bytes`` (default 32 MiB) ends the connection: the reader
  hands the session a :class:`MessageTooLarge` (the connection reports it as the reason) and stops
  reading, so memory stays bounded by that limit plus one read;
- a line over ``big_json.LARGE_LINE`` is parsed in a worker thread by ``big_json`` (which lets the
  UI's thread run while it works, and keeps the first keys of an oversized ``_meta``), not on the
  event loop the UI shares: one 14 MB notification with 10^6 keys in ``_meta`` froze keys for
  seconds.

Everything else — spawning in a new process group, stdin writing, and the shutdown sequence (close
stdin, wait, SIGTERM, wait, SIGKILL; shielded and bounded) — calls the SDK's own functions, so a
fix there still reaches us. Those functions are private; ``tests/session/test_stdio_transport.py``
fails loudly if they move.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TextIO

import anyio
import anyio.abc
import anyio.lowlevel
import anyio.to_thread
from mcp.client._transport import TransportStreams
from mcp.client.stdio import (
    StdioServerParameters,
    _aclose_all,
    _create_platform_compatible_process,
    _drain_stdout,
    _get_executable_command,
    _stop_server_process,
    get_default_environment,
)
from mcp.os.win32.utilities import ServerProcess
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter
from pydantic import ValidationError

from mcp_tui.process.collector import Hold
from mcp_tui.session.big_json import LARGE_LINE, MAX_META_KEYS, JsonError, parse_large

DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024
_WRITER_FLUSH_TIMEOUT = 0.5
#: How long a server whose stdout closed is given to exit before the session is told.
EXIT_WAIT = 1.0


class MessageTooLarge(Exception):
    """The server sent a message (a stdout line) larger than the limit; the connection ends."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        mib = limit / (1024 * 1024)
        super().__init__(
            f"the server sent a message larger than {mib:g} MiB (or output with no line end); "
            "mcp-tui closed the connection to protect its memory"
        )


class InvalidLine(ValueError):
    """A stdout line that is not a JSON-RPC message; the connection goes on.

    Carries the start of the line (``line``, at most :data:`QUOTED_CHARS` characters, untrusted)
    and a short reason, instead of pydantic's error text (which repeats the whole input and a
    documentation link per union member).
    """

    def __init__(self, line: str, reason: str) -> None:
        self.line = line[:QUOTED_CHARS]
        self.length = len(line)
        self.reason = reason
        super().__init__(f"{reason}: {self.line!r}")


QUOTED_CHARS = 500


def parse_line(text: str) -> SessionMessage | InvalidLine:
    """One stdout line as a message, or an :class:`InvalidLine` value for the session to report.

    Unlike the SDK's ``_parse_line`` it logs nothing: the SDK logs every bad line with its full
    text and a traceback, which a server writing junk turns into a flood.
    """
    try:
        return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        if errors and errors[0].get("type") == "json_invalid":
            return InvalidLine(text, "a line that is not JSON")
        return InvalidLine(text, "JSON that is not a JSON-RPC 2.0 message")
    except ValueError:
        return InvalidLine(text, "a line that could not be read")


@dataclass
class LargeSessionMessage(SessionMessage):
    """A message read from a large line, with the JSON value it was read from (``_meta``
    bounded, as the session got it): the traffic record takes that value instead of dumping
    the model again on the event loop."""

    wire: Any = None


class MetaTrimmed(ValueError):
    """A large message's ``_meta`` had more than ``MAX_META_KEYS`` keys; the rest were dropped
    (the message itself goes on to the session)."""

    def __init__(self, where: str, keys: int) -> None:
        self.where = where
        self.keys = keys
        super().__init__(
            f"a message's {where} had {keys:,} keys: mcp-tui kept the first {MAX_META_KEYS:,}"
        )


def parse_large_line(text: str) -> list[SessionMessage | Exception]:
    """:func:`parse_line` for a line over ``LARGE_LINE``, run in a worker thread: the message,
    after a :class:`MetaTrimmed` per ``_meta`` that was cut (or an :class:`InvalidLine`)."""
    try:
        parsed = parse_large(text)
    except (JsonError, RecursionError):
        return [InvalidLine(text, "a line that is not JSON")]
    try:
        message = jsonrpc_message_adapter.validate_python(parsed.value, by_name=False)
    except ValidationError:
        return [InvalidLine(text, "JSON that is not a JSON-RPC 2.0 message")]
    trimmed: list[SessionMessage | Exception] = [MetaTrimmed(*cut) for cut in parsed.trimmed]
    return [*trimmed, LargeSessionMessage(message, wire=parsed.value)]


async def parse_any_line(text: str) -> list[SessionMessage | Exception]:
    """What one stdout line gives the session: large lines are parsed off the event loop."""
    if len(text) <= LARGE_LINE:
        return [parse_line(text)]
    # The collector waits: parsed JSON holds no reference cycles, and the full passes an
    # allocation burst of this size sets off (each one stopping the UI's thread too, with the
    # GIL) found nothing: 3 s of them for one 15 MB line.
    hold = Hold()
    try:
        return await anyio.to_thread.run_sync(parse_large_line, text, abandon_on_cancel=True)
    finally:
        hold.release()


def split_lines(buffer: bytearray, scan_from: int) -> tuple[list[bytes], int]:
    """Remove the complete lines from ``buffer`` and return them with the next scan position.

    Bytes before ``scan_from`` are known to hold no newline, so every byte is scanned once.
    """
    lines: list[bytes] = []
    start = 0
    while (end := buffer.find(b"\n", max(scan_from, start))) != -1:
        lines.append(bytes(buffer[start:end]))
        start = end + 1
    if start:
        del buffer[:start]
    return lines, len(buffer)


def describe_write_error(exc: BaseException) -> str:
    """A few words for a failed write to a server's stdin (``Broken pipe``, ...)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.strerror:
            return seen.strerror
        seen = seen.__cause__ or seen.__context__
    return "the server no longer reads its input"


@asynccontextmanager
async def bounded_stdio_client(
    server: StdioServerParameters,
    errlog: TextIO,
    *,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    on_undelivered: Callable[[SessionMessage, str], None] | None = None,
    process: anyio.abc.Process | None = None,
    on_exit: Callable[[int], None] | None = None,
) -> AsyncIterator[TransportStreams]:
    """``mcp.client.stdio.stdio_client`` with a bounded, linear stdout reader.

    ``on_undelivered(message, reason)`` hears of the message being written when writing to the
    server's stdin failed (it exited or closed its stdin): the SDK would drop it silently. The
    connection then ends; later sends fail in the caller, where the tap reports them.
    ``process``: the server already spawned (``head_start``, with ``errlog`` as its stderr);
    otherwise it is spawned here as the SDK does. ``on_exit(returncode)`` hears how the server
    ended when its stdout closes, *before* the session sees the end, so a call failed by the
    crash can name it (a server that closes its stdout and lives on is waited for
    :data:`EXIT_WAIT` seconds, then the session ends without it).
    """
    server_process: ServerProcess
    if process is None:
        command = await _get_executable_command(server.command)
        server_process = await _create_platform_compatible_process(
            command=command,
            args=server.args,
            env=get_default_environment() | (server.env or {}),
            errlog=errlog,
            cwd=server.cwd,
        )
    else:
        server_process = process
    # No awaits until the task group is entered (a cancellation here would leak the process).
    read_stream_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](
        0
    )
    write_stream, write_stream_reader = anyio.create_memory_object_stream[SessionMessage](0)
    writer_done = anyio.Event()

    async def stdout_reader() -> None:
        assert server_process.stdout is not None
        buffer = bytearray()
        scan_from = 0
        try:
            async with read_stream_writer:
                async for chunk in server_process.stdout:
                    buffer += chunk
                    lines, scan_from = split_lines(buffer, scan_from)
                    for raw in lines:
                        text = raw.decode(server.encoding, server.encoding_error_handler)
                        for item in await parse_any_line(text):
                            await read_stream_writer.send(item)
                    if len(buffer) > max_message_bytes:
                        buffer.clear()
                        await read_stream_writer.send(MessageTooLarge(max_message_bytes))
                        break  # closing the read stream ends the session
                else:  # end of output: the server exited, most likely
                    with anyio.move_on_after(EXIT_WAIT):
                        await server_process.wait()
                    if server_process.returncode is not None and on_exit is not None:
                        on_exit(server_process.returncode)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError):
            pass  # the session is gone, or shutdown closed the pipe under the read
        finally:
            # Discard the rest (closing the read stream first, so the session sees the end),
            # so a server blocked writing stdout can still exit.
            await _drain_stdout(server_process)

    async def stdin_writer() -> None:
        assert server_process.stdin is not None
        writing: SessionMessage | None = None
        try:
            async with write_stream_reader:
                async for session_message in write_stream_reader:
                    writing = session_message
                    json = session_message.message.model_dump_json(
                        by_alias=True, exclude_unset=True
                    )
                    data = (json + "\n").encode(server.encoding, server.encoding_error_handler)
                    await server_process.stdin.send(data)
                    writing = None
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError) as exc:
            if writing is not None and on_undelivered is not None:
                on_undelivered(
                    writing, f"writing to the server failed: {describe_write_error(exc)}"
                )
            await read_stream_writer.aclose()
        finally:
            writer_done.set()

    async def shutdown() -> None:
        read_stream.close()
        write_stream.close()
        with anyio.move_on_after(_WRITER_FLUSH_TIMEOUT):
            await writer_done.wait()
        await _stop_server_process(server_process)
        await _aclose_all(read_stream, write_stream, read_stream_writer, write_stream_reader)
        await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as tg:
        tg.start_soon(stdout_reader)
        tg.start_soon(stdin_writer)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await shutdown()
            tg.cancel_scope.cancel()
    await anyio.lowlevel.cancel_shielded_checkpoint()
