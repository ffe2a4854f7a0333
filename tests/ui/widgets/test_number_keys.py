"""What is typed in a number field is the number sent, or nothing is sent.

A keystroke filter that drops a character changes the number: Textual's integer rule refused the
"." of ``1.0`` and the server was sent ``10``. Number and integer fields keep every key; the check
reads the text (``1``, ``1.0``, ``1e0`` are the integer 1; ``1.5`` is not a whole number) and a
text it refuses blocks sending. The same rows serve elicitation forms and both tool-argument
forms (flat and tree), so each is played here.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from mcp_tui.schema.fields import FieldKind, FieldSpec
from mcp_tui.session.elicitation import ElicitationOutcome
from mcp_tui.ui.widgets.arguments.arguments_form import ArgumentsForm
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.form.schema_form import SchemaForm
from tests.ui.app_testkit import ArgumentsHost
from tests.ui.screens.test_elicitation_screen import Host, form_screen, request_for
from tests.waits import mounted_screen, wait_until

pytestmark = pytest.mark.anyio
SIZE = (80, 24)


async def _elicit(kind: FieldKind, typed: str) -> tuple[Host, str, bool]:
    """Type ``typed`` into a lone required field of ``kind`` and press Ctrl+S: the app, the text
    the field holds, and whether its error is shown."""
    app = Host(request_for(FieldSpec("n", kind, "N", required=True)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: app.screen.query(Input), pilot=pilot)
        await pilot.press(*typed, "ctrl+s")
        await pilot.pause()
        held = form_screen(app).query_one(Input).value if not app.outcomes else typed
        row = None if app.outcomes else form_screen(app).query_one(FieldRow)
        return app, held, bool(row and row.error_shown)


@pytest.mark.parametrize("typed", ["1", "1.0", "1e0", "1.", " 1.00 "])
async def test_an_integer_typed_as_a_whole_decimal_is_sent_as_that_integer(typed: str) -> None:
    app, _, _ = await _elicit(FieldKind.INTEGER, typed)
    assert app.outcomes == [ElicitationOutcome("accept", {"n": 1})]


@pytest.mark.parametrize(
    ("kind", "typed"),
    [
        (FieldKind.INTEGER, "1.5"),  # not whole: never 15
        (FieldKind.INTEGER, "2,5"),  # a decimal comma: never 25
        (FieldKind.NUMBER, "1.2.3"),  # never 1.23
        (FieldKind.NUMBER, "1e5e3"),  # never 1e53
        (FieldKind.NUMBER, "--5"),  # never -5
    ],
)
async def test_a_text_that_is_no_such_number_is_kept_and_blocks_sending(
    kind: FieldKind, typed: str
) -> None:
    app, held, error = await _elicit(kind, typed)
    assert app.outcomes == []  # nothing sent
    assert held == typed  # every key kept, so the person sees what is wrong
    assert error


async def test_a_number_typed_with_a_leading_dot_is_that_number() -> None:
    app, _, _ = await _elicit(FieldKind.NUMBER, ".5")
    assert app.outcomes == [ElicitationOutcome("accept", {"n": 0.5})]


FLAT = {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}
TREE = {
    "type": "object",
    "properties": {
        "box": {
            "type": "object",
            "properties": {"count": {"type": "integer"}},
            "required": ["count"],
        }
    },
    "required": ["box"],
}


async def _arguments(schema: dict[str, Any], path: tuple[str, ...], typed: str) -> ArgumentsHost:
    app = ArgumentsHost(schema)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(
            lambda: app.screen.query(SchemaForm) or app.screen.query(ArgumentsForm), pilot=pilot
        )
        await _focus(pilot, path)
        await pilot.press(*typed, "ctrl+s")
        await pilot.pause()
        if not app.results:
            row = _row(pilot, path)
            assert row.error_shown and row.get_raw() == typed
    return app


def _row(pilot: Pilot[None], path: tuple[str, ...]) -> FieldRow:
    screen = pilot.app.screen
    if screen.query(ArgumentsForm):
        row = screen.query_one(ArgumentsForm).widget_at(path)
    else:
        row = next(r for r in screen.query(FieldRow) if r.field.name == path[-1])
    assert isinstance(row, FieldRow)
    return row


async def _focus(pilot: Pilot[None], path: tuple[str, ...]) -> None:
    await wait_until(lambda: mounted_screen(pilot.app, type(pilot.app.screen)), pilot=pilot)
    _row(pilot, path).focus_control()
    await pilot.pause()


@pytest.mark.parametrize(("schema", "path"), [(FLAT, ("count",)), (TREE, ("box", "count"))])
async def test_tool_argument_forms_send_the_integer_typed(
    schema: dict[str, Any], path: tuple[str, ...]
) -> None:
    app = await _arguments(schema, path, "3.0")
    assert app.results in ([{"count": 3}], [{"box": {"count": 3}}])


@pytest.mark.parametrize(("schema", "path"), [(FLAT, ("count",)), (TREE, ("box", "count"))])
async def test_tool_argument_forms_refuse_a_fraction_in_an_integer(
    schema: dict[str, Any], path: tuple[str, ...]
) -> None:
    app = await _arguments(schema, path, "3.5")
    assert app.results == []  # never 35
