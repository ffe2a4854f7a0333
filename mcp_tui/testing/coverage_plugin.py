"""The pytest plugin's ``--mcp-coverage``, ``--mcp-coverage-json FILE`` and
``--mcp-fail-under PERCENT``: ``mcp-tui test --coverage`` for a run of pytest.

Each case item records what it touched (a :class:`~mcp_tui.testbench.coverage.Touch`); the
report comes in the terminal summary. Under xdist every worker sends its touches to the controller
as JSON (``workeroutput``), so the report covers the whole run, once. A run whose cases all passed
but whose tools fall under ``--mcp-fail-under`` exits 1.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.testbench.coverage import Coverage, CoverageWanted, Touch, touch_of
from mcp_tui.testbench.result import CaseResult

_TOUCHES = pytest.StashKey[list[Touch]]()
_WORKER_KEY = "mcp_tui_touches"


def add_options(group: Any) -> None:
    group.addoption(
        "--mcp-coverage",
        action="store_true",
        help="after the run: the tools, prompts and resources no case touched, the answers each "
        "form got, the structured results checked (as mcp-tui test --coverage)",
    )
    group.addoption(
        "--mcp-coverage-json", type=Path, metavar="FILE", help="write the coverage as JSON to FILE"
    )
    group.addoption(
        "--mcp-fail-under",
        type=float,
        metavar="PERCENT",
        help="fail the run when the cases called fewer than PERCENT of the tools offered",
    )


def recorded(config: pytest.Config) -> list[Touch]:
    """The touches kept so far (empty when coverage was not asked for)."""
    return config.stash.get(_TOUCHES, [])


def record(config: pytest.Config, result: CaseResult) -> None:
    """A case item's result, kept for the report (only when coverage was asked for)."""
    touches = config.stash.get(_TOUCHES, None)
    if touches is not None:
        touch = touch_of(result)
        if touch is not None:
            touches.append(touch)


class CoverageReport:
    """Registered when coverage is asked for: gathers the touches, reports, sets the exit."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.wanted = CoverageWanted(
            config.getoption("--mcp-coverage"),
            config.getoption("--mcp-coverage-json"),
            config.getoption("--mcp-fail-under"),
        )
        config.stash[_TOUCHES] = []
        self.measured: Coverage | None = None
        self.verdict = ""

    @property
    def is_worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """(xdist controller) A worker's touches, as JSON."""
        sent = getattr(node, "workeroutput", {}).get(_WORKER_KEY) or ()
        self.config.stash[_TOUCHES].extend(Touch.from_json(t) for t in sent)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        touches = self.config.stash[_TOUCHES]
        if self.is_worker:
            self.config.workeroutput[_WORKER_KEY] = [t.as_json() for t in touches]  # type: ignore[attr-defined]
            return
        from mcp_tui.testbench.coverage import coverage, report_coverage

        self.measured = coverage(touches)
        text, err = io.StringIO(), io.StringIO()
        covered = report_coverage(self.measured, self.wanted, text, err)
        self.text, self.verdict = text.getvalue(), err.getvalue()
        if not covered and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker or self.measured is None:
            return
        for line in (self.text + self.verdict).splitlines():
            terminalreporter.write_line(line)


def configure(config: pytest.Config) -> None:
    wanted = (
        config.getoption("--mcp-coverage")
        or config.getoption("--mcp-coverage-json") is not None
        or config.getoption("--mcp-fail-under") is not None
    )
    if wanted:
        config.pluginmanager.register(CoverageReport(config), "mcp-tui-coverage")
