"""Driving a tool's arguments form in the real app, and reading what the server was sent.

A tool is opened from the catalog (Enter on it, as a user does); its fields are addressed by
path, ``("entities", 0, "name")``, in the tree form and by name in the flat one. Each step is
what a user does: focus a field and paste text (one terminal event, handled like typing), press
keys, press a list's "add item" button. What was sent is read from the traffic log (``--log``):
the exact ``tools/call`` params that went over the wire.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.widgets import Button

from mcp_tui.schema.no_arguments import takes_no_arguments
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.widgets.arguments.argument_lists import ArrayBox
from mcp_tui.ui.widgets.arguments.argument_variants import PickerRow, VariantBox
from mcp_tui.ui.widgets.arguments.arguments_form import ArgumentsForm
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.form.list_control import ItemInput, ListControl
from tests.interop.tui_driver import WAIT, tool_results, traffic, wait_for
from tests.ui.app_testkit import cursor_on, open_node

Key = str | int
#: One step: ("type", path, text), ("keys", path, key, ...), ("add", path) (a list's "add item"
#: button), ("list", path, [text, ...]) (the items of a list field, typed with Enter between
#: them), and for a variant ("pick", path, key, ...): keys on its picker.
Step = tuple[Any, ...]


async def ready(pilot: Pilot[Any], app: McpTuiApp, server: str) -> None:
    await wait_for(pilot, lambda: app.entries[server].state is ConnectionState.READY, server)
    await wait_for(pilot, lambda: bool(app.entries[server].tools), f"{server}'s tools")


async def open_tool(pilot: Pilot[Any], app: McpTuiApp, server: str, tool: str) -> ArgumentsScreen:
    await wait_for(
        pilot, lambda: app.screen is app.screen_stack[0], f"the main screen, not {app.screen!r}"
    )
    # Enter calls a tool that takes no arguments at once; `e` opens its dialog.
    schema = next(t.input_schema for t in app.entries[server].tools if t.name == tool)
    await open_node(pilot, app, server, tool, "e" if takes_no_arguments(schema) else "enter")
    screen: ArgumentsScreen = await wait_for(
        pilot, lambda: isinstance(app.screen, ArgumentsScreen) and app.screen, f"{tool}'s form"
    )
    body = "#arguments-form, #arguments-json, .arguments-note"
    await wait_for(pilot, lambda: screen.query(body), "its body")
    return screen


def _row(screen: ArgumentsScreen, path: Sequence[Key]) -> Any:
    forms = screen.query(ArgumentsForm)
    if forms:
        form = forms.first()
        return form.widget_at(tuple(path)) if form.rows_pending == 0 else None
    for row in screen.query(FieldRow):
        if row.field.name == path[0] and row.control.is_mounted:
            return row
    return None


def _field(screen: ArgumentsScreen, path: Sequence[Key], *, picker: bool) -> FieldRow | None:
    """The row at ``path``; for a variant, its picker (``picker``) or the chosen variant's row."""
    row = _row(screen, path)
    if isinstance(row, VariantBox):
        if picker:
            return row.query_children(PickerRow).first()
        rows = [r for r in row.query(FieldRow) if not isinstance(r, PickerRow)]
        return rows[0] if rows else None
    return row if isinstance(row, FieldRow) else None


async def _focus(
    pilot: Pilot[Any], screen: ArgumentsScreen, path: Sequence[Key], *, picker: bool = False
) -> FieldRow:
    row = await wait_for(
        pilot, lambda: _field(screen, path, picker=picker), f"the field at {list(path)}"
    )
    assert isinstance(row, FieldRow), f"{list(path)} is a {type(row).__name__}"
    row.focus_control()
    await pilot.pause()
    assert pilot.app.focused is row.control, f"focus did not reach {list(path)}"
    return row


async def run_steps(pilot: Pilot[Any], screen: ArgumentsScreen, steps: Sequence[Step]) -> None:
    for step in steps:
        kind, path = step[0], tuple(step[1])
        if kind == "add":
            box = await wait_for(pilot, lambda p=path: _row(screen, p), f"the list at {list(path)}")
            assert isinstance(box, ArrayBox), f"{list(path)} is a {type(box).__name__}"
            button = box.query_one(".array-add", Button)
            screen.set_focus(button)
            await pilot.press("enter")
        elif kind == "type":
            row = await _focus(pilot, screen, path)
            current = str(getattr(row.control, "value", ""))
            await pilot.press("end", *(["backspace"] * len(current)))
            row.control.post_message(events.Paste(step[2]))
            await pilot.pause()
            value = getattr(row.control, "value", None)
            assert value == step[2], f"{list(path)} holds {value!r}"
        elif kind == "list":
            row = await wait_for(pilot, lambda p=path: _field(screen, p, picker=False), "a list")
            control = row.control
            assert isinstance(control, ListControl), f"{list(path)} is not a list field"
            first = control.first_input
            assert first is not None
            screen.set_focus(first)
            await pilot.pause()
            for index, text in enumerate(step[2]):
                if index:
                    await pilot.press("enter")  # a new item after this one, focused
                item = pilot.app.focused
                assert isinstance(item, ItemInput), f"focus is on {item!r}"
                item.post_message(events.Paste(text))
                await pilot.pause()
            values = [i.value for i in control.items]
            assert values == list(step[2]), f"{list(path)} holds {values!r}"
        elif kind in ("keys", "pick"):
            await _focus(pilot, screen, path, picker=kind == "pick")
            await pilot.press(*step[2:])
        else:  # pragma: no cover - a typo in a test table
            raise AssertionError(f"unknown step {kind!r}")


def tool_calls(log: Path, tool: str) -> list[dict[str, Any]]:
    """The params of every ``tools/call`` of ``tool`` mcp-tui sent, in order."""
    out = [e["message"] for e in traffic(log) if e.get("dir") == "out" and "message" in e]
    return [
        m["params"]
        for m in out
        if m.get("method") == "tools/call" and (m.get("params") or {}).get("name") == tool
    ]


async def cancel_screen(pilot: Pilot[Any], app: McpTuiApp) -> None:
    """Escape on the screen on top, as a user closes it ("y" when it asks first), then wait for
    it to go: a second Escape right after the first would ask instead of cancelling."""
    screen = app.screen
    await pilot.press("y" if isinstance(screen, ConfirmScreen) else "escape")
    await wait_for(pilot, lambda: app.screen is not screen, f"{screen!r} closed")


async def send(pilot: Pilot[Any], app: McpTuiApp, log: Path, tool: str) -> dict[str, Any]:
    """Ctrl+S, then the arguments that went over the wire. Whatever the tool asks on the way (a
    form, a URL to open) is cancelled with Escape, as a user would; waits for the response."""
    before = len(tool_calls(log, tool))
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: len(tool_calls(log, tool)) > before, f"{tool} sent")
    deadline = time.monotonic() + WAIT
    while len(tool_results(log, tool)) <= before:
        assert time.monotonic() < deadline, f"timed out waiting for {tool}'s response"
        if app.screen is not app.screen_stack[0] and not isinstance(app.screen, ArgumentsScreen):
            await cancel_screen(pilot, app)  # an elicitation the tool asked on the way
        await pilot.pause(0.05)

    # The response is in; the call's worker may still go on: a -32042 result's URL consent (and
    # retry) comes after its outcome is written. Cancel whatever it asks until the worker ends,
    # or the next tool's cursor and keys would land on that screen.
    def settled() -> bool:
        running = any(w.group == "calls" and not w.is_finished for w in app.workers)
        return not running and app.screen is app.screen_stack[0]

    while not settled():
        assert time.monotonic() < deadline, f"{app.screen!r} stays open after {tool}"
        if app.screen is not app.screen_stack[0]:
            await cancel_screen(pilot, app)  # asked again after answering: cancel too
        else:
            await pilot.pause(0.05)
    return tool_calls(log, tool)[-1].get("arguments") or {}


__all__ = ["WAIT", "cursor_on", "open_tool", "ready", "run_steps", "send", "tool_calls"]
