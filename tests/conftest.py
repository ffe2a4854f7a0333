"""The suite-wide hard stop behind pytest-timeout's per-test limit.

pytest-timeout's ``signal`` method (configured in pyproject) fails a test that runs past its limit
by name and lets the run go on; it works for Python code, for an event loop waiting on I/O and for
Python's ``re`` (which checks signals while matching). It cannot end a test whose main thread is
stuck in C code that never returns to Python, nor one whose teardown then waits on something that
cannot be cancelled (an event loop closing waits for every task, shielded ones included). Its
``thread`` method cannot either: its timer is a Python thread, which never gets the GIL while C
code holds it (a catastrophic Python-``re`` match held a run for minutes).

So each test also arms :func:`faulthandler.dump_traceback_later` for :data:`HARD_STOP_AFTER`
seconds past its limit: a C-level watchdog that needs no GIL, prints every thread's stack to the
real stderr, and ends the process. Just before, a Python thread names the test (when it can get
the GIL; when it cannot, the stuck test's own frames are in the stack printed).

The suite runs in parallel (pytest-xdist, ``addopts`` in pyproject): each worker process has its
own watchdog, so a hard stop ends that worker; xdist reports the test it was running as failed
("worker 'gw0' crashed while running ...") and, with ``--max-worker-restart=0``, ends the run. It
must not start a replacement: under ``--dist loadgroup`` pytest-xdist 3.8.0 never sends one any
work, and the run would wait forever (pytest-dev/pytest-xdist #1323, #1327;
``tests/test_hard_stop.py`` runs a stuck test to show the run ends). The ``hard_stop_after`` ini
option sets the delay (that test makes it short).
"""

from __future__ import annotations

import faulthandler
import gc
import os
import sys
import threading
import time
from typing import Any

import pytest

from tests import run_account

#: Seconds past a test's own limit before the whole run is stopped.
HARD_STOP_AFTER = 30


class HardStop:
    """One watchdog for the session: arm it per test, disarm it when the test's protocol ends."""

    def __init__(self, fd: int, after: float) -> None:
        self._fd = fd
        self._after = after
        self._changed = threading.Condition()
        self._armed: tuple[str, float, float] | None = None  # test, its limit, deadline
        self._thread = threading.Thread(target=self._watch, name="hard-stop", daemon=True)
        self._thread.start()

    def arm(self, test: str, limit: float) -> None:
        after = limit + self._after
        faulthandler.dump_traceback_later(after, exit=True, file=self._fd)
        with self._changed:
            self._armed = (test, limit, time.monotonic() + after - 1)
            self._changed.notify()

    def disarm(self) -> None:
        faulthandler.cancel_dump_traceback_later()
        with self._changed:
            self._armed = None
            self._changed.notify()

    def _watch(self) -> None:
        with self._changed:
            while True:
                armed = self._armed
                left = None if armed is None else armed[2] - time.monotonic()
                if armed is not None and left is not None and left <= 0:
                    test, limit, _ = armed
                    message = (
                        f"\n\nHARD STOP: {test} is still running {limit + self._after - 1:g}"
                        f" s after it started (its limit is {limit:g} s); every thread's stack"
                        " follows and this process ends.\n"
                    )
                    os.write(self._fd, message.encode())
                    self._armed = None
                    continue
                self._changed.wait(left)


_hard_stop: HardStop | None = None

#: pytest-xdist workers per CPU for ``-n auto``: most tests wait on a server, a subprocess or an
#: app's next frame rather than compute, so two per core keep the cores busy.
WORKERS_PER_CPU = 2


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per usable CPU (see :data:`WORKERS_PER_CPU`)."""
    affinity = getattr(os, "sched_getaffinity", None)  # Linux: the CPUs this process may use
    cpus = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    return WORKERS_PER_CPU * cpus


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        "hard_stop_after",
        "seconds past a test's limit before the hard stop ends its process"
        f" (default {HARD_STOP_AFTER})",
        default=str(HARD_STOP_AFTER),
    )


def pytest_configure(config: pytest.Config) -> None:
    """Start the watchdog on a copy of the real stderr: while a test runs, fd 2 is pytest's
    capture file, which a process ended by faulthandler would never show. And account for the
    tests a run that stopped early never ran (``tests/run_account.py``)."""
    global _hard_stop
    run_account.register(config)
    if _hard_stop is None and sys.__stderr__ is not None:
        after = float(config.getini("hard_stop_after"))
        _hard_stop = HardStop(os.dup(sys.__stderr__.fileno()), after)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Any:
    """Collect with bytecode writing on, whatever ``PYTHONDONTWRITEBYTECODE`` says.

    pytest rewrites every test module's ``assert`` statements and caches the result beside it
    (``__pycache__/*-pytest-*.pyc``), but writes that cache only when ``sys.dont_write_bytecode``
    is off. On a machine that sets ``PYTHONDONTWRITEBYTECODE`` every worker re-parsed and
    re-rewrote all ~400 test modules on every run: ~6 s of a worker's ~10 s of collection. With
    writing on while the test modules are imported, the next run reads the cache (pytest reads
    it either way and checks it against the source's mtime and size). The setting is restored
    for the tests themselves and is never changed for the processes they start.
    """
    was = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = was


#: Allocations between two young-generation collections (Python's default: 700).
GC_THRESHOLD = (10_000, 20, 20)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Keep the garbage collector off what every test shares, and run it less often.

    After collection a worker holds every test module, Textual, the SDK and hypothesis: hundreds of
    thousands of objects that live until the run ends, which every full collection walked again (a
    Textual app makes enough garbage to trigger one every few frames). ``gc.freeze()`` moves them
    out of the collector's sight, and a larger first threshold makes fewer, larger young
    collections. The UI tests spend ~30 % less CPU; cycles are still collected, just later.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> None:
    """Arm the hard stop beside pytest-timeout's own timer (returning None lets it arm too)."""
    if settings.timeout and _hard_stop is not None:
        _hard_stop.arm(item.nodeid, float(settings.timeout))


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> None:
    if _hard_stop is not None:
        _hard_stop.disarm()


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    """Every async test (``pytest.mark.anyio``) runs on asyncio, as the app and the SDK do."""
    return "asyncio"


@pytest.fixture
def snap_compare(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """pytest-textual-snapshot's ``snap_compare``, with every text cursor shown and not blinking.

    A blinking cursor is drawn or not depending on whether the shot is taken before or after its
    first half-second tick: on a busy machine (the suite runs in parallel) a screen can take longer
    than that to settle, and the snapshot then differs by one cell. Stopping the blink timers for
    every ``Input`` and ``TextArea`` of the app, including those mounted after ``run_before`` set
    ``cursor_blink = False`` on the ones it saw, makes the shot not depend on the clock.
    """
    from textual.widgets import Input, TextArea

    def input_cursor_shown(self: Input) -> None:
        self._cursor_visible = True

    def text_area_cursor_shown(self: TextArea) -> None:
        self._cursor_visible = True

    monkeypatch.setattr(Input, "_toggle_cursor", input_cursor_shown)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", text_area_cursor_shown)
    return snap_compare


@pytest.fixture(autouse=True)
def _arming_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Screens that answer a server ignore their accept keys for a moment after they appear
    (``mcp_tui/ui/screens/arming.py``). Tests not about that press Ctrl+S as soon as a screen is
    shown, so the delay is 0 here; the tests about it use :func:`arming_clock`."""
    from mcp_tui.ui.arming_delay import ARMING

    monkeypatch.setattr(ARMING, "delay", 0.0)


class ArmingClock:
    """A clock for the arming delay that moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def arming_clock(monkeypatch: pytest.MonkeyPatch) -> ArmingClock:
    """The arming delay on (0.6 s), measured on a clock the test drives (``advance``)."""
    from mcp_tui.ui.arming_delay import ARMING

    clock = ArmingClock()
    monkeypatch.setattr(ARMING, "delay", 0.6)
    monkeypatch.setattr(ARMING, "clock", clock)
    return clock
