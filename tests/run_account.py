"""A run that stopped early says so: how many tests did not run, why, and a non-zero exit.

When a pytest-xdist worker is ended (the hard stop in ``tests/conftest.py``, a crash, the kernel's
out-of-memory killer), ``--max-worker-restart=0`` ends the whole run: the test it was running is
reported as failed, and every test still queued on any worker is simply dropped. pytest's closing
line then counts only what ran ("6 failed, 925 passed, 2 xfailed"), which reads as "the suite
ran" when two thirds of it never did. ``-x``, ``--maxfail`` and Ctrl+C drop tests the same way.

:class:`RunAccount` compares the tests collected with the tests that reported anything. When some
are missing, the line before the closing one says how many and why (the reason xdist or pytest
gave), the closing line counts them (``..., 1750 not run in 200.12s``), and a run that would
have exited 0 exits 2 (interrupted). It runs in the controlling process only: a worker runs its
share of the collection, not all of it.

``tests/test_run_account.py`` holds it (a ``-x`` run in process, the verdict's cases);
``tests/test_hard_stop.py`` shows it on a real parallel run ended by the hard stop.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import pytest

#: The closing line's word for tests collected but never run.
NOT_RUN = "not run"


@dataclass(frozen=True)
class Verdict:
    """What the end of a run says about the tests that did not run."""

    not_run: int
    line: str | None  # the line before the closing one, None when every test ran
    exitstatus: int | pytest.ExitCode


def verdict(
    collected: int, ran: int, reasons: list[str], exitstatus: int | pytest.ExitCode
) -> Verdict:
    """The account of a run that collected ``collected`` tests of which ``ran`` reported."""
    not_run = max(collected - ran, 0)
    if not_run == 0:
        return Verdict(0, None, exitstatus)
    why = "; ".join(dict.fromkeys(reason for reason in reasons if reason))
    tests = "test" if collected == 1 else "tests"
    line = f"{not_run} of {collected} {tests} did not run: the run stopped early" + (
        f" ({why})" if why else ""
    )
    if exitstatus == pytest.ExitCode.OK:
        exitstatus = pytest.ExitCode.INTERRUPTED
    return Verdict(not_run, line, exitstatus)


class _NotRun:
    """One entry of the closing line's count (the terminal reporter counts list entries)."""

    count_towards_summary = True


class RunAccount:
    """A plugin for the controlling process: counts what reported, accounts for the rest."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._setups: Counter[str] = Counter()  # a test named twice on the command line runs twice
        self._reported: set[str] = set()
        self._verdict: Verdict | None = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self._reported.add(report.nodeid)
        if report.when == "setup":
            self._setups[report.nodeid] += 1

    def _ran(self) -> int:
        """Each run of a test reports its setup once (a file named twice collects its tests
        twice, under the same ids); a test that reported without a setup (a crashed worker's,
        reported by xdist) counts once."""
        return sum(max(self._setups[nodeid], 1) for nodeid in self._reported)

    def _reasons(self, session: pytest.Session, exitstatus: int | pytest.ExitCode) -> list[str]:
        reasons: list[str] = []
        dsession = self._config.pluginmanager.getplugin("dsession")  # pytest-xdist's controller
        for attribute in ("_summary_report", "shouldstop"):  # a crashed worker; -x, Ctrl+C
            value = getattr(dsession, attribute, None)
            if isinstance(value, str):
                reasons.append(value)
        for value in (session.shouldstop, session.shouldfail):
            if isinstance(value, str):
                reasons.append(value)
        if exitstatus == pytest.ExitCode.INTERRUPTED and not reasons:
            reasons.append("interrupted")
        return reasons

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(
        self, session: pytest.Session, exitstatus: int | pytest.ExitCode
    ) -> None:
        if self._config.option.collectonly or exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            return
        account = verdict(
            session.testscollected,
            self._ran(),
            self._reasons(session, exitstatus),
            exitstatus,
        )
        if account.line is None:
            return
        self._verdict = account
        session.exitstatus = account.exitstatus
        reporter = self._config.pluginmanager.getplugin("terminalreporter")
        if reporter is not None:
            # ``_add_stats`` (not ``stats`` alone) so the closing line's kinds include the new one:
            # the reporter caches them, and refreshes only at the last item, which never came.
            reporter._add_stats(NOT_RUN, [_NotRun()] * account.not_run)

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_terminal_summary(self, terminalreporter: Any) -> Generator[None]:
        """Outermost, so the line comes after the short test summary, just before the closing
        line (after pytest's own "stopping after N failures" when there is one)."""
        yield
        if self._verdict is not None and self._verdict.line is not None:
            terminalreporter.write_sep("=", self._verdict.line, red=True, bold=True)


def register(config: pytest.Config) -> None:
    """Account for the run in the controlling process (not in an xdist worker)."""
    if not hasattr(config, "workerinput") and not config.pluginmanager.has_plugin("run-account"):
        config.pluginmanager.register(RunAccount(config), "run-account")
