"""The tool-arguments screen keeps every key of a burst, in the form and in the JSON editor.

The bug these pin: typing ``payments-api`` then Ctrl+S in one burst (a fast typist, a macro,
``tmux send-keys``) answered "Please fix the fields marked in red": Ctrl+S, a priority binding,
ran before the input had seen the letters. The keys are queued on the driver before the app
handles the first (``burst_keys``); every case is also run through ``Pilot.press``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual.app import App
from textual.widgets import TextArea

from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.widgets.form.schema_form import SchemaForm
from tests.ui.burst_keys import DELIVERIES, Delivery, send_burst

SIZE = (80, 24)

SERVICE = {
    "type": "object",
    "properties": {
        "service": {"type": "string", "minLength": 1, "description": "Service to restart"},
        "replicas": {"type": "integer", "minimum": 1},
        "force": {"type": "boolean", "default": False},
    },
    "required": ["service"],
}

#: Nested: shown as the tree form; the tests here open it in the JSON editor (``initial``).
NESTED = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "points": {"type": "array", "items": {"type": "object", "properties": {}}},
    },
    "required": ["name"],
}


class Host(App[None]):
    """Pushes one arguments screen and keeps what it was dismissed with."""

    def __init__(self, schema: dict[str, Any], **kw: Any) -> None:
        super().__init__()
        self.schema = schema
        self.kw = kw
        self.results: list[dict[str, Any] | None] = []

    def on_mount(self) -> None:
        self.push_screen(ArgumentsScreen("restart", self.schema, **self.kw), self.results.append)

    def answered(self) -> bool:
        return bool(self.results)


#: (keys ending in Ctrl+S or Enter on Send, the exact arguments sent)
CASES: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "one field": ((*"payments-api", "ctrl+s"), {"service": "payments-api", "force": False}),
    "tab, integer, space": (
        (*"api", "tab", "3", "tab", "space", "ctrl+s"),
        {"service": "api", "replicas": 3, "force": True},
    ),
    "backspace then enter moves on": (
        ("a", "p", "x", "backspace", "i", "enter", "7", "ctrl+s"),
        {"service": "api", "replicas": 7, "force": False},
    ),
    "enter on the send button": (
        (*"db", "tab", "tab", "tab", "enter"),
        {"service": "db", "force": False},
    ),
}


@DELIVERIES
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.anyio
async def test_form_keys_in_one_burst_are_all_sent(case: str, deliver: Delivery) -> None:
    keys, arguments = CASES[case]
    app = Host(SERVICE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await deliver(pilot, app, keys)
    assert [json.dumps(r) for r in app.results] == [json.dumps(arguments)]


@pytest.mark.anyio
async def test_invalid_burst_sends_nothing_and_later_keys_go_to_the_field_in_error() -> None:
    app = Host(SERVICE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await send_burst(pilot, app, ("tab", "4", "ctrl+s", *"web"))
        assert app.results == []
        assert isinstance(app.screen, ArgumentsScreen)
        assert app.screen.query_one(SchemaForm).raw_values()["service"] == "web"
        await send_burst(pilot, app, ("ctrl+s",))
    assert app.results == [{"service": "web", "replicas": 4, "force": False}]


@pytest.mark.parametrize(
    ("keys", "sent"),
    [(("tab", "escape"), None), (("a", "ctrl+s", "ctrl+s"), {"service": "a", "force": False})],
)
@pytest.mark.anyio
async def test_cancel_and_a_double_send_in_a_burst_answer_once(
    keys: tuple[str, ...], sent: dict[str, Any] | None
) -> None:
    app = Host(SERVICE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await send_burst(pilot, app, keys)
        await pilot.pause()
    assert app.results == [sent]


@DELIVERIES
@pytest.mark.anyio
async def test_json_editor_keys_in_one_burst_are_all_sent(deliver: Delivery) -> None:
    app = Host(NESTED, initial={})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ArgumentsScreen)
        editor = app.screen.query_one("#arguments-json", TextArea)
        assert app.focused is editor
        editor.text = '{"name": ""}'
        editor.move_cursor((0, len('{"name": "')))
        await deliver(pilot, app, (*"payments-api", "ctrl+s"))
    assert app.results == [{"name": "payments-api"}]


@pytest.mark.anyio
async def test_form_to_json_editor_and_typing_in_one_burst() -> None:
    """F2 swaps the form for the editor (mounting it); keys after F2 go to the editor."""
    app = Host(SERVICE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await send_burst(pilot, app, (*"api", "f2", "x"))
        assert isinstance(app.screen, ArgumentsScreen)
        editor = app.screen.query_one("#arguments-json", TextArea)
        assert editor.text == "x" + json.dumps({"service": "api", "force": False}, indent=2)
