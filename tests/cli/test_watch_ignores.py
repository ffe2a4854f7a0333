"""``--watch`` never restarts a server for what mcp-tui writes itself or for tools' noise.

A server author runs ``mcp-tui --watch . -- python server.py`` and saves a test from the TUI: the
test file, the ``--log`` traffic file growing with every message, the answers file, an export,
the stderr log are all under ``.``. None of them is the server's code; a restart for them makes
the next key bounce ("server is connecting"). The filter is checked on its own (each kind of
file), then with the operating system's real file events: the own files and the noise written
first, the server's file last, and the one burst that comes names the server's file only.
"""

from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest

from mcp_tui.process.watch import (
    OWN_NAMES,
    TEST_RUN_NAMES,
    OwnFiles,
    WatchFilter,
    watch_files,
)

pytestmark = pytest.mark.anyio


def kept(watch_filter: WatchFilter, path: Path) -> bool:
    from watchfiles import Change

    return watch_filter(Change.modified, str(path))


def test_own_files_and_noise_are_left_out_and_the_server_is_not(tmp_path: Path) -> None:
    venv = tmp_path / "env-for-dev"  # a virtualenv of any name, known by its pyvenv.cfg
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    log = tmp_path / "logs" / "traffic.jsonl"
    watch_filter = WatchFilter([tmp_path], OwnFiles([log, None, tmp_path / "answers.toml"]))

    assert kept(watch_filter, tmp_path / "server.py")
    assert kept(watch_filter, tmp_path / "pkg" / "tools.py")
    assert kept(watch_filter, tmp_path / "dist" / "index.js"), "a built server is the server"
    left_out = [
        log,  # --log, and through a path spelt differently:
        tmp_path / "logs" / ".." / "logs" / "traffic.jsonl",
        tmp_path / "answers.toml",  # --save-answers
        tmp_path / ".answers-x1y2z3",  # its atomic write's temporary file
        tmp_path / "tests" / "mcp" / "server.mcptest.toml",  # --record, "Save as test"
        tmp_path / "tests" / "mcp" / ".mcptest-a8b9",
        tmp_path / "cases.mcptest.json",
        tmp_path / "mcp-tui-session-20260728-101500.html",  # "Export session…"'s default
        tmp_path / "mcp-tui-session-20260728-101500.md",
        tmp_path / ".git" / "index",
        tmp_path / "__pycache__" / "server.cpython-311.pyc",
        tmp_path / ".venv" / "lib" / "x.py",
        tmp_path / "venv" / "lib" / "x.py",
        venv / "lib" / "site.py",
        tmp_path / ".ruff_cache" / "0.1" / "x",
        tmp_path / ".server.py.swp",
        tmp_path / "server.py~",
        tmp_path / "node_modules" / "x" / "index.js",
    ]
    assert [path for path in left_out if kept(watch_filter, path)] == []

    later = tmp_path / "report.html"
    assert kept(watch_filter, later)
    watch_filter.own.add(later)  # an export to a name of the person's choosing
    assert not kept(watch_filter, later)


def test_a_project_inside_a_virtualenv_is_still_watched(tmp_path: Path) -> None:
    (tmp_path / "pyvenv.cfg").write_text("home = /usr/bin\n")
    project = tmp_path / "project"
    project.mkdir()
    assert kept(WatchFilter([project]), project / "server.py")
    assert kept(WatchFilter([tmp_path]), tmp_path / "server.py")


def test_a_test_run_watches_its_test_files() -> None:
    """``mcp-tui test --watch`` runs the test files: a change to one is a change."""
    test_file = Path("/project/tests/a.mcptest.toml")
    assert kept(WatchFilter([Path("/project")], names=TEST_RUN_NAMES), test_file)
    assert not kept(WatchFilter([Path("/project")], names=OWN_NAMES), test_file)


async def test_the_real_events_of_own_files_are_no_burst(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text("print('v1')\n")
    log = tmp_path / "traffic.jsonl"
    own = OwnFiles([log])
    armed = anyio.Event()
    bursts: list[tuple[Path, ...]] = []

    async def watch() -> None:
        async for files in watch_files([tmp_path], armed=armed.set, own=own):
            bursts.append(files)
            return

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(watch)
            await armed.wait()
            log.write_text('{"dir": "out"}\n')
            tests = tmp_path / "tests" / "mcp"
            tests.mkdir(parents=True)
            temporary = tests / ".mcptest-q1w2e3"
            temporary.write_text("[[case]]\n")
            os.replace(temporary, tests / "server.mcptest.toml")  # as the writer saves
            (tmp_path / "__pycache__").mkdir()
            (tmp_path / "__pycache__" / "server.cpython-311.pyc").write_bytes(b"\0")
            export = tmp_path / "mcp-tui-session-20260728-101500.html"
            export.write_text("<html></html>")
            server.write_text("print('v2')\n")  # last: the burst must name this one only
    assert bursts == [(server,)]
