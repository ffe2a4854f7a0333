"""The arguments screen's bodies through Pilot: what F2 carries between the flat form and the
JSON editor, Escape in the editor, and a schema that cannot check what it is sent.

The tree form's own F2 round trip is in ``test_arguments_tree_form``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.widgets.form.schema_form import SchemaForm
from tests.ui.app_testkit import ArgumentsHost, wait_until

pytestmark = pytest.mark.anyio
SIZE = (100, 40)

FLAT = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "count": {"type": "integer"}},
    "required": ["name"],
}


async def until(pilot: Pilot[None], condition: Any) -> None:
    await wait_until(condition, pilot=pilot)


def editor(pilot: Pilot[None]) -> TextArea:
    return pilot.app.screen.query_one("#arguments-json", TextArea)


async def test_f2_carries_flat_values_to_json_and_back_even_invalid_ones() -> None:
    app = ArgumentsHost(FLAT)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: pilot.app.screen.query(SchemaForm))
        await pilot.press("tab", "7")  # the required name left empty: what is filled still goes
        await pilot.press("f2")
        await until(pilot, lambda: pilot.app.screen.query("#arguments-json"))
        assert json.loads(editor(pilot).text) == {"name": "", "count": 7}
        editor(pilot).text = json.dumps({"name": "Bo", "count": 3})
        await pilot.press("f2")
        await until(pilot, lambda: pilot.app.screen.query(SchemaForm))
        form = pilot.app.screen.query_one(SchemaForm)
        assert form.raw_values() == {"name": "Bo", "count": "3"}
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.results)
    assert app.results == [{"name": "Bo", "count": 3}]


async def test_escape_in_the_editor_closes_untouched_and_asks_once_typed_in() -> None:
    """Escape in the editor is the screen's Escape, as the footer says (it once only moved the
    focus on, to the Send button, and the next Enter sent the call)."""
    app = ArgumentsHost(FLAT, initial={"name": "Ada"})
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: pilot.app.screen.query("#arguments-json"))
        start = editor(pilot).text
        await pilot.press("escape")  # untouched: closes at once
        await until(pilot, lambda: app.results)
        assert app.results == [None]
        app.push_screen(ArgumentsScreen("tool", FLAT, initial={"name": "Ada"}), app.results.append)
        await until(pilot, lambda: pilot.app.screen.query("#arguments-json"))
        await pilot.press("end", "space", "escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        assert editor(pilot).text != start
        assert app.results == [None]
        # Tab leaves the editor (JSON needs no indentation), as it leaves a form's field.
        editor(pilot).focus()
        await until(pilot, lambda: editor(pilot).has_focus)
        text = editor(pilot).text
        await pilot.press("tab")
        await until(pilot, lambda: not editor(pilot).has_focus)
        assert editor(pilot).text == text


async def test_a_schema_that_cannot_check_sends_on_the_second_ctrl_s() -> None:
    # not a JSON Schema: neither form shows it, nothing can check it
    app = ArgumentsHost({"type": 5})
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: pilot.app.screen.query("#arguments-json"))
        editor(pilot).text = '{"a": 1}'
        await pilot.press("ctrl+s")
        screen = pilot.app.screen
        await until(pilot, lambda: "again" in str(screen.query_one("#arguments-errors").render()))
        assert app.results == []
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.results)
    assert app.results == [{"a": 1}]


#: server-everything's trigger-url-elicitation: one paragraph, six lines at 80 columns.
LONG_DESCRIPTION = (
    "Trigger a URL elicitation so the client can direct the user to a browser flow. Supports "
    "two mechanisms: the request path (elicitation/create, default) which awaits the user's "
    "response, and the error path (UrlElicitationRequiredError, -32042) which signals that "
    "the client must complete the URL flow before retrying the request. THE END"
)


@pytest.mark.parametrize(("size", "cut"), [((80, 24), True), ((100, 40), False)])
async def test_a_long_description_says_when_it_is_cut(size: tuple[int, int], cut: bool) -> None:
    """At 80x24 the description once stopped mid-sentence with no sign of the rest."""
    from mcp_tui.ui.widgets.text.fitted_text import FittedText

    app = ArgumentsHost(FLAT, description=LONG_DESCRIPTION)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: pilot.app.screen.query(SchemaForm))
        text = pilot.app.screen.query_one(".arguments-description", FittedText)
        await until(pilot, lambda: text._fitted is not None)
        shown = str(text.render())
        lines = shown.splitlines()
        assert text.region.height <= max(2, size[1] // 5)
        if cut:
            assert text.region.height == len(lines)
            assert lines[-1] == "… (i in the catalog shows it all)" and "THE END" not in shown
            # A taller terminal: the whole text comes back, without the note.
            await pilot.resize_terminal(80, 50)
            await until(pilot, lambda: "THE END" in str(text.render()))
            assert "catalog shows" not in str(text.render())
        else:
            assert shown.rstrip().endswith("THE END") and "catalog shows" not in shown
