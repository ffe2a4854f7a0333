"""A run that stopped early says how many tests did not run and why, and exits non-zero.

In process (pytester), with the suite's plugin (``tests/run_account.py``) in the inner run's
conftest; ``tests/test_hard_stop.py`` shows the same on a parallel run ended by the hard stop.
"""

from __future__ import annotations

import pytest

from tests.pytester_kit import run_in_process
from tests.run_account import verdict

pytest_plugins = ["pytester"]

CONFTEST = """
from tests import run_account


def pytest_configure(config):
    run_account.register(config)
"""

FOUR = """
def test_a():
    pass


def test_b():
    assert False


def test_c():
    pass


def test_d():
    pass
"""


@pytest.fixture
def four(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_four=FOUR)
    return pytester


def closing_line(result: pytest.RunResult) -> str:
    return [line for line in result.outlines if line.strip()][-1]


def test_a_run_stopped_by_x_counts_and_names_what_did_not_run(four: pytest.Pytester) -> None:
    result = run_in_process(four, "-x")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "1 failed, 1 passed, 2 not run in" in closing_line(result)
    assert any(
        "2 of 4 tests did not run: the run stopped early (stopping after 1 failures)" in line
        for line in result.outlines
    ), result.outlines


def test_ctrl_c_counts_what_did_not_run(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(
        test_interrupted="""
def test_a():
    pass


def test_b():
    raise KeyboardInterrupt


def test_c():
    pass
"""
    )
    result = run_in_process(pytester)
    # test_b started (its setup reported), so only test_c is counted as not run.
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert "1 passed, 1 not run in" in closing_line(result), result.outlines
    assert any(
        "1 of 3 tests did not run: the run stopped early (interrupted)" in line
        for line in result.outlines
    ), result.outlines


def test_a_full_run_and_a_deselected_test_say_nothing_more(four: pytest.Pytester) -> None:
    full = run_in_process(four)
    assert full.ret == pytest.ExitCode.TESTS_FAILED
    assert "not run" not in full.stdout.str()
    assert "1 failed, 3 passed in" in closing_line(full)
    chosen = run_in_process(four, "-k", "not test_b")
    assert chosen.ret == pytest.ExitCode.OK
    assert "not run" not in chosen.stdout.str()
    assert "3 passed, 1 deselected in" in closing_line(chosen)


def test_a_file_named_twice_runs_twice_and_says_nothing_more(four: pytest.Pytester) -> None:
    """pytest collects a file given twice twice, under the same ids: each ran, none is lost."""
    path = str(four.path / "test_four.py")
    result = run_in_process(four, path, path)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "not run" not in result.stdout.str(), result.outlines
    assert "2 failed, 6 passed in" in closing_line(result)


def test_collect_only_is_not_a_run_that_stopped(four: pytest.Pytester) -> None:
    result = run_in_process(four, "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.OK
    assert "not run" not in result.stdout.str()


def test_a_run_that_lost_tests_without_a_failure_exits_non_zero() -> None:
    """A worker lost between two tests (no test to blame) drops its queue with nothing failed."""
    account = verdict(10, 7, ["worker gw1 crashed and worker restarting disabled"], 0)
    assert account.not_run == 3
    assert account.exitstatus == pytest.ExitCode.INTERRUPTED
    assert account.line == (
        "3 of 10 tests did not run: the run stopped early"
        " (worker gw1 crashed and worker restarting disabled)"
    )
    failed = verdict(10, 9, [], pytest.ExitCode.TESTS_FAILED)
    assert failed.exitstatus == pytest.ExitCode.TESTS_FAILED
    assert failed.line == "1 of 10 tests did not run: the run stopped early"


def test_a_run_where_every_test_reported_is_left_as_it_is() -> None:
    assert verdict(10, 10, ["anything"], 0) == (verdict(10, 10, [], 0))
    assert verdict(10, 10, [], 0).line is None
    assert verdict(10, 10, [], 0).exitstatus == 0
