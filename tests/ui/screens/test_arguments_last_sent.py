"""A tool's form starts from its last call's arguments, says so, and F3 goes to the defaults and
back: the flat form, the tree form (lists, variants, maps) and the JSON editor, then the whole
round trip through the session screen (send, reopen, a changed schema, ``--call``).

The choice of what to offer is unit-tested in ``tests/schema/test_last_sent.py``.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Checkbox, TextArea

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.schema.arguments import partial
from mcp_tui.schema.arguments.last_sent import Prefill
from mcp_tui.session.events import (
    CatalogChanged,
    ConnectionState,
    PromptArgumentInfo,
    PromptInfo,
    ResourceInfo,
    ToolInfo,
)
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.widgets.arguments.arguments_form import ArgumentsForm
from mcp_tui.ui.widgets.form.schema_form import SchemaForm
from tests.ui.app_testkit import (
    ArgumentsHost,
    catalog_has,
    make_app,
    mounted_screen,
    open_node,
    wait_for,
    wait_until,
)

pytestmark = pytest.mark.anyio
SIZE = (100, 40)

FLAT = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "count": {"type": "integer", "default": 1},
        "loud": {"type": "boolean"},
    },
    "required": ["name"],
}

TREE = {
    "type": "object",
    "properties": {
        "tags": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "target": {
            "oneOf": [
                {
                    "type": "object",
                    "title": "file",
                    "properties": {"kind": {"const": "file"}, "path": {"type": "string"}},
                    "required": ["kind", "path"],
                },
                {
                    "type": "object",
                    "title": "url",
                    "properties": {"kind": {"const": "url"}, "url": {"type": "string"}},
                    "required": ["kind", "url"],
                },
            ]
        },
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["target"],
}

SENT_TREE: dict[str, Any] = {
    "tags": ["alpha", "beta"],
    "target": {"kind": "url", "url": "https://example.com/x"},
    "labels": {"env": "dev"},
}


async def until(pilot: Pilot[None], condition: Any) -> None:
    await wait_until(condition, pilot=pilot)


def origin(app: App[Any]) -> str:
    widget = app.screen.query_one("#arguments-origin")
    return str(widget.render()) if widget.display else ""


def footer_keys(app: App[Any]) -> dict[str, str]:
    return {b.binding.action: b.binding.description for b in app.active_bindings.values()}


def flat_raws(app: App[Any]) -> dict[str, Any]:
    return app.screen.query_one(SchemaForm).raw_values()


def shown(app: App[Any], selector: Any) -> Widget | None:
    """The body's ``selector`` widget (the flat form, the tree form, the editor), if any."""
    found = app.screen.query(selector)
    return found.first() if found else None


async def replaced(pilot: Pilot[None], app: App[Any], selector: Any, old: Widget | None) -> None:
    """Wait until the body shows a new, mounted ``selector`` widget in place of ``old``.

    F2 and F3 update the line above the body at once, then remove the body and mount a new one:
    until then the old form is still there to be read (its values, not the new ones).
    """

    def new() -> bool:
        widget = shown(app, selector)
        return widget is not None and widget is not old and widget.is_mounted

    await wait_until(new, pilot=pilot, message=f"a new {selector} in the body")


async def test_a_flat_form_starts_from_the_last_call_and_f3_goes_to_the_defaults_and_back() -> None:
    sent = {"name": "Ada", "count": 4, "loud": True}
    app = ArgumentsHost(FLAT, prefill=Prefill(sent, "last sent 12:03:04"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(SchemaForm))
        assert flat_raws(app) == {"name": "Ada", "count": "4", "loud": True}
        assert origin(app) == "Values last sent 12:03:04 · F3: the defaults"
        assert footer_keys(app).get("defaults") == "Defaults"
        assert "last_sent" not in footer_keys(app)
        old = shown(app, SchemaForm)
        await pilot.press("f3")
        await until(pilot, lambda: origin(app).startswith("The defaults"))
        await replaced(pilot, app, SchemaForm, old)
        assert flat_raws(app) == {"name": "", "count": "1", "loud": None}
        assert origin(app) == "The defaults · F3: the values last sent 12:03:04"
        assert footer_keys(app).get("last_sent") == "Last sent"
        assert "defaults" not in footer_keys(app)
        old = shown(app, SchemaForm)
        await pilot.press("f3")
        await until(pilot, lambda: origin(app).startswith("Values"))
        await replaced(pilot, app, SchemaForm, old)
        assert flat_raws(app) == {"name": "Ada", "count": "4", "loud": True}
        await pilot.press("ctrl+s")  # untouched, the remembered values are sent as they are
        await until(pilot, lambda: app.results)
    assert app.results == [sent]


async def test_f3_asks_before_it_replaces_what_was_typed() -> None:
    app = ArgumentsHost(FLAT, prefill=Prefill({"name": "Ada"}, "last sent 12:03:04"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(SchemaForm))
        await pilot.press("end", *"ne")  # the name field has the focus: "Adane"
        await pilot.press("f3")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # keep the form: nothing changes
        await until(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        assert flat_raws(app)["name"] == "Adane"
        assert origin(app).startswith("Values last sent")
        old = shown(app, SchemaForm)
        await pilot.press("f3")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        await until(pilot, lambda: origin(app).startswith("The defaults"))
        await replaced(pilot, app, SchemaForm, old)
        assert flat_raws(app)["name"] == ""
        await pilot.press("escape")  # the defaults, untouched: closes without asking
        await until(pilot, lambda: app.results)
    assert app.results == [None]


async def test_f2_shows_the_prefilled_values_and_f3_in_the_editor_gives_the_starter() -> None:
    sent = {"name": "Ada", "count": 4}
    app = ArgumentsHost(FLAT, prefill=Prefill(sent, "last sent 12:03:04"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(SchemaForm))
        await pilot.press("f2")
        await until(pilot, lambda: app.screen.query("#arguments-json"))
        editor = app.screen.query_one("#arguments-json", TextArea)
        assert json.loads(editor.text) == sent
        await pilot.press("f3")
        await until(pilot, lambda: origin(app).startswith("The defaults"))
        await replaced(pilot, app, "#arguments-json", editor)
        editor = app.screen.query_one("#arguments-json", TextArea)
        assert json.loads(editor.text) != sent  # the starter, built from the schema
        assert "Ada" not in editor.text
        await pilot.press("f2")  # and the form behind it is at the defaults too
        await replaced(pilot, app, SchemaForm, None)
        assert flat_raws(app)["count"] == "1"


async def test_a_schema_only_the_editor_shows_starts_from_the_last_call() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "object", "not": {"type": "null"}}}}
    app = ArgumentsHost(schema, prefill=Prefill({"a": {"b": 1}}, "last sent 12:03:04"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query("#arguments-json, #arguments-form"))
        if app.screen.query("#arguments-form"):
            await pilot.press("f2")
        await until(pilot, lambda: app.screen.query("#arguments-json"))
        editor = app.screen.query_one("#arguments-json", TextArea)
        assert json.loads(editor.text) == {"a": {"b": 1}}


async def test_the_tree_form_starts_from_lists_variants_and_maps_of_the_last_call() -> None:
    app = ArgumentsHost(TREE, prefill=Prefill(SENT_TREE, "last sent 12:03:04"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(ArgumentsForm))
        form = app.screen.query_one(ArgumentsForm)
        assert form.partial() == SENT_TREE
        await pilot.press("f2")
        await until(pilot, lambda: app.screen.query("#arguments-json"))
        assert json.loads(app.screen.query_one("#arguments-json", TextArea).text) == SENT_TREE
        await pilot.press("f2")
        await until(pilot, lambda: app.screen.query(ArgumentsForm))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.results)
    assert app.results == [SENT_TREE]


async def test_the_tree_form_goes_to_its_defaults_and_back() -> None:
    app = ArgumentsHost(TREE, prefill=Prefill(SENT_TREE, "last sent 12:03:04"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(ArgumentsForm))
        old = shown(app, ArgumentsForm)
        await pilot.press("f3")
        await until(pilot, lambda: origin(app).startswith("The defaults"))
        await replaced(pilot, app, ArgumentsForm, old)
        form = app.screen.query_one(ArgumentsForm)
        assert "alpha" not in json.dumps(partial(form.root, form.state))  # (read without a sync)
        await pilot.press("f3")
        await until(pilot, lambda: origin(app).startswith("Values"))
        await replaced(pilot, app, ArgumentsForm, form)
        assert app.screen.query_one(ArgumentsForm).partial() == SENT_TREE


async def test_a_note_says_why_the_form_starts_from_the_defaults() -> None:
    # The note may quote the schema (a validation message): shown as literal text.
    note = "The arguments last sent 12:03:04 do not fit the schema (q: [b]x[/b] \x1b[31m)."
    app = ArgumentsHost(FLAT, prefill=Prefill(note=note))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(SchemaForm))
        assert origin(app).startswith("The arguments last sent 12:03:04 do not fit")
        assert "[b]x[/b]" in origin(app) and "\x1b" not in origin(app)
        assert "defaults" not in footer_keys(app) and "last_sent" not in footer_keys(app)
        await pilot.press("f3")  # nothing to go back to: F3 does nothing
        await pilot.press("escape")
        await until(pilot, lambda: app.results)
    assert app.results == [None]


async def test_a_tool_without_arguments_says_nothing_of_values_it_will_not_send() -> None:
    """``--call ping --args '{"x": 1}'`` on a tool that takes none: the form sends {}."""
    schema = {"type": "object", "properties": {}}
    app = ArgumentsHost(schema, prefill=Prefill({"x": 1}, "from --call 12:03:04"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(".arguments-note"))
        assert origin(app) == ""
        assert "defaults" not in footer_keys(app)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.results)
    assert app.results == [{}]


async def test_without_a_last_call_there_is_no_line_and_no_f3() -> None:
    app = ArgumentsHost(FLAT)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.query(SchemaForm))
        assert origin(app) == ""
        assert "defaults" not in footer_keys(app) and "last_sent" not in footer_keys(app)


# --- through the session screen ----------------------------------------------------------------


def echo_raws(app: App[Any]) -> dict[str, Any]:
    return app.screen.query_one(SchemaForm).raw_values()


async def open_echo(pilot: Pilot[None], app: Any) -> None:
    await open_node(pilot, app, "demo", "echo")
    await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
    await wait_for(pilot, lambda: bool(app.screen.query(SchemaForm)))


async def test_reopening_a_tool_starts_from_its_last_call_until_its_schema_changes() -> None:
    app, factory = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_until(lambda: catalog_has(app, "demo", "echo"), pilot=pilot)
        await open_echo(pilot, app)
        assert origin(app) == ""
        await pilot.press(*"hello", "tab", "backspace", "3")
        before = datetime.now()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(factory.latest("demo").calls))
        after = datetime.now()
        await wait_for(pilot, lambda: not isinstance(app.screen, ArgumentsScreen))

        await open_echo(pilot, app)
        assert echo_raws(app) == {"text": "hello", "times": "3"}
        # The send happened between the two readings; a minute (even an hour) may tick between.
        shown = {f"Values last sent {t:%H:%M}" for t in (before, after)}
        assert any(origin(app).startswith(line) for line in shown), (origin(app), shown)
        # Typed over, then thrown away: discarding means discarding.
        await pilot.press("end", *" world", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not isinstance(app.screen, (ArgumentsScreen, ConfirmScreen)))
        await open_echo(pilot, app)
        assert echo_raws(app)["text"] == "hello"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ArgumentsScreen))

        connection = factory.latest("demo")
        schema = dict(connection.tools[0].input_schema)
        schema["properties"] = {**schema["properties"], "upper": {"type": "boolean"}}
        tools = (ToolInfo("echo", "Echo", input_schema=schema), *connection.tools[1:])
        connection.sink(CatalogChanged("demo", tools=tools))
        await wait_for(pilot, lambda: app.entries["demo"].tools[0].input_schema == schema)
        await open_echo(pilot, app)
        assert echo_raws(app)["text"] == ""
        assert origin(app).startswith("The tool's schema changed since the call at")


async def test_call_flag_arguments_fill_the_form_until_the_form_sends() -> None:
    options = AppOptions(call=ToolCallRequest("echo", {"text": "from the CLI"}))
    app, factory = make_app(options=options)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(factory.made) and bool(factory.latest("demo").calls))
        await wait_until(lambda: catalog_has(app, "demo", "echo"), pilot=pilot)
        await open_echo(pilot, app)
        assert echo_raws(app)["text"] == "from the CLI"
        assert origin(app).startswith("Values from --call ")
        await pilot.press("ctrl+s")  # sent from the form: now they are the form's own
        await wait_for(pilot, lambda: len(factory.latest("demo").calls) == 2)
        await wait_for(pilot, lambda: not isinstance(app.screen, ArgumentsScreen))
        await open_echo(pilot, app)
        assert origin(app).startswith("Values last sent ")


async def test_a_prompt_and_a_template_start_from_what_was_last_sent_to_them() -> None:
    """Prompt arguments and template variables are remembered like a tool's, each apart: a
    prompt named like a tool never gets the tool's values."""
    from tests.ui.fixtures.fake_connection import Script

    greet = PromptInfo(
        "echo",  # the tool's name too
        arguments=(PromptArgumentInfo("who", required=True), PromptArgumentInfo("tone")),
    )
    template = ResourceInfo("file:///notes/{day}/{topic}", "notes", template=True)
    app, factory = make_app({"demo": Script(prompts=(greet,), resources=(template,))})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = app.session
        assert session is not None
        session.calls.call_tool("demo", "echo", {"text": "tool text", "times": 2})  # not remembered
        await wait_for(pilot, lambda: bool(factory.latest("demo").calls))

        session.forms.open_prompt("demo", "echo")
        await wait_for(pilot, lambda: bool(app.screen.query(SchemaForm)))
        assert flat_raws(app) == {"who": "", "tone": ""} and origin(app) == ""
        await pilot.press(*"Ada", "tab", *"warm", "ctrl+s")
        await wait_for(pilot, lambda: bool(factory.latest("demo").prompt_gets))
        await wait_for(pilot, lambda: not isinstance(app.screen, ArgumentsScreen))
        session.forms.open_prompt("demo", "echo")
        await wait_for(pilot, lambda: bool(app.screen.query(SchemaForm)))
        assert flat_raws(app) == {"who": "Ada", "tone": "warm"}
        assert origin(app).startswith("Values last sent ")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ArgumentsScreen))

        session.forms.open_template("demo", template)
        await wait_for(pilot, lambda: bool(app.screen.query(SchemaForm)))
        await pilot.press(*"2026-11-25", "tab", *"mcp", "ctrl+s")
        await wait_for(pilot, lambda: bool(factory.latest("demo").reads))
        await wait_for(pilot, lambda: not isinstance(app.screen, ArgumentsScreen))
        session.forms.open_template("demo", template)
        await wait_for(pilot, lambda: bool(app.screen.query(SchemaForm)))
        assert flat_raws(app) == {"day": "2026-11-25", "topic": "mcp"}
        await pilot.press("escape")
    assert factory.latest("demo").reads == ["file:///notes/2026-11-25/mcp"]


async def test_the_run_as_a_task_tick_is_remembered_with_the_arguments() -> None:
    from mcp_tui.session.events import ServerInfo
    from tests.ui.fixtures.fake_connection import Script

    info = ServerInfo(
        name="tasks-server",
        version="1",
        capabilities={"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}},
        protocol_version="2025-11-25",
    )
    tool = ToolInfo("slow", input_schema=FLAT, task_support="optional")
    app, factory = make_app({"demo": Script(info=info, tools=(tool,))})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = app.session
        assert session is not None

        async def open_slow() -> Checkbox:
            session.forms.open_tool("demo", "slow")
            # Mounted: its body (the form flat_raws reads) too, not only the tick box.
            await wait_for(pilot, lambda: mounted_screen(app, ArgumentsScreen) is not None)
            return app.screen.query_one("#arguments-task", Checkbox)

        box = await open_slow()
        assert not box.value
        box.value = True
        await pilot.press(*"Ada", "ctrl+s")
        await wait_for(pilot, lambda: bool(factory.latest("demo").task_calls))
        await wait_for(pilot, lambda: not isinstance(app.screen, ArgumentsScreen))

        box = await open_slow()
        assert box.value and flat_raws(app)["name"] == "Ada"
        old = shown(app, SchemaForm)
        await pilot.press("f3")  # the defaults: not a task either
        await wait_for(pilot, lambda: not box.value)
        await replaced(pilot, app, SchemaForm, old)
        assert flat_raws(app)["name"] == ""
        await pilot.press("f3")  # the last call again: ticked again
        await wait_for(pilot, lambda: box.value)
        await pilot.press("escape")
