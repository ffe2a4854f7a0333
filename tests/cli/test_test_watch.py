"""``mcp-tui test --watch``: what is watched, a run per burst of changes, a bad file that does
not end the watch; and end to end, a real server's file edited under a running watch."""

from __future__ import annotations

import io
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import mcp_tui.demo
from mcp_tui.cli import main as cli
from mcp_tui.cli.testwatch import server_source_dirs, watch_tests
from mcp_tui.testbench.load import TestFileError

ROOT = Path(__file__).resolve().parents[2]

SERVER = """\
from mcp.server.mcpserver import MCPServer

server = MCPServer("watched")


@server.tool()
def answer() -> str:
    return "ANSWER_ONE"


if __name__ == "__main__":
    server.run()
"""

CASE = """\
[server]
command = ["python", "src/server.py"]
cwd = ".."

[[case]]
name = "the answer"
tool = "answer"
expect = { text = "ANSWER_ONE" }
"""


def test_the_servers_source_is_found_for_each_kind_of_server(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "server.py").write_text(SERVER)
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "a.mcptest.toml").write_text(CASE)
    (tests / "b.mcptest.toml").write_text('server = "demo"\n[[case]]\nname = "x"\ntool = "t"\n')
    (tests / "c.mcptest.toml").write_text(
        '[server]\nurl = "http://127.0.0.1:9/mcp"\n[[case]]\nname = "x"\ntool = "t"\n'
    )
    dirs, notes = server_source_dirs([tests])
    assert dirs == [tmp_path / "src", Path(mcp_tui.demo.__file__).resolve().parent]
    (note,) = notes
    assert "c.mcptest.toml" in note and "--watch-path DIR" in note


def test_a_run_per_burst_and_a_bad_file_does_not_end_the_watch(tmp_path: Path) -> None:
    file = tmp_path / "a.mcptest.toml"
    file.write_text(CASE)
    runs: list[int] = []

    def run() -> int:
        runs.append(1)
        if len(runs) == 2:
            raise TestFileError(f"Test file {file}, line 3: case[0].tool: a broken file")
        return 0

    def bursts(paths: Sequence[Path]) -> Iterator[tuple[Path, ...]]:
        assert paths == [file, tmp_path / "elsewhere"]
        yield ()  # armed
        yield (file,)
        yield ()  # idle
        yield (file,)

    (tmp_path / "elsewhere").mkdir()
    out = io.StringIO()
    assert watch_tests(run, [file], [tmp_path / "elsewhere"], out=out, changes=bursts) == 0
    assert len(runs) == 3, "the first run and one per burst"
    text = out.getvalue()
    assert text.count("a.mcptest.toml changed") == 2
    assert "line 3: case[0].tool: a broken file" in text, "said, and the watch went on"


def test_watch_path_needs_watch(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["test", "--watch-path", ".", "x.mcptest.toml"]) == 2
    assert "--watch-path goes with --watch" in capsys.readouterr().err


@pytest.mark.timeout(180)
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child")
def test_editing_the_server_runs_the_cases_again(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    server = tmp_path / "src" / "server.py"
    server.write_text(SERVER)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "a.mcptest.toml").write_text(CASE)
    env = {
        **os.environ,
        "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
    }
    child = subprocess.Popen(
        [sys.executable, "-m", "mcp_tui", "test", "--watch", "tests"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    seen: list[str] = []

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()

    def until(text: str) -> None:
        while not any(text in line for line in seen):
            try:
                seen.append(lines.get(timeout=60))
            except queue.Empty:
                raise AssertionError(f"never printed {text!r}: {''.join(seen)}") from None

    try:
        until("1 passed")
        until("watching")
        assert str(tmp_path / "src") in seen[-1], "the server script's folder is watched"
        server.write_text(SERVER.replace("ANSWER_ONE", "ANSWER_TWO"))
        until("server.py changed")
        until("1 failed")
        assert any("got: ANSWER_TWO" in line for line in seen), "".join(seen)
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=30) == 130
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
