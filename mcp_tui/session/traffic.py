"""The ``--log`` file: every JSON-RPC message in and out, as JSON Lines, flushed per message.

One :class:`TrafficLog` may be shared by every connection of a run (each line names its server).
Each line is written and flushed as the message passes, so a crash loses nothing already sent or
received. The file is for people and scripts debugging a server, so it keeps the message exactly as
it went over the wire (``exclude_unset``), and is pure ASCII (``ensure_ascii``): a server's escape
sequences stay escaped when someone ``cat``s the log in a terminal.

Line shape::

    {"t": "2026-01-31T09:00:00.123+00:00", "server": "name", "dir": "out", "message": {...}}

A line the server sent that is not JSON-RPC at all is logged with ``"error"`` instead of
``"message"``. Nothing here imports ``mcp``: the CLI may open the log before the SDK is loaded.

A large message (``record(..., large=True)``: one read from a line over a megabyte) is encoded and
written by a writer thread with Python's incremental encoder, which lets the UI's thread run
meanwhile (``json.dumps`` would hold the interpreter for the whole message: seconds for 10^6
keys). Lines recorded while such a write is under way queue behind it, so the file keeps the
order; :meth:`TrafficLog.close` waits for them.
"""

from __future__ import annotations

import contextlib
import json
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

Direction = Literal["in", "out"]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class TrafficLog:
    """Appends JSON Lines to ``path``; a write failure disables the log instead of failing calls.

    A traffic log is an aid: if the disk fills up or the file vanishes, the session carries on and
    :attr:`failure` says why logging stopped (the UI can show it).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = self.path.open("a", encoding="ascii", newline="\n")
        self.failure: str | None = None
        self.lines_written = 0
        self._writer: ThreadPoolExecutor | None = None
        self._last_queued: Future[None] | None = None

    def record(
        self, server: str, direction: Direction, message: dict[str, Any], *, large: bool = False
    ) -> None:
        """Write one message (a JSON-able dict, as on the wire); a ``large`` one from the writer
        thread."""
        entry = {"t": _now(), "server": server, "dir": direction, "message": message}
        self._put(entry, large)

    def record_error(self, server: str, direction: Direction, error: str) -> None:
        """Write a line for something that was not a JSON-RPC message (e.g. a malformed line)."""
        self._put({"t": _now(), "server": server, "dir": direction, "error": error}, False)

    def _put(self, entry: dict[str, Any], large: bool) -> None:
        behind = self._last_queued is not None and not self._last_queued.done()
        if not (large or behind):
            self._write(entry)
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="traffic-log")
        self._last_queued = self._writer.submit(self._write, entry, incremental=large)

    def _write(self, entry: dict[str, Any], incremental: bool = False) -> None:
        if self._file is None:
            return
        try:
            if incremental:
                encoder = json.JSONEncoder(ensure_ascii=True, default=repr)
                line = "".join(encoder.iterencode(entry))
            else:
                line = json.dumps(entry, ensure_ascii=True, default=repr)
        except ValueError:  # circular structure: keep the line, lose the detail
            line = json.dumps({**entry, "message": repr(entry.get("message"))}, ensure_ascii=True)
        try:
            self._file.write(line + "\n")
            self._file.flush()
            self.lines_written += 1
        except OSError as exc:
            self.failure = f"traffic log {self.path} stopped: {exc}"
            self._close_file()  # not close(): this may be the writer thread

    def close(self) -> None:
        """Write what is queued, then close the file."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        self._close_file()

    def _close_file(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None

    @property
    def closed(self) -> bool:
        return self._file is None

    def __enter__(self) -> TrafficLog:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
