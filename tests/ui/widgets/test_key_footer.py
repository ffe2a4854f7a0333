"""KeyFooter: one line of keys, redrawn only when they change; start-up waits for quiet."""

from __future__ import annotations

import asyncio
from typing import ClassVar

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.widgets import Button

from mcp_tui.ui.app import connections as app_connections
from mcp_tui.ui.widgets.key_footer import KeyFooter
from tests.ui.app_testkit import events_shown, make_app, session_of, wait_until

pytestmark = pytest.mark.anyio


class Counting(KeyFooter):
    rendered = 0

    def render(self) -> Text:
        Counting.rendered += 1
        return super().render()


class Plain(Button):
    pass


class WithKey(Button):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("z", "noop", "Zap")]

    def action_noop(self) -> None:
        pass


class FooterApp(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "keep", "Keep"),
        Binding("h", "noop", "Hidden", show=False),
        Binding("o", "off", "Off"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.kept = 0

    def compose(self) -> ComposeResult:
        yield Plain("one", id="one")
        yield Plain("two", id="two")
        yield WithKey("three", id="three")
        yield Counting()

    def action_keep(self) -> None:
        self.kept += 1

    def action_noop(self) -> None:
        pass

    def action_off(self) -> None:
        pass

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "off" else True  # shown, but disabled


def _line(app: App[None]) -> str:
    return app.query_one(KeyFooter).render().plain


async def test_one_line_like_textuals_footer_and_compact() -> None:
    app = FooterApp()
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        footer = app.query_one(KeyFooter)
        assert not footer.children  # one widget, not one per key
        line = _line(app)
        assert line.startswith(" k Keep  o Off ")
        assert "Hidden" not in line
        assert line.endswith("▏^p palette ") and len(line) == 80
        footer.compact = True
        await pilot.pause()
        assert _line(app).startswith("k Keep o Off ")


async def test_same_keys_are_not_redrawn_and_new_keys_are() -> None:
    app = FooterApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        first = Counting.rendered
        assert first >= 1
        # Moving focus between widgets with the same bindings: Textual refreshes the bindings,
        # the keys stay the same, so nothing is redrawn.
        app.set_focus(app.query_one("#two"))
        await pilot.pause()
        app.set_focus(app.query_one("#one"))
        await pilot.pause()
        assert Counting.rendered == first
        # A widget with a key of its own: redrawn, and the key is shown.
        app.set_focus(app.query_one("#three"))
        await pilot.pause()
        assert Counting.rendered > first and "Zap" in _line(app)
        app.set_focus(app.query_one("#one"))
        await pilot.pause()
        assert "Zap" not in _line(app)


async def test_a_click_presses_the_key_and_a_disabled_key_does_nothing() -> None:
    app = FooterApp()
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        footer = app.query_one(KeyFooter)
        line = _line(app)
        await pilot.click(footer, offset=(line.index("Keep"), 0))
        await pilot.pause()
        assert app.kept == 1
        await pilot.click(footer, offset=(line.index("Off"), 0))  # disabled: a bell, no action
        await pilot.click(footer, offset=(40, 0))  # between keys: nothing
        await pilot.pause()
        assert app.kept == 1


async def test_the_palette_over_the_session_screen_leaves_its_footer_alone() -> None:
    app, _ = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        session = session_of(app)

        def footer_line() -> str:
            found = session.query(KeyFooter)
            return found.first().render().plain if found else ""

        await wait_until(lambda: "Quit" in footer_line(), pilot=pilot)
        # Settled: the server ready, its events shown (each may change the keys on offer).
        await wait_until(lambda: app.entries["demo"].state.value == "ready", pilot=pilot)
        await events_shown(pilot, app)
        footer = session.query_one(KeyFooter)
        assert "palette" in footer_line()
        drawn = footer._shown
        await pilot.press("ctrl+p")
        await wait_until(lambda: isinstance(app.screen, CommandPalette), pilot=pilot)
        await pilot.press("escape")
        await wait_until(lambda: app.screen is session, pilot=pilot)
        await pilot.pause()
        assert footer._shown is drawn  # not drawn again: what it shows never changed


# --- start-up waits for a pause in the user's input ------------------------------------------


async def test_until_quiet_waits_for_a_pause_after_the_last_key() -> None:
    app, _ = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        loop = asyncio.get_running_loop()
        await pilot.press("down")
        pressed = app.connections.last_input
        assert loop.time() - pressed < 1.0  # the key was noted
        await app.connections._until_quiet(0.0, loop.time() + 5)
        assert loop.time() >= pressed + app_connections.QUIET_NEEDED
        # Never past ``latest``, however recent the last key.
        app.connections.last_input = loop.time() + 10
        limit = loop.time() + 0.05
        await app.connections._until_quiet(0.0, limit)
        assert limit <= loop.time() < limit + 1.0
        # ``earliest`` holds even without any key.
        app.connections.last_input = 0.0
        earliest = loop.time() + 0.05
        await app.connections._until_quiet(earliest, earliest + 5)
        assert loop.time() >= earliest
