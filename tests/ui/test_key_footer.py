"""KeyFooter: rebuilt when the keys it shows change, and only then; start-up waits for quiet."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest
from app_testkit import make_app, session_of
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button, Footer
from textual.widgets._footer import FooterKey

from mcp_tui.ui import app_connections
from mcp_tui.ui.widgets.key_footer import KeyFooter

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Counting(KeyFooter):
    composed = 0

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            Counting.composed += 1
        yield from super().compose()


class Plain(Button):
    pass


class WithKey(Button):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("z", "noop", "Zap")]

    def action_noop(self) -> None:
        pass


class FooterApp(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("k", "noop", "Keep")]

    def compose(self) -> ComposeResult:
        yield Plain("one", id="one")
        yield Plain("two", id="two")
        yield WithKey("three", id="three")
        yield Counting()

    def action_noop(self) -> None:
        pass


def _labels(app: App[None]) -> list[str]:
    return [str(key.description) for key in app.query(FooterKey).results()]


async def test_same_keys_are_not_rebuilt_and_new_keys_are() -> None:
    Counting.composed = 0
    app = FooterApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        first = Counting.composed
        assert first >= 1 and "Keep" in _labels(app)
        # Moving focus between widgets with the same bindings: Textual refreshes the bindings,
        # the keys stay the same, so nothing is rebuilt.
        app.set_focus(app.query_one("#two"))
        await pilot.pause()
        app.set_focus(app.query_one("#one"))
        await pilot.pause()
        assert Counting.composed == first
        # A widget with a key of its own: rebuilt, and the key is shown.
        app.set_focus(app.query_one("#three"))
        await pilot.pause()
        assert Counting.composed == first + 1
        assert "Zap" in _labels(app)
        app.set_focus(app.query_one("#one"))
        await pilot.pause()
        assert Counting.composed == first + 2
        assert "Zap" not in _labels(app)


async def test_key_footer_is_still_a_footer() -> None:
    app = FooterApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.query_one(Footer) is app.query_one(Counting)


async def test_the_palette_over_the_session_screen_leaves_its_footer_alone() -> None:
    app, _ = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        footer = session_of(app).query_one(KeyFooter)
        keys = list(footer.query("FooterKey").results())
        assert keys
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press("escape")
        await pilot.pause(0.2)
        # The very same key widgets: the footer was not recomposed.
        assert list(footer.query("FooterKey").results()) == keys


# --- start-up waits for a pause in the user's input ------------------------------------------


async def test_until_quiet_waits_for_a_pause_after_the_last_key() -> None:
    app, _ = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        loop = asyncio.get_running_loop()
        await pilot.press("down")
        pressed = app.last_input
        assert loop.time() - pressed < 1.0  # the key was noted
        await app._until_quiet(0.0, loop.time() + 5)
        assert loop.time() >= pressed + app_connections.QUIET_NEEDED
        # Never past ``latest``, however recent the last key.
        app.last_input = loop.time() + 10
        limit = loop.time() + 0.05
        await app._until_quiet(0.0, limit)
        assert limit <= loop.time() < limit + 1.0
        # ``earliest`` holds even without any key.
        app.last_input = 0.0
        earliest = loop.time() + 0.05
        await app._until_quiet(earliest, earliest + 5)
        assert loop.time() >= earliest
