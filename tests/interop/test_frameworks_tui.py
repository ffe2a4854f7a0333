"""The framework servers of ``test_frameworks_headless.py``, answered in the real TUI (issue 16).

The app is built as the CLI builds it (one stdio server spec, ``--call`` and ``--log``) in the
default mode; Pilot fills each field as a user would (typing, Space on a checkbox, the drop-down
for a choice, ticking a multi-select, the list editor for a free list) and presses Ctrl+S,
Ctrl+R (decline) or Escape (cancel). Each test checks the answer in the traffic log and what
the server's own validation accepted (the tool result). Install notes: see
``test_frameworks_headless.py`` and ``python_peers.py``. Quitting the app stops the server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input
from textual.widgets._select import SelectOverlay

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ProtocolMode
from mcp_tui.schema.fields import FieldKind
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.widgets.form.form_controls import MultiControl, SelectControl
from tests.interop.framework_servers import (
    ALL,
    FASTMCP4,
    FULL_ANSWER,
    MCP1,
    MCP2,
    Framework,
    server_report,
)
from tests.interop.tui_driver import (
    answers_sent,
    field_row,
    focus_field,
    quit_app,
    replace_text,
    result_text,
    tool_results,
    wait_for,
)

pytestmark = [pytest.mark.interop, pytest.mark.anyio]

INPUT_REQUIRED = "input_required"


def build_app(
    framework: Framework, tmp_path: Path, tool: str, mode: ProtocolMode = "auto"
) -> McpTuiApp:
    options = AppOptions(
        call=ToolCallRequest(tool),
        traffic_log=tmp_path / "traffic.jsonl",
        stderr_log=tmp_path / "stderr.log",
    )
    spec = framework.spec()
    if mode != "auto":
        spec = type(spec)(name=spec.name, target=spec.target, mode=mode)
    return McpTuiApp([spec], options)


# ---- filling a form from the answer a test wants sent --------------------------------------------


async def _move(pilot: Pilot[Any], current: int | None, target: int) -> None:
    steps = target - (current or 0)
    if steps:
        await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps))


def _sent_value(option: object) -> object:
    """What choosing ``option`` sends: a number choice's ``value`` is its text, ``number`` the
    JSON number."""
    number = getattr(option, "number", None)
    return getattr(option, "value", None) if number is None else number


async def choose(pilot: Pilot[Any], name: str, value: object) -> None:
    """Pick ``value`` in a drop-down: Enter opens it, arrows reach the row, Enter picks."""
    row = await focus_field(pilot, name)
    control = row.control
    assert isinstance(control, SelectControl), f"{name!r} is not a drop-down"
    options = row.field.options
    index = [_sent_value(o) for o in options].index(value)
    await pilot.press("enter")
    overlay = control.query_one(SelectOverlay)
    await wait_for(pilot, lambda: control.expanded and pilot.app.focused is overlay, "drop-down")
    await _move(pilot, overlay.highlighted, index + 1)  # row 0: "no choice"
    await pilot.press("enter")
    await wait_for(pilot, lambda: not control.expanded, "the drop-down to close")
    assert row.get_raw() == options[index].value, f"{name!r} holds {row.get_raw()!r}"


async def tick(pilot: Pilot[Any], name: str, values: list[object]) -> None:
    """Tick exactly ``values`` in a multi-select (Space on each row that must change)."""
    row = await focus_field(pilot, name)
    control = row.control
    assert isinstance(control, MultiControl), f"{name!r} is not a multi-select"
    for index, option in enumerate(row.field.options):
        if (option.value in values) != (index in control.selected):
            await _move(pilot, control.highlighted, index)
            await pilot.press("space")
    raw = row.get_raw()
    assert isinstance(raw, list) and sorted(map(str, raw)) == sorted(map(str, values)), raw


async def fill_list(pilot: Pilot[Any], name: str, items: list[str]) -> None:
    """Type a free list into the list editor as a user does: an item, Enter (a new item), the
    next item... (each item pasted: one event, like typing it)."""
    screen = pilot.app.screen
    row = await wait_for(pilot, lambda: field_row(screen, name), f"field {name!r}")
    row.focus_control()
    await pilot.pause()
    for index, item in enumerate(items):
        if index:
            before = pilot.app.focused
            await pilot.press("enter")
            await wait_for(pilot, lambda b=before: pilot.app.focused is not b, "a new list item")
        editor = pilot.app.focused
        assert isinstance(editor, Input) and editor.value == "", f"{name!r}: no empty item"
        editor.post_message(events.Paste(item))
        await pilot.pause()
    assert row.get_raw() == items, f"{name!r} holds {row.get_raw()!r}"


async def fill(pilot: Pilot[Any], screen: ElicitationScreen, answer: dict[str, Any]) -> None:
    """Give every field of the form the value ``answer`` has for it, by its widget's keys."""
    kinds = {f.name: f.kind for f in screen.form_spec.fields}
    for name, value in answer.items():
        kind = kinds.get(name)
        assert kind is not None, f"the form has no field {name!r}: {sorted(kinds)}"
        if kind in (FieldKind.TEXT, FieldKind.INTEGER, FieldKind.NUMBER):
            await replace_text(pilot, name, str(value))
        elif kind is FieldKind.BOOLEAN:
            row = await focus_field(pilot, name)
            if row.get_raw() != value:
                await pilot.press("space")
            assert row.get_raw() == value, f"{name!r} holds {row.get_raw()!r}"
        elif kind is FieldKind.SELECT:
            await choose(pilot, name, value)
        elif kind is FieldKind.MULTI_SELECT:
            await tick(pilot, name, list(value))
        else:
            await fill_list(pilot, name, list(value))


async def run_form(
    framework: Framework,
    tmp_path: Path,
    tool: str,
    answer: dict[str, Any] | None,
    key: str = "ctrl+s",
    mode: ProtocolMode = "auto",
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Call ``tool``, fill its form with ``answer`` (None: leave it untouched), press ``key``;
    return the answer sent and the server's report of what it accepted."""
    app = build_app(framework, tmp_path, tool, mode)
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(120, 50)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationScreen) and app.screen, "the form"
        )
        if answer is not None:
            await fill(pilot, screen, answer)
        await pilot.press(key)
        if key == "escape" and answer:
            # Escape on a form with typed text asks before throwing it away: y confirms.
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            await pilot.press("y")

        def final() -> list[dict[str, Any]]:
            done = tool_results(log, tool)
            return [r for r in done if (r.get("result") or {}).get("resultType") != INPUT_REQUIRED]

        responses = await wait_for(pilot, final, "the tool result")
        await quit_app(pilot)
    [sent] = answers_sent(log)
    response = responses[-1]
    assert not (response.get("result") or {}).get("isError"), result_text(response)
    return sent, server_report(result_text(response))


@pytest.mark.parametrize("framework", ALL)
async def test_a_filled_form_is_accepted(framework: Framework, tmp_path: Path) -> None:
    sent, report = await run_form(framework, tmp_path, "sign_up", framework.answer)
    assert sent == {"action": "accept", "content": framework.answer}
    assert report == {"action": "accept", "data": framework.accepted}


@pytest.mark.parametrize("framework", ALL)
async def test_an_untouched_form_sends_the_defaults(framework: Framework, tmp_path: Path) -> None:
    sent, report = await run_form(framework, tmp_path, "preferences", None)
    assert sent == {"action": "accept", "content": framework.sent_defaults}
    assert report == {"action": "accept", "data": framework.defaults}


@pytest.mark.parametrize("framework", ALL)
async def test_escape_cancels(framework: Framework, tmp_path: Path) -> None:
    """Escape after typing, confirmed: the server gets ``cancel`` and nothing typed (the
    headless tests decline; Ctrl+R is tested against server-everything)."""
    sent, report = await run_form(framework, tmp_path, "sign_up", {"name": "thrown away"}, "escape")
    assert sent == {"action": "cancel"}
    assert report == {"action": "cancel"}


@pytest.mark.parametrize(
    "framework", [pytest.param(MCP1, id=MCP1.id), pytest.param(MCP2, id=MCP2.id)]
)
async def test_the_schema_pydantic_writes(framework: Framework, tmp_path: Path) -> None:
    sent, report = await run_form(framework, tmp_path, "sign_up_full", FULL_ANSWER)
    assert sent == {"action": "accept", "content": FULL_ANSWER}
    assert report == {"action": "accept", "data": FULL_ANSWER}


@pytest.mark.parametrize(
    ("framework", "mode"),
    [
        pytest.param(MCP2, "auto", id="mcp2-default-mode"),
        pytest.param(FASTMCP4, "2026-07-28", id="fastmcp4-2026"),
    ],
)
async def test_the_2026_input_required_pattern(
    framework: Framework, mode: ProtocolMode, tmp_path: Path
) -> None:
    sent, report = await run_form(framework, tmp_path, "sign_up_2026", framework.answer, mode=mode)
    assert sent == {"action": "accept", "content": framework.answer}
    assert report == {"action": "accept", "data": framework.accepted}
