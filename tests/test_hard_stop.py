"""A test stuck where no signal reaches it ends the whole run, by name, in bounded time.

pytest-timeout cannot fail such a test (its SIGALRM never runs), so ``tests/conftest.py``'s hard
stop ends the worker process. pytest-xdist 3.8.0 then starts a replacement worker which, under
``--dist loadgroup``, is never sent any work (pytest-dev/pytest-xdist #1323, #1327): the run
waits forever. ``--max-worker-restart=0`` in ``addopts`` makes the crash end the run instead,
with the test named. Only a real run shows all of that, so this runs pytest with the project's
configuration in a child process on a small directory holding one stuck test.

The child run has one worker: with two, whether the other worker had already run every other test
when the stuck one's worker was ended is a race (xdist re-queues a crashed worker's unfinished
work to the live one), so "how many did not run" would be 0 or more by chance. With one, the
stuck test is the last module's first test (files are collected in name order): the eight before
it pass, the one after it never runs.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STUCK = '''
import signal
import threading


def test_stuck_where_no_signal_reaches() -> None:
    """The timeout's SIGALRM is blocked and the wait is in C: only the hard stop ends this."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    threading.Event().wait()


def test_after_the_stuck_one() -> None:
    pass
'''

OTHER = """
def test_one() -> None:
    pass


def test_two() -> None:
    pass
"""

#: The stuck test's limit and the hard stop's delay in the child run (the suite's are 120 s + 30 s).
CHILD_LIMIT = 1
CHILD_HARD_STOP_AFTER = 2

#: How long the child run may take before this test says it hung (it takes a few seconds).
CHILD_BOUND = 90


def test_a_stuck_test_ends_the_parallel_run_by_name(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")  # the hard stop itself
    (tmp_path / "test_stuck.py").write_text(STUCK, encoding="utf-8")
    for name in ("a", "b", "c", "d"):  # collected before test_stuck.py: they run and pass
        (tmp_path / f"test_{name}.py").write_text(OTHER, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-c",
            str(ROOT / "pyproject.toml"),  # the project's addopts, timeout method and xdist mode
            "--rootdir",
            str(ROOT),
            "-n",
            "1",
            "--dist",
            "loadgroup",
            "-o",
            f"timeout={CHILD_LIMIT}",
            "-o",
            f"hard_stop_after={CHILD_HARD_STOP_AFTER}",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its workers too can be ended as one group if it hangs
    )
    try:
        output, _ = child.communicate(timeout=CHILD_BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        output, _ = child.communicate()
        raise AssertionError(
            f"the run with a stuck test did not end within {CHILD_BOUND} s:\n{output}"
        ) from None
    assert child.returncode != 0, output
    assert "crashed while running 'test_stuck.py::test_stuck_where_no_signal_reaches'" in output, (
        output
    )
    assert re.search(
        r"^FAILED \S*test_stuck\.py::test_stuck_where_no_signal_reaches", output, re.M
    ), output
    # The run says it stopped early (tests/run_account.py): the test after the stuck one never
    # ran; the closing line counts it and the line before it says why.
    *_, before, closing = output.rstrip().splitlines()
    assert re.search(r"\b1 failed, 8 passed, 1 not run\b", closing), output
    assert "1 of 10 tests did not run: the run stopped early" in before, output
    assert "crashed" in before, output
