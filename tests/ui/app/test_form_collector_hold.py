"""The collector waits while a form is built, until its first frame (``collector_hold``).

How the elicitation handler uses a hold (off while the form is built, on once it has painted) is
tested with the handler, in ``test_elicitation_handler``.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest
from textual.app import App

from mcp_tui.ui.app import collector_hold
from mcp_tui.ui.app.collector_hold import CollectorHold, holds

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    assert holds() == 0, "a hold was left behind"
    if not was:
        gc.disable()


def test_holds_nest_and_release_once() -> None:
    first, second = CollectorHold(), CollectorHold()
    assert not gc.isenabled() and holds() == 2
    first.release()
    first.release()  # idempotent: does not end the other hold
    assert not gc.isenabled() and holds() == 1
    second.release()
    assert gc.isenabled() and holds() == 0 and first.released


def test_a_hold_leaves_a_collector_someone_else_turned_off_alone() -> None:
    gc.disable()  # as start-up does (mcp_tui.process.startup)
    hold = CollectorHold()
    hold.release()
    assert not gc.isenabled()
    gc.enable()


class Host(App[None]):
    pass


@pytest.mark.anyio
async def test_a_hold_ends_by_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector_hold, "MAX_HOLD", 0.05)
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        hold = CollectorHold(app)  # nothing releases it
        assert not gc.isenabled()
        await asyncio.sleep(0.2)
        await pilot.pause()
        assert hold.released and gc.isenabled()
