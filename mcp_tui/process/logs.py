"""Where library logging goes, so nothing reaches the terminal by accident.

Python's ``logging`` has a last resort: a record with no handler anywhere up its logger chain is
written, unformatted, to ``sys.stderr``. The ``mcp`` SDK logs through loggers nobody configures
(``client``, ``mcp.*``: for example "dropping tool 'x': invalid x-mcp-header ..." on 2026-07-28),
so without a handler those lines land on stderr as they are: in headless runs unprefixed, with
server-controlled text (tool names) unescaped and even with ``--quiet``; in the TUI over the
screen.

- Headless (``call``/``list``): :func:`headless_logging` puts a :class:`OneLineHandler` on the root
  logger for the run — warnings and errors only, one line each, prefixed ``mcp-tui:``, escaped by
  ``mcp_tui.untrusted``, a repeated line printed once — or, with ``--quiet``, a handler that drops
  everything.
- TUI: :func:`tui_logging` sends warnings and errors to a file in the log directory (created on the
  first record, so a quiet run touches no file), escaped the same way; never to the terminal.

Both also replace ``logging.lastResort`` (used for loggers that do not propagate) and restore
everything on the way out, so tests and embedding callers keep their own logging.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from mcp_tui.untrusted import one_line

#: The TUI's log file, in ``paths.log_dir()``.
TUI_LOG_NAME = "mcp-tui.log"
#: Longest message a headless warning line shows.
LINE_LIMIT = 500
#: Distinct lines remembered for "print a repeated line once" (then the memory starts over).
_SEEN_LIMIT = 1000


def describe_record(record: logging.LogRecord) -> str:
    """``warning from client: dropping tool '\\e[2J': ...`` — one line, every unsafe char escaped.

    The message may carry server text (tool names, reasons); a traceback is reduced to the
    exception's type and message.
    """
    try:
        text = record.getMessage()
    except Exception:  # a bad %-format in a library must not break the run
        text = f"{record.msg!r} {record.args!r}"
    if record.exc_info and record.exc_info[1] is not None:
        exc = record.exc_info[1]
        text = f"{text} ({type(exc).__name__}: {exc})"
    level = record.levelname.lower()
    return f"{level} from {one_line(record.name, limit=80)}: {one_line(text, limit=LINE_LIMIT)}"


class OneLineHandler(logging.Handler):
    """Each record as one ``mcp-tui: ...`` line on ``stream``; an identical line only once."""

    def __init__(self, stream: TextIO, level: int = logging.WARNING) -> None:
        super().__init__(level)
        self.stream = stream
        self._seen: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = describe_record(record)
            if line in self._seen:
                return
            if len(self._seen) >= _SEEN_LIMIT:
                self._seen.clear()
            self._seen.add(line)
            self.stream.write(f"mcp-tui: {line}\n")
            self.stream.flush()
        except Exception:
            self.handleError(record)


class _EscapingFormatter(logging.Formatter):
    """``time level logger: message`` with the message on one escaped line."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{self.formatTime(record)} {describe_record(record)}"


class _LazyFileHandler(logging.FileHandler):
    """A file handler that creates its directory and file only when the first record comes."""

    def __init__(self, path: Path, level: int = logging.WARNING) -> None:
        super().__init__(path, encoding="utf-8", delay=True)
        self.setLevel(level)
        self.setFormatter(_EscapingFormatter())

    def _open(self):  # type: ignore[no-untyped-def]  # typeshed marks it private and untyped
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()

    def handleError(self, record: logging.LogRecord) -> None:
        """A log file we cannot write is not worth a traceback over the TUI: drop the record."""


@contextmanager
def routed_logging(handler: logging.Handler) -> Iterator[logging.Handler]:
    """Install ``handler`` on the root logger and as ``logging.lastResort``; undo it after."""
    root = logging.getLogger()
    previous_last_resort = logging.lastResort
    root.addHandler(handler)
    logging.lastResort = handler
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        logging.lastResort = previous_last_resort
        handler.close()


@contextmanager
def headless_logging(err: TextIO, quiet: bool) -> Iterator[logging.Handler]:
    """Library warnings as one escaped line each on ``err``; nothing at all when ``quiet``."""
    handler = logging.NullHandler() if quiet else OneLineHandler(err)
    with routed_logging(handler) as installed:
        yield installed


def tui_log_path() -> Path:
    from mcp_tui.config.paths import log_dir

    return log_dir() / TUI_LOG_NAME


@contextmanager
def tui_logging(path: Path | None = None) -> Iterator[logging.Handler]:
    """Library warnings to ``path`` (default: ``mcp-tui.log`` in the log directory), never to the
    terminal Textual draws on."""
    try:
        handler: logging.Handler = _LazyFileHandler(path or tui_log_path())
    except Exception:  # no usable log directory: silence rather than write over the screen
        handler = logging.NullHandler()
    with routed_logging(handler) as installed:
        yield installed
