"""``mcp_tui.startup``: the collector is paused for start-up only, and always turned back on."""

from __future__ import annotations

import gc

import pytest

from mcp_tui import startup
from mcp_tui.cli import main


def test_pause_then_resume_freezes_and_enables() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    startup.pause_collector()
    try:
        assert not gc.isenabled() and startup.collector_paused()
    finally:
        startup.resume_collector()
    assert gc.isenabled() and not startup.collector_paused()
    assert gc.get_freeze_count() >= frozen
    startup.resume_collector()  # a second resume changes nothing
    assert gc.isenabled()


def test_a_collector_someone_else_turned_off_stays_off() -> None:
    gc.disable()
    try:
        startup.pause_collector()
        startup.resume_collector()
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["--no-such-option"], ["list"]])
def test_every_way_out_of_main_turns_it_back_on(argv: list[str]) -> None:
    main(argv)
    assert gc.isenabled() and not startup.collector_paused()
