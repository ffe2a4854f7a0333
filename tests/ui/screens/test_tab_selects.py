"""Fields a person edits as in a browser, at 80x24 (issue 41.4).

Tab (or Shift+Tab, or Enter moving on) into a pre-filled field selects its value, so typing
replaces it: typing ``4`` into a party size of ``2`` gave ``24`` and an error. The field a form
opens on keeps its cursor at the end, an arrow key or a click places the cursor as always, and a
field the person typed in keeps its cursor when Tab comes back to it (nothing typed is lost).
And the completion's → takes the dim suggestion when the server matched what was typed in
another case (``l`` → ``LHR``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input

from mcp_tui.schema.arguments.last_sent import Prefill
from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.completions import Completion
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.argument_completions import offered_extension
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

SIZE = (80, 24)

FIELDS = (
    FieldSpec("name", FieldKind.TEXT, "Name", default="Ada", has_default=True),
    FieldSpec("party", FieldKind.INTEGER, "Party size", default=2, has_default=True, maximum=99),
    FieldSpec("note", FieldKind.TEXT, "Note", default="window seat", has_default=True),
)


class FormHost(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.outcomes: list[ElicitationOutcome | None] = []

    def on_mount(self) -> None:
        request = ElicitationRequest("local", "Book", "form", form=FormSpec(FIELDS))
        self.push_screen(ElicitationScreen(request), callback=self.outcomes.append)


def control(app: App[Any]) -> Input:
    focused = app.focused
    assert isinstance(focused, Input), focused
    return focused


async def focus_on(app: App[Any], pilot: Any, field: str) -> Input:
    def there() -> Input | None:
        focused = app.focused
        row = focused.parent if focused is not None else None
        name = getattr(getattr(row, "field", None), "name", None)
        return focused if isinstance(focused, Input) and name == field else None

    return await wait_until(there, pilot=pilot, message=f"focus on {field}")


async def test_tab_selects_a_prefilled_value_and_typing_replaces_it() -> None:
    app = FormHost()
    async with app.run_test(size=SIZE) as pilot:
        name = await focus_on(app, pilot, "name")
        await pilot.press("!")  # the field the form opens on keeps its cursor at the end
        assert name.value == "Ada!"
        await pilot.press("tab")
        party = await focus_on(app, pilot, "party")
        assert party.selected_text == "2"
        await pilot.press("4")
        assert party.value == "4", "typed over the selected value, not appended to it"
        await pilot.press("enter")  # Enter moves on as Tab does
        note = await focus_on(app, pilot, "note")
        assert note.selected_text == "window seat"
        await pilot.press("left", "A", "space")  # an arrow key places the cursor: nothing lost
        assert note.value == "A window seat"
        await pilot.press("shift+tab")  # back into a field typed in: its cursor, as it was left
        await focus_on(app, pilot, "party")
        assert party.selected_text == ""
        await pilot.press("1")
        assert party.value == "41"
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.outcomes, pilot=pilot, message="the answer")
    outcome = app.outcomes[0]
    assert outcome is not None and outcome.content == {
        "name": "Ada!",
        "party": 41,
        "note": "A window seat",
    }


async def test_a_click_places_the_cursor_where_it_lands() -> None:
    app = FormHost()
    async with app.run_test(size=SIZE) as pilot:
        await focus_on(app, pilot, "name")
        screen = app.screen
        note = next(w for w in screen.query(Input) if w.value == "window seat")
        await pilot.click(note, offset=(0, 0))
        await focus_on(app, pilot, "note")
        assert note.selected_text == "" and note.cursor_position == 0
        await pilot.press("A", "space")
        assert note.value == "A window seat"


class ArgumentsHost(App[None]):
    def __init__(self, completer: Any = None) -> None:
        super().__init__()
        self.completer = completer

    def on_mount(self) -> None:
        schema = {
            "type": "object",
            "properties": {"origin": {"type": "string"}, "destination": {"type": "string"}},
        }
        self.push_screen(
            ArgumentsScreen(
                "fly",
                schema,
                prefill=Prefill({"origin": "CDG", "destination": "JFK"}, label="the last call"),
                completer=self.completer,
            )
        )


async def test_tab_selects_in_the_arguments_form_too() -> None:
    app = ArgumentsHost()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        first = control(app)
        await pilot.press("tab")
        await wait_until(lambda: app.focused is not first, pilot=pilot, message="the next field")
        second = control(app)
        assert second.selected_text == "JFK"
        await pilot.press(*"LHR")
        assert second.value == "LHR"


class Airports:
    """A server that matches what was typed case-insensitively, as most do."""

    async def __call__(self, argument: str, value: str, context: Mapping[str, str]) -> Completion:
        codes = ("LHR", "LGW", "CDG")
        return Completion(tuple(c for c in codes if c.casefold().startswith(value.casefold())))


async def test_right_arrow_takes_a_suggestion_matched_in_another_case() -> None:
    app = ArgumentsHost(Airports())
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        origin = control(app)
        await pilot.press("end", "backspace", "backspace", "backspace", "l")
        await wait_until(lambda: origin.value == "l", pilot=pilot, message="l typed")
        await wait_until(
            lambda: origin._suggestion == "LHR", pilot=pilot, message="the dim suggestion"
        )
        await pilot.press("right")
        assert origin.value == "LHR"


def test_the_offered_extension() -> None:
    assert offered_extension("l", ("LHR", "LGW")) == "LHR"
    assert offered_extension("Pa", ("pal", "Paris")) == "Paris", "the typed case first"
    assert offered_extension("", ("", "a")) == "a"
    assert offered_extension("LHR", ("lhr",)) is None, "nothing to add"
    assert offered_extension("x", ("LHR",)) is None
