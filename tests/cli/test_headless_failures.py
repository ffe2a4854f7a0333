"""What ``mcp-tui call`` says and exits with when the server fails: a crash mid-call is exit 3
with the server's exit status (never a JSON-RPC error it did not send), and a failed call whose
server wrote a traceback names the exception (``tests/fixtures/failing_server.py``, the ``mcp``
2.3 SDK). The command runs in this process (``tests/cli_in_process.py``): the server is the
child that crashes, not mcp-tui."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Protocol

import pytest

from tests.cli_in_process import run_mcp_tui

SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "failing_server.py"


class Call(Protocol):
    def __call__(self, tool: str, *options: str) -> subprocess.CompletedProcess[str]: ...


@pytest.fixture
def call(capfd: pytest.CaptureFixture[str]) -> Call:
    def run(tool: str, *options: str) -> subprocess.CompletedProcess[str]:
        argv = ["call", tool, "--timeout", "60", *options, "--", sys.executable, str(SERVER)]
        return run_mcp_tui(capfd, argv)

    return run


def test_a_server_that_exits_mid_call_is_exit_3_with_its_status(call: Call) -> None:
    done = call("crash")
    assert done.returncode == 3, done.stderr
    assert "exited with status 3 during the call" in done.stderr
    assert "about to exit: the disk is full" in done.stderr
    assert "the call failed" not in done.stderr


def test_json_does_not_print_a_crash_as_an_answer(call: Call) -> None:
    done = call("crash", "--json", "-q")
    assert done.returncode == 3
    assert done.stdout == ""  # no {"error": {"code": -32000, ...}} the server never sent
    assert "exited with status 3" in done.stderr
    # -q leaves out the server's stderr as it comes, not the lines that explain the crash.
    assert "about to exit: the disk is full" in done.stderr


def test_a_server_killed_by_a_signal_names_it(call: Call) -> None:
    done = call("killed", "-q")
    assert done.returncode == 3
    assert "was killed by signal 9 (SIGKILL) during the call" in done.stderr


def test_a_failed_call_names_the_exception_the_server_wrote_to_stderr(call: Call) -> None:
    done = call("boom", "-q")
    assert done.returncode == 1
    assert done.stdout.startswith("Error executing tool boom")
    assert (
        "mcp-tui: the server wrote to its stderr during the call: ValueError: the boom went off"
        in done.stderr
    )


def test_a_call_that_works_says_nothing_of_stderr(call: Call) -> None:
    done = call("chatty", "-q", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["content"][0]["text"] == "fine"
    assert "during the call" not in done.stderr
