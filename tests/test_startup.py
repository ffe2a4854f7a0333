"""``mcp_tui.process.startup``: the collector is paused for start-up only, and always back on."""

from __future__ import annotations

import gc

import pytest

from mcp_tui.cli.main import main
from mcp_tui.process import startup


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


def _run(code: str) -> str:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.strip()


def test_the_log_panel_loads_without_attrs_and_attrs_still_loads_after() -> None:
    # A fresh interpreter: this one has attrs loaded already (jsonschema).
    out = _run(
        "import sys, mcp_tui.ui.widgets.session.log_panel, rich.pretty\n"
        "print('attr' in sys.modules, rich.pretty._has_attrs)\n"
        "import attr, jsonschema\n"
        "print(attr.has(jsonschema.validators.Draft202012Validator))"
    )
    assert out.splitlines() == ["False False", "True"]


def test_attrs_unseen_hides_attrs_only_inside_and_only_when_not_loaded() -> None:
    out = _run(
        "import sys\n"
        "from mcp_tui.process.startup import attrs_unseen\n"
        "with attrs_unseen():\n"
        "    try:\n"
        "        import attr\n"
        "    except ImportError:\n"
        "        print('hidden')\n"
        "import attr\n"
        "with attrs_unseen():\n"
        "    import attr as again\n"
        "print(again is attr)"
    )
    assert out.splitlines() == ["hidden", "True"]


def test_start_up_and_form_holds_share_one_count() -> None:
    # A form built while start-up still holds the collector (mcp_tui.process.collector): the
    # collector comes back with the last release, whichever it is, and start-up's freeze still
    # happens.
    from mcp_tui.process.collector import Hold, holds

    assert gc.isenabled() and holds() == 0
    startup.pause_collector()
    form = Hold()
    assert holds() == 2
    frozen = gc.get_freeze_count()
    startup.resume_collector()
    assert not gc.isenabled() and holds() == 1 and not startup.collector_paused()
    assert gc.get_freeze_count() >= frozen
    form.release()
    assert gc.isenabled() and holds() == 0
