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
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

#: A burst of events ends once this many milliseconds pass without another.
QUIET_MS = 300
#: ... or, for a burst that never pauses, after this many (watchfiles' ``debounce``).
LONGEST_BURST_MS = 2000
#: The watcher's thread comes back this often with nothing changed; the first time says the
#: watches are in place (:func:`watch_files`' ``armed``), which a test waits for before editing.
IDLE_MS = 500

#: Folders of tools' noise, besides watchfiles' own list (``.git``, ``__pycache__``, ``.venv``,
#: ``node_modules``, ``.mypy_cache``, ``.pytest_cache``, ``.tox``, ...). A virtualenv of any
#: other name is known by its ``pyvenv.cfg``.
NOISE_DIRS: tuple[str, ...] = ("venv", ".nox", ".ruff_cache", ".eggs", ".cache")
#: Names of what mcp-tui writes wherever the person says (the temporary files of its atomic
#: writes, the session export's default name) and tools' noise files; ``mcp-tui test --watch``
#: leaves these out ...
TEST_RUN_NAMES: tuple[str, ...] = (
    r"^\.mcptest-",
    r"^\.answers-",
    r"^mcp-tui-session-\d{8}-\d{6}\.(html|md|svg)$",
    r"^\.coverage",
    r"\.egg-info$",
)
#: ... and the TUI the test files too (``--record``, "Save as test"): a test is not the server.
OWN_NAMES: tuple[str, ...] = (r"\.mcptest\.(toml|json)$", *TEST_RUN_NAMES)


class OwnFiles:
    """The files this mcp-tui writes (``--log``, answers, exports...): never a reason to restart.

    Known at start from the options, and added to as the app writes more (an export, a test
    saved): :meth:`add` before writing, since the file event follows the write."""

    def __init__(self, paths: Iterable[Path | None] = ()) -> None:
        self._paths: set[str] = set()
        for path in paths:
            if path is not None:
                self.add(path)

    def add(self, path: Path) -> None:
        self._paths.add(_canonical(path))

    def __contains__(self, path: object) -> bool:
        return isinstance(path, (str, Path)) and _canonical(Path(path)) in self._paths


def _canonical(path: Path) -> str:
    return os.path.normcase(os.path.realpath(path))


class WatchFilter:
    """watchfiles' filter: True for a change worth a restart (see the module docstring).

    ``roots``: the watched paths (a virtualenv is looked for below them, never above: a project
    kept inside one is still watched). ``names``: patterns of file names to leave out (a test run
    watches its test files, so only the TUI leaves out :data:`OWN_NAMES`' test files)."""

    def __init__(
        self,
        roots: Sequence[Path],
        own: OwnFiles | None = None,
        *,
        names: Sequence[str] = OWN_NAMES,
    ) -> None:
        from watchfiles import DefaultFilter

        self.roots = {_canonical(root) for root in roots}
        self.own = own if own is not None else OwnFiles()
        self._default = DefaultFilter(ignore_dirs=(*DefaultFilter.ignore_dirs, *NOISE_DIRS))
        self._names = tuple(re.compile(pattern) for pattern in names)
        #: Folder -> whether a virtualenv is at or above it (one ``stat`` per folder per run).
        self._venv: dict[str, bool] = {}

    def __call__(self, change: Any, path: str) -> bool:
        if not self._default(change, path):
            return False
        name = os.path.basename(path)
        if any(pattern.search(name) for pattern in self._names):
            return False
        if path in self.own:
            return False
        if os.path.isdir(path):  # a folder made ("Save as test" makes tests/mcp): its files count
            return False
        return not self._in_virtualenv(os.path.dirname(_canonical(Path(path))))

    def _in_virtualenv(self, folder: str) -> bool:
        if folder in self.roots:
            return False
        known = self._venv.get(folder)
        if known is None:
            parent = os.path.dirname(folder)
            here = os.path.isfile(os.path.join(folder, "pyvenv.cfg"))
            known = here or (parent != folder and self._in_virtualenv(parent))
            self._venv[folder] = known
        return known


async def watch_files(
    paths: Sequence[Path],
    *,
    armed: Callable[[], None] | None = None,
    own: OwnFiles | None = None,
    quiet_ms: int = QUIET_MS,
    longest_ms: int = LONGEST_BURST_MS,
) -> AsyncIterator[tuple[Path, ...]]:
    """Yield the files changed (added, modified, deleted) under ``paths``, one sorted tuple per
    burst of changes, until the caller stops iterating or the task is cancelled.

    A path may be a file or a directory (watched recursively). ``armed`` is called once, when the
    watches are known to be in place (changes from then on are seen). Cancelling the task stops
    the watcher's thread within ``quiet_ms``. ``own``: the files this process writes, left out
    with the rest of :class:`WatchFilter`'s.
    """
    from watchfiles import awatch

    async for changes in awatch(
        *paths,
        watch_filter=WatchFilter(paths, own),
        debounce=longest_ms,
        step=quiet_ms,
        rust_timeout=IDLE_MS,
        yield_on_timeout=True,
    ):
        if armed is not None:
            armed()
            armed = None
        files = _worth_naming({Path(path) for _, path in changes})
        if files:
            yield files


def watch_files_sync(
    paths: Sequence[Path],
    *,
    own: OwnFiles | None = None,
    quiet_ms: int = QUIET_MS,
    longest_ms: int = LONGEST_BURST_MS,
) -> Iterator[tuple[Path, ...]]:
    """:func:`watch_files` for a program with no event loop between its runs (``mcp-tui test
    --watch``): the watches stay in place while the caller works, so a change made meanwhile is
    the next burst. An empty tuple comes every :data:`IDLE_MS` with nothing changed: the first
    says the watches are in place (take one before working). Ctrl+C ends it
    (``KeyboardInterrupt``). Test files are changes here (they are what runs); ``own`` (the
    JUnit and ``--log`` files) and the noise are not."""
    from watchfiles import watch

    for changes in watch(
        *paths,
        watch_filter=WatchFilter(paths, own, names=TEST_RUN_NAMES),
        debounce=longest_ms,
        step=quiet_ms,
        rust_timeout=IDLE_MS,
        yield_on_timeout=True,
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
