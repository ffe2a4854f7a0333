"""Completions on the arguments screen: debounced, superseded requests cancelled, the other
fields sent as context, suggestions shown as literal text, nothing asked without a completer.

A fake completer stands in for the server (``tests/interop/test_everything_completions.py`` has
the real one); it records every request that reached it and every one that was cancelled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input, Static

from mcp_tui.session.completions import Completion
from mcp_tui.ui.completions import completer_for
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from tests.ui.burst_keys import burst
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "street": {"type": "string"}},
    "required": ["city", "street"],
}


class FakeServer:
    """Records requests; a value in ``hold`` waits until cancelled."""

    def __init__(self, values: tuple[str, ...] = ("Paris", "Parma"), hold: str | None = None):
        self.values = values
        self.hold = hold
        self.asked: list[tuple[str, str, dict[str, str]]] = []
        self.cancelled: list[str] = []

    async def __call__(self, argument: str, value: str, context: Mapping[str, str]) -> Completion:
        self.asked.append((argument, value, dict(context)))
        if value == self.hold:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.cancelled.append(value)
                raise
        return Completion(tuple(v for v in self.values if v.startswith(value)))


class Host(App[None]):
    def __init__(self, server: Any) -> None:
        super().__init__()
        self.server = server

    def on_mount(self) -> None:
        self.push_screen(ArgumentsScreen("t", SCHEMA, verb="Get", completer=self.server))


def line(app: App[Any]) -> str:
    widget = next(app.screen.query("#arguments-suggestions").results(Static), None)
    return str(widget.render()) if widget is not None and widget.display else ""


async def test_a_burst_of_keys_asks_once_for_the_last_value() -> None:
    server = FakeServer()
    app = Host(server)
    async with app.run_test() as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        burst(app, "P", "a", "r")
        # The empty field's own answer (asked on focus) shows "Paris · Parma" too: wait for "Par".
        await wait_until(
            lambda: (
                any(value == "Par" for _, value, _ in server.asked) and "Paris · Parma" in line(app)
            ),
            pilot=pilot,
            message="the line for Par",
        )
        typed = [value for _, value, _ in server.asked if value]
        assert typed == ["Par"], "each key before the pause was superseded, never sent"
        assert app.screen.completions is not None and app.screen.completions.sent == len(
            server.asked
        )


async def test_a_newer_keystroke_cancels_the_request_in_flight() -> None:
    server = FakeServer(hold="P")
    app = Host(server)
    async with app.run_test() as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        await pilot.press("P")
        await wait_until(lambda: ("city", "P", {}) in server.asked, pilot=pilot, message="P")
        await pilot.press("a")
        await wait_until(lambda: "Paris · Parma" in line(app), pilot=pilot, message="Pa")
        assert server.cancelled == ["P"]


async def test_the_other_fields_go_as_context_and_suggestions_stay_literal() -> None:
    server = FakeServer(values=("[b]Rue[/b] \x1b[31mred", "[@click=app.quit]x[/]"))
    app = Host(server)
    async with app.run_test() as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        await pilot.press(*"Lyon", "tab")
        await wait_until(lambda: "street" in line(app), pilot=pilot, message="street")
        assert ("street", "", {"city": "Lyon"}) in server.asked
        shown = line(app)
        assert "[b]Rue[/b] \\e[31mred" in shown and "[@click=app.quit]x[/]" in shown
        assert app.is_running


def test_no_completer_without_the_capability() -> None:
    class Plain:
        offers_completions = False

        async def complete(self, *args: Any) -> Completion:
            raise AssertionError("never asked")

    assert completer_for(Plain(), "prompt", "p") is None
    assert completer_for(object(), "prompt", "p") is None
    Plain.offers_completions = True
    assert completer_for(Plain(), "prompt", "p") is not None
