"""A stdio server's stderr: captured through a pipe, never written to the terminal.

The SDK's ``stdio_client`` hands the child our real file descriptor 2 unless given ``errlog``; under
Textual that paints server output straight over the screen. :class:`StderrCapture` owns a pipe:
the write end becomes the child's stderr, and :meth:`StderrCapture.drain` reads the other end on the
event loop, emitting one :class:`~mcp_tui.session.events.StderrReceived` per line and appending the
raw bytes to a log file.

Everything is bounded, because a server can write without end: lines longer than ``max_line``
bytes are cut, and after ``cap_bytes`` in total the capture writes one note and then discards the
rest (it keeps reading, so the server never blocks on a full pipe). The last lines are kept in
:attr:`StderrCapture.tail` so a connection failure can quote them.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import deque
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TextIO

import anyio
import anyio.to_thread

from mcp_tui.session.events import EventSink, Notice, StderrReceived

DEFAULT_CAP_BYTES = 5 * 1024 * 1024
DEFAULT_MAX_LINE = 8 * 1024
_READ_SIZE = 64 * 1024
RECENT_LINES = 300
RECENT_CHARS = 500


class StderrCapture:
    """One server's stderr pipe, its drain, its bounded log file and its last lines."""

    def __init__(
        self,
        server: str,
        sink: EventSink,
        log_path: Path | None = None,
        *,
        cap_bytes: int = DEFAULT_CAP_BYTES,
        max_line: int = DEFAULT_MAX_LINE,
        tail_lines: int = 20,
    ) -> None:
        self.server = server
        self._sink = sink
        self.log_path = log_path
        self.cap_bytes = cap_bytes
        self.max_line = max_line
        self.tail: deque[str] = deque(maxlen=tail_lines)
        #: Lines emitted so far, and the last :data:`RECENT_LINES` of them (each cut to
        #: :data:`RECENT_CHARS`): a call marks :attr:`count` when it starts and reads what came
        #: since with :meth:`since` (a traceback runs to a hundred lines).
        self.count = 0
        self._recent: deque[str] = deque(maxlen=RECENT_LINES)
        self.bytes_seen = 0
        self.truncated = False
        self._read_fd: int | None = None
        self._write_file: TextIO | None = None
        self._log: IO[bytes] | None = None
        self._partial = b""
        self._partial_cut = False

    def redirect(self, sink: EventSink) -> None:
        """Send what is captured from now on to ``sink`` (a head-started server's connection
        adopts a capture that was opened before the connection existed)."""
        self._sink = sink

    # ---- the pipe -------------------------------------------------------------------------------

    def open(self) -> TextIO:
        """Create the pipe; the returned file is the ``errlog`` the child gets as its stderr."""
        read_fd, write_fd = os.pipe()
        self._read_fd = read_fd
        self._write_file = os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")
        if self.log_path is not None:
            try:
                self.log_path.parent.mkdir(parents=True, exist_ok=True)
                self._log = self.log_path.open("ab")
                stamp = datetime.now(UTC).isoformat(timespec="seconds")
                self._log.write(f"--- mcp-tui: {self.server} started {stamp} ---\n".encode())
                self._log.flush()
            except OSError as exc:
                self._log = None
                self._note(f"stderr log {self.log_path} could not be opened: {exc}")
        return self._write_file

    @property
    def write_end(self) -> TextIO | None:
        """The file :meth:`open` returned, until :meth:`close_write_end`."""
        return self._write_file

    def close_write_end(self) -> None:
        """Drop our copy of the write end once the child has its own, so EOF means it exited."""
        if self._write_file is not None:
            with contextlib.suppress(OSError):
                self._write_file.close()
            self._write_file = None

    # ---- the drain ------------------------------------------------------------------------------

    async def drain(self) -> None:
        """Read until every writer has closed the pipe (the server and its children exited)."""
        fd = self._read_fd
        if fd is None:
            return
        try:
            if sys.platform == "win32":  # pragma: no cover - no selector on Windows pipes
                while chunk := await anyio.to_thread.run_sync(
                    os.read, fd, _READ_SIZE, abandon_on_cancel=True
                ):
                    self.feed(chunk)
            else:
                os.set_blocking(fd, False)
                while True:
                    try:
                        chunk = os.read(fd, _READ_SIZE)
                    except BlockingIOError:
                        await anyio.wait_readable(fd)
                        continue
                    if not chunk:
                        break
                    self.feed(chunk)
                    await anyio.lowlevel.checkpoint()  # a flood must not starve the event loop
        except OSError as exc:
            self._note(f"reading the server's stderr failed: {exc}")
        finally:
            self.finish()

    def feed(self, chunk: bytes) -> None:
        """Account for, log and split one chunk of stderr."""
        if self.truncated:
            return
        room = self.cap_bytes - self.bytes_seen
        if len(chunk) > room:
            chunk = chunk[:room]
            self.truncated = True
        self.bytes_seen += len(chunk)
        if self._log is not None:
            try:
                self._log.write(chunk)
                self._log.flush()
            except OSError as exc:
                self._log = None
                self._note(f"stderr log stopped: {exc}")
        data = self._partial + chunk
        *lines, rest = data.split(b"\n")
        for line in lines:
            if self._partial_cut:  # the rest of a line already shown cut short: drop it
                self._partial_cut = False
                continue
            self._emit(line, cut=len(line) > self.max_line)
        if self._partial_cut:
            rest = b""
        elif len(rest) > self.max_line:  # an endless line: show its start, drop the rest of it
            self._emit(rest, cut=True)
            self._partial_cut = True
            rest = b""
        self._partial = rest
        if self.truncated:
            self._flush_partial()
            limit = f"{self.cap_bytes / (1024 * 1024):g} MiB"
            self._note(f"stderr limit of {limit} reached; further output is discarded")

    def finish(self) -> None:
        """EOF (or cancellation): emit the last unterminated line and release everything."""
        self._flush_partial()
        if self._read_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._read_fd)
            self._read_fd = None
        self.close_write_end()
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None

    # ---- helpers --------------------------------------------------------------------------------

    def _flush_partial(self) -> None:
        if self._partial and not self._partial_cut:
            self._emit(self._partial, cut=len(self._partial) > self.max_line)
        self._partial = b""
        self._partial_cut = False

    def _emit(self, raw: bytes, *, cut: bool) -> None:
        text = raw[: self.max_line].decode("utf-8", errors="replace").removesuffix("\r")
        if cut:
            text += " … [line cut]"
        self.tail.append(text)
        self.count += 1
        self._recent.append(text[:RECENT_CHARS])
        self._sink(StderrReceived(self.server, text))

    def since(self, mark: int) -> list[str]:
        """The lines emitted after :attr:`count` was ``mark`` (the last ones kept, if more)."""
        new = self.count - mark
        if new <= 0:
            return []
        return list(self._recent)[-new:]

    def _note(self, text: str) -> None:
        """Our own remark, in the log panel (in order) and as a notice (a flood of log lines can
        push it out of the bounded log buffers; notices are kept apart)."""
        line = f"[mcp-tui] {text}"
        if self._log is not None:
            try:
                self._log.write(f"\n{line}\n".encode())
                self._log.flush()
            except OSError:
                self._log = None
        self._sink(StderrReceived(self.server, line))
        self._sink(Notice(self.server, text, "warning"))
