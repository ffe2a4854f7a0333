"""The URL consent screen takes keys typed in a burst in order, like the form screen.

A burst (a fast typist, a macro, ``tmux send-keys``) is queued on the driver before the app handles
its first key (``tests/ui/burst_keys.burst``). What must never happen: Enter meant for the
Decline button reaching the Open button (or the body) because Tab had not yet moved the focus, or
Ctrl+S/Ctrl+R acting before the keys typed before them. The bug the last test pins: ``Escape
Ctrl+S`` in one burst opened the URL and answered accept (Ctrl+S, a priority binding, ran before
Escape had been handled).
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.url.browser import OpenResult
from mcp_tui.url.check import UrlVerdict
from tests.ui.burst_keys import burst
from tests.url.test_url_consent import URL, ConsentHost, url_request

pytestmark = pytest.mark.anyio

SIZE = (80, 24)


class Opener:
    """Records every URL it is asked to open; opens nothing (or fails, when told to)."""

    def __init__(self, *, works: bool = True) -> None:
        self.works = works
        self.opened: list[str] = []

    async def __call__(self, verdict: UrlVerdict) -> OpenResult:
        self.opened.append(verdict.url)
        if self.works:
            return OpenResult(True, verdict.url, browser="stand-in")
        return OpenResult(False, verdict.url, error="no browser here")


async def settle(pilot: Pilot[None], app: ConsentHost) -> None:
    """Let queued keys, the opening worker and the answer be handled (no timing is asserted)."""
    for _ in range(40):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.outcomes:
            return


async def run_burst(*keys: str, opener: Opener) -> ConsentHost:
    app = ConsentHost(url_request(), opener=opener)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, *keys)
        await settle(pilot, app)
    return app


async def test_tab_tab_enter_declines_and_opens_nothing() -> None:
    opener = Opener()
    app = await run_burst("tab", "tab", "enter", opener=opener)
    assert app.outcomes == [ElicitationOutcome.decline()]
    assert opener.opened == []


async def test_tab_enter_opens_the_url_shown() -> None:
    opener = Opener()
    app = await run_burst("tab", "enter", opener=opener)
    assert opener.opened == [URL]
    assert [o.action if o else None for o in app.outcomes] == ["accept"]


async def test_tabs_to_cancel_then_enter_cancels() -> None:
    opener = Opener()
    app = await run_burst("tab", "tab", "tab", "enter", opener=opener)
    assert app.outcomes == [ElicitationOutcome.cancel()]
    assert opener.opened == []


async def test_keys_before_ctrl_s_take_effect_first() -> None:
    """Tab to Decline, Shift+Tab back, scroll: then Ctrl+S opens exactly once."""
    opener = Opener()
    app = await run_burst("tab", "tab", "shift+tab", "down", "ctrl+s", opener=opener)
    assert opener.opened == [URL]
    assert [o.action if o else None for o in app.outcomes] == ["accept"]


async def test_failed_open_then_keys_go_to_copy_and_second_ctrl_s_accepts() -> None:
    """After a failed open the screen focuses Copy; the keys typed after Ctrl+S go there."""
    opener = Opener(works=False)
    app = ConsentHost(url_request(), opener=opener)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "ctrl+s")
        await settle(pilot, app)
        assert app.outcomes == []
        burst(app, "shift+tab", "enter")  # Copy -> Cancel, pressed
        await settle(pilot, app)
    assert opener.opened == [URL]
    assert app.outcomes == [ElicitationOutcome.cancel()]


@pytest.mark.parametrize(
    ("keys", "outcome"),
    [
        (("escape", "ctrl+s"), ElicitationOutcome.cancel()),
        (("tab", "tab", "enter", "ctrl+s"), ElicitationOutcome.decline()),
    ],
)
async def test_ctrl_s_after_an_answer_in_the_same_burst_opens_nothing(
    keys: tuple[str, ...], outcome: ElicitationOutcome
) -> None:
    """Escape (or Enter on Decline) answered first: the Ctrl+S behind it must not open the URL."""
    opener = Opener()
    app = await run_burst(*keys, opener=opener)
    assert app.outcomes == [outcome]
    assert opener.opened == []
