"""The pytest plugin: ``*.mcptest.toml`` files as test items, and the ``mcp_connect`` fixture.

Installing mcp-tui enables it (the ``pytest11`` entry point ``mcp-tui``), so in a project that
has test files, ``pytest`` collects each case on each of its eras as an item named
``CASE[ERA]``: ``-k``, ``--junitxml``, xdist and the usual reporting apply. A failing case is
reported as ``mcp-tui test`` reports it (expected vs got, the requests and answers), not as a
traceback; ``skip`` and ``xfail`` become pytest's. A file's cases share one server process per
era (per xdist worker), started at its first case and stopped after its last. ``--mcp-era ERA``
replaces the files' eras, as ``mcp-tui test --era`` does; ``--mcp-coverage`` (with
``--mcp-coverage-json FILE``, ``--mcp-fail-under PERCENT``) is ``mcp-tui test --coverage``
(``coverage_plugin.py``). ``-p no:mcp-tui`` turns it off.

A bad test file is a collection error with the same one-line message (file, line, key).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast

import pytest

from mcp_tui.testbench.load import SUFFIXES, LoadedFile, TestFileError, load_test_file
from mcp_tui.testbench.model import Era

if TYPE_CHECKING:
    from anyio.from_thread import BlockingPortal

    from mcp_tui.config.servers import ServerSpec
    from mcp_tui.headless.testrun import Session
    from mcp_tui.testbench.plan import CasePlan
    from mcp_tui.testbench.redact import Redactor
    from mcp_tui.testbench.result import CaseResult
    from mcp_tui.testbench.steps import StepFailure


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcp-tui", "MCP server tests (mcp-tui)")
    group.addoption(
        "--mcp-era",
        action="append",
        default=[],
        choices=("auto", "2025-11-25", "2026-07-28"),
        help="run the *.mcptest.toml cases on this era instead of their files' eras (repeatable)",
    )
    from mcp_tui.testing.coverage_plugin import add_options

    add_options(group)


def pytest_configure(config: pytest.Config) -> None:
    # mcp-tui asks 2025-era servers for log messages (logging/setLevel), which the SDK flags as
    # deprecated in 2026-07-28; the CLI silences it, and a project's test run should not show it
    # under every case either.
    config.addinivalue_line(
        "filterwarnings",
        "ignore:The logging capability is deprecated as of 2026-07-28:"
        "mcp.shared.exceptions.MCPDeprecationWarning",
    )
    from mcp_tui.testing.coverage_plugin import configure

    configure(config)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.name.endswith(SUFFIXES):
        return McpTestFile.from_parent(parent, path=file_path)
    return None


class _BadFile(Exception):
    """A test file that cannot be collected; its message is the loader's sentence."""


class McpTestFile(pytest.File):
    """One test file: its cases, and the connections they share."""

    loaded: LoadedFile | None = None
    #: Masks what the file's ``${VAR}``s took from the environment, in every report of it.
    redactor: Redactor

    def collect(self) -> Iterator[pytest.Item]:
        from mcp_tui.headless.file_server import prepare_file
        from mcp_tui.testbench.plan import plan_file
        from mcp_tui.testbench.redact import Redactor

        try:
            # ``${VAR}`` in answers (a secret "Save as a test" did not write), as mcp-tui test;
            # what they took from the environment is masked in every report of the file.
            self.loaded, self.spec = prepare_file(load_test_file(self.path), os.environ)
        except TestFileError as exc:
            raise _BadFile(str(exc)) from None
        self.redactor = Redactor(self.loaded.secrets)
        eras = self.config.getoption("--mcp-era") or None
        plan = plan_file(self.loaded, self.spec, eras=eras)
        self._connect_timeout = plan.connect_timeout
        for case in plan.cases:
            item = McpTestItem.from_parent(self, name=f"{case.case.name}[{case.era}]", plan=case)
            if case.case.xfail is not None:
                item.add_marker(pytest.mark.xfail(reason=case.case.xfail, strict=True))
            yield item

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, _BadFile):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    # ---- the file's connections -----------------------------------------------------------------

    def session_for(self, era: str) -> tuple[BlockingPortal, Session]:
        """The file's connection on ``era`` (started now, or again after one was lost)."""
        from anyio.from_thread import start_blocking_portal

        from mcp_tui.headless.engine import on_era
        from mcp_tui.headless.testrun import Session

        if not hasattr(self, "_portal_cm"):
            self._portal_cm = start_blocking_portal()
            self._portal = self._portal_cm.__enter__()
            self._sessions: dict[str, tuple[Session, ExitStack]] = {}
            self.session.config.add_cleanup(self._close_all)
            self.addfinalizer(self._close_all)
        current = self._sessions.get(era)
        if current is None:
            spec: ServerSpec = on_era(self.spec, cast(Era, era))
            session = Session(spec, self._connect_timeout)
            opened = ExitStack()
            opened.enter_context(self._portal.wrap_async_context_manager(session.server))
            current = self._sessions[era] = (session, opened)
        session = current[0]
        why = self._portal.call(session.start)  # a fresh server after one was lost
        if why is not None:
            self._close(era)
            raise _NoServer(self.redactor.text(session.explain(why)))
        return self._portal, session

    def file_setup(self, era: str) -> list[StepFailure]:
        """The file's ``[[setup]]`` on ``era``'s connection: made before its first case there,
        its failures kept for every case after (each is then an error); its ``[[teardown]]``
        follows the file's last item (an error there is that item's teardown error)."""
        from mcp_tui.headless.testrun import run_steps
        from mcp_tui.testbench.steps import StepRef

        done: dict[str, list[StepFailure]] = self.__dict__.setdefault("_file_setup", {})
        if era not in done:
            portal, session = self.session_for(era)
            assert self.loaded is not None
            refs = [StepRef("setup", i) for i in range(len(self.loaded.model.setup))]
            done[era] = portal.call(run_steps, self.loaded, refs, session)
            if not self.__dict__.get("_teardown_added"):
                self._teardown_added = True
                self.addfinalizer(self._file_teardown)
        return done[era]

    def _file_teardown(self) -> None:
        """The file's ``[[teardown]]`` on each era its setup ran on (then the servers close)."""
        from mcp_tui.headless.testrun import run_steps
        from mcp_tui.testbench.steps import StepRef

        assert self.loaded is not None
        refs = [StepRef("teardown", i) for i in range(len(self.loaded.model.teardown))]
        failed: list[StepFailure] = []
        for era in self.__dict__.get("_file_setup", {}):
            if refs and era in self._sessions:
                session = self._sessions[era][0]
                failed += self._portal.call(run_steps, self.loaded, refs, session)
        if failed:
            self.steps_failed(failed)

    def steps_failed(self, failed: list[StepFailure]) -> NoReturn:
        """Setup or teardown steps failed: pytest's error, in the report's words, masked."""
        from mcp_tui.testbench.report import steps_report

        assert self.loaded is not None
        pytest.fail(steps_report(self.redactor.value(failed), self.loaded), pytrace=False)

    def _close(self, era: str) -> None:
        _, opened = self._sessions.pop(era)
        opened.close()

    def _close_all(self) -> None:
        if not hasattr(self, "_portal_cm"):
            return
        for era in list(self._sessions):
            self._close(era)
        cm = self._portal_cm
        del self._portal_cm
        cm.__exit__(None, None, None)


class _NoServer(Exception):
    pass


class _CaseFailed(Exception):
    def __init__(self, result: CaseResult) -> None:
        super().__init__(result.plan.case.name)
        self.result = result


class McpTestItem(pytest.Item):
    """One case on one era: its setup steps are pytest's setup (one that fails is an ERROR, not
    a failure), its call the test, its teardown steps pytest's teardown (made whatever
    happened)."""

    def __init__(self, *, plan: CasePlan, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plan = plan
        #: The connection the case runs on, once its setup began (its teardown uses it).
        self._on: tuple[BlockingPortal, Session] | None = None

    def setup(self) -> None:
        from mcp_tui.headless.testrun import run_steps
        from mcp_tui.testbench.steps import StepRef

        if self.plan.skip is not None:
            pytest.skip(self.plan.skip)
        parent = self.parent
        assert isinstance(parent, McpTestFile)
        try:
            failed = parent.file_setup(self.plan.era)
            if failed:
                parent.steps_failed(failed)
            portal, session = self._on = parent.session_for(self.plan.era)
        except _NoServer as exc:  # an error, as mcp-tui test says (exit 3), not a failure
            pytest.fail(str(exc), pytrace=False)
        refs = [StepRef("setup", i, self.plan.index) for i in range(len(self.plan.case.setup))]
        failed = portal.call(run_steps, self.plan.file, refs, session)
        if failed:
            parent.steps_failed(failed)

    def runtest(self) -> None:
        from mcp_tui.headless.testrun import run_call

        assert self._on is not None
        parent = self.parent
        assert isinstance(parent, McpTestFile)
        portal, session = self._on
        # Masked before anything reports it (the failure, the coverage of the run).
        result = parent.redactor.value(portal.call(run_call, self.plan, session))
        from mcp_tui.testing.coverage_plugin import record

        record(self.config, result)
        if result.failures:
            raise _CaseFailed(result)

    def teardown(self) -> None:
        from mcp_tui.headless.testrun import run_steps
        from mcp_tui.testbench.steps import StepRef

        if self._on is None:  # skipped, or the file's setup failed: nothing of it was made
            return
        parent = self.parent
        assert isinstance(parent, McpTestFile)
        portal, session = self._on
        case = self.plan.case
        refs = [StepRef("teardown", i, self.plan.index) for i in range(len(case.teardown))]
        failed = portal.call(run_steps, self.plan.file, refs, session)
        if failed:
            parent.steps_failed(failed)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        from mcp_tui.testbench.report import failure_report

        if isinstance(excinfo.value, _CaseFailed):
            return "\n".join(failure_report(excinfo.value.result))
        if isinstance(excinfo.value, _NoServer):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = self.plan.file.line_of("case", self.plan.index)
        return self.path, (line - 1) if line else None, f"{self.plan.case.name} [{self.plan.era}]"


@pytest.fixture
def mcp_connect() -> Iterator[Callable[..., Any]]:
    """``mcp_connect(command=[...] | url=... | demo=True, era=...)``: a connected
    :class:`~mcp_tui.testing.api.McpServer`, closed when the test ends."""
    import contextlib

    from mcp_tui.testing.api import connect

    with contextlib.ExitStack() as stack:

        def open_server(**kwargs: Any) -> Any:
            return stack.enter_context(connect(**kwargs))

        yield open_server
