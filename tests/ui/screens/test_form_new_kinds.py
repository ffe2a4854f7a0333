"""Pilot tests of the field kinds SDK schemas brought: list editor, number select, fixed value,
nullable fields; each checks the exact JSON content sent. Forms come from real schema shapes
(parsed), so the chain from what a server sends to what goes back is covered."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App

from mcp_tui.schema import parse_requested_schema
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.widgets.form.list_control import ItemInput, ListControl
from tests.waits import wait_until

SIZE = (100, 40)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "$defs": {"Priority": {"enum": [1, 2, 3], "title": "Priority", "type": "integer"}},
    "properties": {
        "tags": {
            "type": "array",
            "items": {"type": "string"},
            "title": "Tags",
            "maxItems": 5,
        },
        "priority": {"$ref": "#/$defs/Priority", "title": "Priority"},
        "version": {"type": "string", "const": "v1", "title": "Version"},
        "nickname": {
            "anyOf": [{"type": "string"}, {"type": "null"}],
            "default": None,
            "title": "Nickname",
        },
    },
    "required": ["priority"],
}


class Host(App[None]):
    def __init__(self, request: ElicitationRequest) -> None:
        super().__init__()
        self.request = request
        self.outcomes: list[ElicitationOutcome | None] = []

    def on_mount(self) -> None:
        self.push_screen(ElicitationScreen(self.request), callback=self.outcomes.append)


def request(schema: dict[str, Any]) -> ElicitationRequest:
    return ElicitationRequest(
        server="local",
        message="Tell me things",
        mode="form",
        form=parse_requested_schema(schema),
    )


def items(app: App[Any]) -> list[str]:
    return [i.value for i in app.screen.query_one(ListControl).items]


async def items_are(pilot: Any, app: App[Any], expected: list[str]) -> None:
    """Wait for the list's items to be ``expected``: an item added or removed is mounted or
    removed a moment after its key is handled."""
    await wait_until(lambda: items(app) == expected, pilot=pilot, message=f"the items {expected}")


@pytest.mark.anyio
async def test_list_number_select_const_and_nullable_send_exact_json() -> None:
    app = Host(request(SCHEMA))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.focused, ItemInput)
        await pilot.press(*"red", "enter", *"green", "enter", *"blue")
        await items_are(pilot, app, ["red", "green", "blue"])
        await pilot.press("alt+up")  # blue moves above green, focus follows it
        await items_are(pilot, app, ["red", "blue", "green"])
        await pilot.press("down", "enter")  # a new empty item after green
        await items_are(pilot, app, ["red", "blue", "green", ""])
        await pilot.press("backspace")  # removes the empty item
        await items_are(pilot, app, ["red", "blue", "green"])
        await pilot.press("up", "up")
        await pilot.press("ctrl+u", "backspace")  # clear "red", then remove it
        await items_are(pilot, app, ["blue", "green"])
        await pilot.press("tab")  # to the priority select
        await pilot.press("enter", "down", "down", "down", "enter")  # blank, 1, 2, 3
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.outcomes, pilot=pilot, message="the answer")
    assert app.outcomes == [
        ElicitationOutcome("accept", {"tags": ["blue", "green"], "priority": 3, "version": "v1"})
    ]
    outcome = app.outcomes[0]
    assert outcome is not None and outcome.content is not None
    assert type(outcome.content["priority"]) is int  # 3, never "3" or 3.0


@pytest.mark.anyio
async def test_enter_on_an_empty_item_moves_to_the_next_field() -> None:
    app = Host(request(SCHEMA))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"a", "enter", "enter")
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "field-1-control"
        assert items(app) == ["a", ""]


NULLABLE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "nick": {"type": ["string", "null"], "title": "Nickname"},
        "age": {"anyOf": [{"type": "integer"}, {"type": "null"}], "title": "Age"},
        "note": {"type": "string", "default": ""},
    },
    "required": ["nick", "age"],
}


@pytest.mark.anyio
async def test_null_is_sent_only_when_asked_for_with_ctrl_n() -> None:
    app = Host(request(NULLABLE))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")  # nick: null
        await pilot.press("tab", "ctrl+n", *"4")  # age: null, then typing takes it back
        await pilot.press("ctrl+s")
        await pilot.pause()
    # The untouched "" default is sent as "" (the one rule: validate.left_empty).
    assert app.outcomes == [ElicitationOutcome("accept", {"nick": None, "age": 4, "note": ""})]


@pytest.mark.anyio
async def test_a_required_nullable_field_left_empty_is_required() -> None:
    app = Host(request(NULLABLE))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"Al", "tab", "ctrl+n", "ctrl+n")  # null, then back to empty
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.outcomes == []  # not sent: age is required, and null was taken back
