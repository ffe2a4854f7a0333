"""``mcp-tui test --watch``: run the cases, then again each time a test file or the server's
source changes, until Ctrl+C.

What is watched: the test files and folders named on the command line, and the server's source:
each ``--watch-path DIR``, or by default the folder of each file's server script (the first
argument of its ``command`` that is a file: ``python server.py``, ``node dist/index.js``; else
the folder the server runs in), or the bundled demo's package for ``server = "demo"``. A URL or
config server's source cannot be guessed: the run says so and suggests ``--watch-path``.

A test file that is wrong (being edited) does not end the watch: its one-paragraph message is
printed and the next save runs again. Each run is the same as ``mcp-tui test`` without
``--watch``; between two runs one line says what changed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

from mcp_tui.errors import ConfigError
from mcp_tui.testbench.load import TestFileError, find_test_files, load_test_file


def server_source_dirs(paths: Sequence[str | Path]) -> tuple[list[Path], list[str]]:
    """The folders of the servers' source for the test files under ``paths``, and notes for the
    files whose server's source cannot be found (a URL, a config server)."""
    dirs: list[Path] = []
    notes: list[str] = []
    try:
        files = find_test_files(paths)
    except ConfigError:
        return [], []  # the run says what is wrong
    for file in files:
        try:
            decl = load_test_file(file).model.server_decl
        except TestFileError:
            continue  # the run says what is wrong; its folder is watched already
        folder = file.resolve().parent
        if decl.demo:
            import mcp_tui.demo

            dirs.append(Path(mcp_tui.demo.__file__).resolve().parent)
        elif decl.command is not None:
            cwd = (folder / decl.cwd).resolve() if decl.cwd is not None else folder
            script = next(
                (
                    (cwd / arg).resolve()
                    for arg in decl.command[1:]
                    if "${" not in arg and not arg.startswith("-") and (cwd / arg).is_file()
                ),
                None,
            )
            dirs.append(script.parent if script is not None else cwd)
        else:
            notes.append(
                f"{file}: the server is {decl.describe()}: its source is not watched "
                "(name it with --watch-path DIR)"
            )
    unique = list(dict.fromkeys(dirs))
    return unique, notes


def watch_tests(
    run: Callable[[], int],
    paths: Sequence[str | Path],
    watch_paths: Sequence[Path],
    *,
    out: TextIO | None = None,
    own: Sequence[Path] = (),
    changes: Callable[[Sequence[Path]], Iterable[tuple[Path, ...]]] | None = None,
) -> int:
    """Run, then run again after each burst of changes, until Ctrl+C (``KeyboardInterrupt``,
    which ``mcp-tui`` turns into exit 130). ``own``: the files each run writes (``--junit-xml``,
    ``--log``), never a change. ``changes``: the watcher (a test's stand-in)."""
    out = out or sys.stdout
    roots = [Path(p) for p in paths]
    sources, notes = (list(watch_paths), []) if watch_paths else server_source_dirs(paths)
    watched = list(dict.fromkeys([*roots, *sources]))
    missing = [p for p in watched if not p.exists()]
    if missing:
        raise TestFileError(f"--watch-path {missing[0]}: no such file or directory.")
    from mcp_tui.process.watch import OwnFiles, changed_text, watch_files_sync

    if changes is None:
        bursts = iter(watch_files_sync(watched, own=OwnFiles(own)))
    else:
        bursts = iter(changes(watched))
    next(bursts, None)  # the watches are in place: a change during the first run is seen
    _run_once(run, out)
    for note in notes:
        print(f"mcp-tui: note: {note}", file=out)
    shown = ", ".join(str(p) for p in watched)
    print(f"mcp-tui test --watch: watching {shown} (Ctrl+C to stop)", file=out, flush=True)
    for files in bursts:
        if not files:
            continue  # nothing changed
        what = changed_text(files, watched)
        print(f"\n── {what} changed ({time.strftime('%H:%M:%S')}): running again ──", file=out)
        _run_once(run, out)
    return 0


def _run_once(run: Callable[[], int], out: TextIO) -> None:
    try:
        run()
    except ConfigError as exc:  # a test file being edited: say so, keep watching
        print(f"mcp-tui: {exc}", file=out)
    out.flush()
