"""The tool-arguments tree form through Pilot: lists, sections, variants, maps, recursion, F2.

Each test plays the user with keys on the real ``ArgumentsScreen`` and asserts the exact
arguments it is dismissed with (what would be sent).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, TextArea

from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.widgets.arguments.argument_lists import ArrayBox
from mcp_tui.ui.widgets.arguments.argument_objects import ObjectBox
from mcp_tui.ui.widgets.arguments.argument_variants import RecursiveBox
from mcp_tui.ui.widgets.arguments.arguments_form import ArgumentsForm
from mcp_tui.ui.widgets.form.field_row import FieldRow
from tests.ui.app_testkit import ArgumentsHost
from tests.waits import mounted_screen, wait_until

pytestmark = pytest.mark.anyio
SIZE = (100, 40)

PEOPLE = {
    "type": "object",
    "properties": {
        "people": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "age": {"type": "integer", "minimum": 0},
                },
                "required": ["name"],
            },
        },
        "options": {
            "type": "object",
            "properties": {"notify": {"type": "boolean"}, "note": {"type": "string"}},
            "required": ["note"],
        },
    },
    "required": ["people"],
}


def form(pilot: Pilot[None]) -> ArgumentsForm:
    return pilot.app.screen.query_one(ArgumentsForm)


async def focus(pilot: Pilot[None], path: tuple[Any, ...]) -> FieldRow:
    await pilot.pause()
    row = form(pilot).widget_at(path)
    assert isinstance(row, FieldRow), (path, row)
    row.focus_control()
    await pilot.pause()
    return row


async def type_at(pilot: Pilot[None], path: tuple[Any, ...], text: str) -> None:
    await focus(pilot, path)
    await pilot.press(*text)


async def add_item(pilot: Pilot[None], path: tuple[Any, ...]) -> None:
    box = form(pilot).widget_at(path)
    assert isinstance(box, ArrayBox)
    pilot.app.screen.set_focus(box.query_one(".array-add", Button))
    await pilot.press("enter")


async def test_items_are_added_removed_and_moved_with_keys() -> None:
    app = ArgumentsHost(PEOPLE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await add_item(pilot, ("people",))
        await pilot.press(*"Ada")  # focus went to the new item's first field
        await pilot.press("alt+n", *"Bob")  # Alt+N: a new item after this one
        await pilot.press("alt+n", *"Cy")
        await type_at(pilot, ("people", 2, "age"), "36")
        await focus(pilot, ("people", 1, "name"))
        await pilot.press("ctrl+r")  # Bob removed
        await focus(pilot, ("people", 1, "name"))  # Cy, now second
        await pilot.press("alt+up")  # moved first
        await pilot.press("ctrl+s")
        await pilot.pause()
    # "options" was never touched: left out (its required "note" is not asked for).
    assert app.results == [{"people": [{"name": "Cy", "age": 36}, {"name": "Ada"}]}]


async def test_errors_land_on_the_nested_field_and_unfold_its_section() -> None:
    app = ArgumentsHost(PEOPLE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        options = form(pilot).widget_at(("options",))
        assert isinstance(options, ObjectBox) and options.folded  # optional: folded
        await add_item(pilot, ("people",))
        await type_at(pilot, ("people", 0, "age"), "-3")  # below the minimum; name empty
        await pilot.press("ctrl+s")
        await pilot.pause()
        errors = form(pilot).errors
        assert errors[("people", 0, "name")] == "Required"
        assert ("people", 0, "age") in errors
        name = form(pilot).widget_at(("people", 0, "name"))
        assert isinstance(name, FieldRow) and name.error_shown
        assert pilot.app.focused is name.control  # the first field in error
        await pilot.press(*"Ada")
        await focus(pilot, ("people", 0, "age"))
        await pilot.press("backspace", "backspace", "4", "2")
        # Something typed in the folded section's field makes it sent: its "note" is required.
        options.folded and await options.toggle()
        await focus(pilot, ("options", "notify"))
        await pilot.press("space")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert form(pilot).errors == {("options", "note"): "Required"}
        assert pilot.app.focused is form(pilot).widget_at(("options", "note")).control  # type: ignore[union-attr]
        await pilot.press(*"hi", "ctrl+s")
        await pilot.pause()
    assert app.results == [
        {"people": [{"name": "Ada", "age": 42}], "options": {"notify": True, "note": "hi"}}
    ]


async def test_f2_carries_the_values_to_json_and_back() -> None:
    app = ArgumentsHost(PEOPLE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await add_item(pilot, ("people",))
        await pilot.press(*"Ada")
        await pilot.press("f2")
        await pilot.pause()
        editor = pilot.app.screen.query_one(TextArea)
        assert json.loads(editor.text) == {"people": [{"name": "Ada"}]}
        editor.text = json.dumps({"people": [{"name": "Ada", "age": 7}, {"name": "Bo"}]})
        await pilot.press("f2")
        await pilot.pause()
        age = form(pilot).widget_at(("people", 0, "age"))
        assert isinstance(age, FieldRow) and age.get_raw() == "7"
        await type_at(pilot, ("people", 1, "name"), "b")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.results == [{"people": [{"name": "Ada", "age": 7}, {"name": "Bob"}]}]


async def test_invalid_json_stays_in_the_editor_with_the_reason() -> None:
    app = ArgumentsHost(PEOPLE, initial={})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        pilot.app.screen.query_one(TextArea).text = '{"people": ['
        await pilot.press("f2")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ArgumentsScreen) and screen.use_editor
        errors = str(screen.query_one("#arguments-errors").render())
        assert "The form needs valid JSON" in errors


TREE = {
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "child": {"$ref": "#/$defs/Node"},
            },
            "required": ["label"],
        }
    },
    "type": "object",
    "properties": {
        "root": {"$ref": "#/$defs/Node"},
        "env": {"type": "object", "additionalProperties": {"type": "integer"}},
        "mode": {"anyOf": [{"type": "boolean"}, {"type": "string", "maxLength": 3}]},
    },
    "required": ["root"],
}


async def test_recursion_expands_on_demand_maps_take_rows_variants_switch() -> None:
    app = ArgumentsHost(TREE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await type_at(pilot, ("root", "label"), "top")
        child = form(pilot).widget_at(("root", "child"))
        assert isinstance(child, RecursiveBox)
        pilot.app.screen.set_focus(child.query_one(".recursive-expand", Button))
        await pilot.press("enter")  # one more level, focused
        await pilot.press(*"leaf")
        env = form(pilot).widget_at(("env",))
        assert isinstance(env, ObjectBox)
        await env.toggle()
        pilot.app.screen.set_focus(env.query_one(".map-add", Button))
        await pilot.press("enter")
        await pilot.pause()
        key = env.query_one("#" + env.query(".map-key Input").first().id)  # type: ignore[operator]
        pilot.app.screen.set_focus(key)
        await pilot.press(*"N", "tab", *"12")
        # The variant: pick "text" (the second choice), then type a value.
        picker = pilot.app.screen.query("VariantBox PickerRow").first()
        assert isinstance(picker, FieldRow)
        picker.focus_control()
        await pilot.press("enter", "down", "down", "enter")
        # The chosen variant's rows are mounted in place of the first one's.
        await wait_until(lambda: pilot.app.screen.query("VariantBox LeafRow"), pilot=pilot)
        value = [r for r in pilot.app.screen.query("VariantBox LeafRow")]
        assert len(value) == 1 and isinstance(value[0], FieldRow)
        value[0].focus_control()
        await pilot.press(*"abc")
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.results, pilot=pilot, message="the form sent")
    assert app.results == [
        {"root": {"label": "top", "child": {"label": "leaf"}}, "env": {"N": 12}, "mode": "abc"}
    ]


async def test_a_root_that_is_no_object_opens_the_editor_with_the_reason() -> None:
    app = ArgumentsHost({"type": "array", "items": {"type": "string"}})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ArgumentsScreen) and screen.use_editor
        note = str(screen.query_one(".arguments-note").render())
        assert "The form cannot show this schema" in note


async def test_escape_asks_once_an_item_was_added() -> None:
    from mcp_tui.ui.screens.confirm import ConfirmScreen

    app = ArgumentsHost(PEOPLE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await add_item(pilot, ("people",))  # nothing typed, but the form changed
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
    assert app.results == [None]


async def test_server_text_in_a_nested_form_stays_literal() -> None:
    hostile = "[bold red]boom[/] \x1b[31m$(rm -rf /)"
    schema = {
        "type": "object",
        "properties": {
            hostile: {
                "type": "array",
                "description": hostile,
                "items": {
                    "anyOf": [
                        {
                            "type": "object",
                            "title": hostile,
                            "properties": {"a": {"type": "string"}},
                        },
                        {"type": "integer", "title": "[link=http://x]n[/link]"},
                    ]
                },
            }
        },
        "required": [hostile],
    }
    app = ArgumentsHost(schema)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await add_item(pilot, (hostile,))
        await pilot.pause()
        text = "\n".join(str(w.render()) for w in pilot.app.screen.query("Static") if w.display)
        assert "[bold red]boom[/]" in text  # shown as typed, not as markup
        assert "\x1b" not in text  # the escape byte never reaches the terminal


async def test_a_refused_send_on_an_untouched_form_does_not_make_escape_ask() -> None:
    """Ctrl+S reads every row; the empty string list's one blank item and a blank text box are
    nothing typed, so Escape after the refusal still closes at once."""
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "note": {"type": "string"},
            "need": {"type": "string"},
            "nested": {"type": "object", "properties": {"a": {"type": "string"}}},
        },
        "required": ["need"],
    }
    app = ArgumentsHost(schema)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        screen = app.screen
        assert isinstance(screen, ArgumentsScreen)
        await pilot.press("ctrl+s")
        await wait_until(lambda: form(pilot).widget_at(("need",)).error_shown, pilot=pilot)
        assert not screen.changed
        await pilot.press("escape")
        await wait_until(lambda: app.results, pilot=pilot, message="closed without asking")
    assert app.results == [None]


#: What the form's own rows do not check (``not`` on a value; an ``allOf`` beside an object's
#: properties, which makes that object a row of JSON): only the final check against the tool's
#: original schema stands between such values and the server.
BEYOND_THE_FORM = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "not": {"const": "x"}},
        "box": {
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "allOf": [{"properties": {"a": {"maximum": 3}}}],
        },
    },
    "required": ["code", "box"],
}


async def test_values_the_form_passes_but_the_schema_refuses_are_not_sent() -> None:
    app = ArgumentsHost(BEYOND_THE_FORM)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        await wait_until(lambda: form(pilot).widget_at(("box",)), pilot=pilot)
        await type_at(pilot, ("code",), "x")
        await type_at(pilot, ("box",), '{"a":9}')
        await pilot.press("ctrl+s")
        await wait_until(lambda: form(pilot).errors, pilot=pilot, message="the schema's errors")
        errors = form(pilot).errors
        assert "should not be valid" in errors[("code",)]
        assert "maximum of 3" in errors[("box", "a")]
        row = form(pilot).widget_at(("code",))
        assert isinstance(row, FieldRow) and row.error_shown  # said on the field itself
        assert app.results == []  # nothing sent
        await focus(pilot, ("code",))
        await pilot.press("backspace", "y")
        await focus(pilot, ("box",))
        await pilot.press("end", "left", "backspace", "2", "ctrl+s")
        await wait_until(lambda: app.results, pilot=pilot, message="sent once valid")
    assert app.results == [{"code": "y", "box": {"a": 2}}]
