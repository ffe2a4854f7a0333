"""What a field will not take is said, not swallowed: text past maxLength (the key is refused),
and a number field's text that can no longer be read as a number (every key is kept: a refused
key would change the number, see ``test_number_keys``)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from mcp_tui.schema.fields import FieldKind, FieldSpec
from mcp_tui.ui.widgets.form.field_row import FieldRow
from tests.ui.screens.test_elicitation_screen import Host, form_screen, request_for

pytestmark = pytest.mark.anyio


def error_line(app: Any) -> str:
    row = form_screen(app).query_one(FieldRow)
    errors = row.query(".field-error")
    return str(errors.first().render()) if errors and row.error_shown else ""


async def test_text_that_cannot_become_a_number_is_kept_and_said_at_once() -> None:
    app = Host(request_for(FieldSpec("party", FieldKind.INTEGER, "Party size")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*"2,5")
        await pilot.pause()
        assert form_screen(app).query_one(Input).value == "2,5"
        assert "'2,5' is not a whole number" in error_line(app)
        await pilot.press("backspace", "backspace")  # "2" reads as a number again: note gone
        await pilot.pause()
        assert error_line(app) == ""


async def test_a_dot_in_an_integer_field_is_taken_without_a_note() -> None:
    app = Host(request_for(FieldSpec("party", FieldKind.INTEGER, "Party size")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*"25.0")
        await pilot.pause()
        assert form_screen(app).query_one(Input).value == "25.0"
        assert error_line(app) == ""


async def test_text_past_max_length_is_refused_with_a_message() -> None:
    app = Host(request_for(FieldSpec("code", FieldKind.TEXT, "Code", max_length=3)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*"abcd")
        await pilot.pause()
        assert form_screen(app).query_one(Input).value == "abc"
        assert "at most 3 characters: 'd' was not typed" in error_line(app)


async def test_the_note_stays_beside_the_check_until_the_field_is_left() -> None:
    field = FieldSpec("party", FieldKind.INTEGER, "Party size", minimum=1, maximum=12)
    app = Host(request_for(field, FieldSpec("note", FieldKind.TEXT, "Note")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*"25", "tab", "shift+tab", "x")
        await pilot.pause()
        line = error_line(app)
        assert "'25x' is not a whole number" in line
        assert "12" in line  # the check's own message (25 is too many) beside it
        await pilot.press("backspace", "backspace", "tab")
        await pilot.pause()
        assert error_line(app) == ""
