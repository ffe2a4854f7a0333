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
"""

from __future__ import annotations

import contextlib
import json
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

    def record(self, server: str, direction: Direction, message: dict[str, Any]) -> None:
        """Write one message (a JSON-able dict, as on the wire)."""
        self._write({"t": _now(), "server": server, "dir": direction, "message": message})

    def record_error(self, server: str, direction: Direction, error: str) -> None:
        """Write a line for something that was not a JSON-RPC message (e.g. a malformed line)."""
        self._write({"t": _now(), "server": server, "dir": direction, "error": error})

    def _write(self, entry: dict[str, Any]) -> None:
        if self._file is None:
            return
        try:
            line = json.dumps(entry, ensure_ascii=True, default=repr)
        except ValueError:  # circular structure: keep the line, lose the detail
            line = json.dumps({**entry, "message": repr(entry.get("message"))}, ensure_ascii=True)
        try:
            self._file.write(line + "\n")
            self._file.flush()
            self.lines_written += 1
        except OSError as exc:
            self.failure = f"traffic log {self.path} stopped: {exc}"
            self.close()

    def close(self) -> None:
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
