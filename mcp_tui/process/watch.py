"""Watching a server's files (``--watch``): one batch of changed files per burst of edits.

A server author edits ``server.py``, saves, and wants the server restarted (the TUI's ``--watch``)
or the tests run again (``mcp-tui test --watch``). The operating system's file events come
from ``watchfiles`` (inotify on Linux, FSEvents, ReadDirectoryChangesW; no polling by hand),
which also leaves out what editors and Python write beside a save: swap and backup files,
``__pycache__``, ``.git``, virtualenvs. An editor's save is several events (a temporary file
written, renamed, its metadata touched) and ``git checkout`` is hundreds: they are grouped until
:data:`QUIET_MS` pass without another, so one save is one restart.

Pure: no Textual, no MCP SDK; ``watchfiles`` is imported when watching starts, never on the way
to the first frame.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path

#: A burst of events ends once this many milliseconds pass without another.
QUIET_MS = 300
#: ... or, for a burst that never pauses, after this many (watchfiles' ``debounce``).
LONGEST_BURST_MS = 2000
#: The watcher's thread comes back this often with nothing changed; the first time says the
#: watches are in place (:func:`watch_files`' ``armed``), which a test waits for before editing.
IDLE_MS = 500


async def watch_files(
    paths: Sequence[Path],
    *,
    armed: Callable[[], None] | None = None,
    quiet_ms: int = QUIET_MS,
    longest_ms: int = LONGEST_BURST_MS,
) -> AsyncIterator[tuple[Path, ...]]:
    """Yield the files changed (added, modified, deleted) under ``paths``, one sorted tuple per
    burst of changes, until the caller stops iterating or the task is cancelled.

    A path may be a file or a directory (watched recursively). ``armed`` is called once, when the
    watches are known to be in place (changes from then on are seen). Cancelling the task stops
    the watcher's thread within ``quiet_ms``.
    """
    from watchfiles import awatch

    async for changes in awatch(
        *paths, debounce=longest_ms, step=quiet_ms, rust_timeout=IDLE_MS, yield_on_timeout=True
    ):
        if armed is not None:
            armed()
            armed = None
        files = _worth_naming({Path(path) for _, path in changes})
        if files:
            yield files


def watch_files_sync(
    paths: Sequence[Path], *, quiet_ms: int = QUIET_MS, longest_ms: int = LONGEST_BURST_MS
) -> Iterator[tuple[Path, ...]]:
    """:func:`watch_files` for a program with no event loop between its runs (``mcp-tui test
    --watch``): the watches stay in place while the caller works, so a change made meanwhile is
    the next burst. An empty tuple comes every :data:`IDLE_MS` with nothing changed: the first
    says the watches are in place (take one before working). Ctrl+C ends it
    (``KeyboardInterrupt``)."""
    from watchfiles import watch

    for changes in watch(
        *paths, debounce=longest_ms, step=quiet_ms, rust_timeout=IDLE_MS, yield_on_timeout=True
    ):
        yield _worth_naming({Path(path) for _, path in changes}) if changes else ()


def _worth_naming(paths: set[Path]) -> tuple[Path, ...]:
    """The files of one burst, sorted, without those gone by its end (``sed -i``'s and other
    tools' temporary files, created and renamed away) unless every one is gone (deleted)."""
    there = sorted(path for path in paths if path.exists())
    return tuple(there) if there else tuple(sorted(paths))


def changed_text(files: Sequence[Path], roots: Sequence[Path] = ()) -> str:
    """The changed files for a sentence: ``server.py``, ``server.py and util.py``, ``server.py
    and 3 more files``; each named relative to the watched directory it is under (else by
    name)."""
    names = [_shown(path, roots) for path in files]
    if not names:
        return "a watched file"
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} and {len(names) - 1} more files"


def _shown(path: Path, roots: Sequence[Path]) -> str:
    for root in roots:
        if root.is_dir():
            try:
                relative = path.resolve().relative_to(root.resolve())
            except (ValueError, OSError):
                continue
            return str(relative) if str(relative) != "." else path.name
    return path.name


def check_watch_paths(paths: Sequence[Path]) -> list[str]:
    """Problems with ``--watch`` paths, one sentence each (a path that does not exist)."""
    problems = []
    for path in paths:
        if not os.path.exists(path):
            problems.append(f"--watch {path}: no such file or directory")
    return problems
