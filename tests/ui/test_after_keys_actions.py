"""A priority binding named through ``after_earlier_keys`` runs the screen's one action method,
after the keys before it, and is enabled or disabled exactly as that action is (the footer and
arming ask about the action itself, never about the deferral)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Label

from mcp_tui.ui.key_order import AfterKeysActions, after_earlier_keys
from tests.waits import wait_until

pytestmark = pytest.mark.anyio


class _Asking(AfterKeysActions, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", after_earlier_keys("go"), "Go", priority=True, id="test.go"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.live: bool | None = None
        self.went = 0

    def compose(self) -> ComposeResult:
        yield Label("asking")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "go":
            return self.live
        return super().check_action(action, parameters)

    def action_go(self) -> None:
        self.went += 1


class _App(App[None]):
    def on_mount(self) -> None:
        self.push_screen(_Asking())


def test_the_deferred_binding_answers_check_action_as_its_action() -> None:
    screen = _Asking()
    for live in (None, False, True):
        screen.live = live
        assert screen.check_action("after_keys", ("go",)) is live
    assert after_earlier_keys("go") == "after_keys('go')"


async def test_the_key_runs_the_action_only_while_it_is_enabled() -> None:
    app = _App()
    async with app.run_test() as pilot:
        await wait_until(lambda: isinstance(app.screen, _Asking), pilot=pilot)
        screen: Any = app.screen
        await pilot.press("ctrl+s")  # disabled (None: shown, dimmed): nothing runs
        await pilot.pause()
        assert screen.went == 0
        screen.live = True
        await pilot.press("ctrl+s")
        await wait_until(lambda: screen.went == 1, pilot=pilot)
