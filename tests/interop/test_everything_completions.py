"""server-everything's completions through the real TUI: a prompt's arguments (the second narrowed
by the first, sent as ``context.arguments``) and a resource template's variable (issue 17).

Pilot opens the arguments screen as Enter on the catalog does (the session screen's verb, run on
the app's loop), types
and accepts the dim suggestion with → as a person would; what went over the wire is read back from
the ``--log`` traffic file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.session import SessionScreen
from tests.interop.test_everything_features_tui import build_app, sent
from tests.interop.tui_driver import _messages, focus_field, quit_app, wait_for

pytestmark = [pytest.mark.interop, pytest.mark.anyio]


def suggestions(screen: ArgumentsScreen) -> str:
    lines = screen.query("#arguments-suggestions").results(Static)
    line = next(lines, None)  # None until the screen's widgets are mounted
    return str(line.render()) if line is not None and line.display else ""


def prompt_results(log: Path) -> list[dict[str, Any]]:
    ids = {m["id"] for m in _messages(log, "out") if m.get("method") == "prompts/get"}
    return [m for m in _messages(log, "in") if "method" not in m and m.get("id") in ids]


async def test_prompt_arguments_complete_as_you_type(peers: None, tmp_path: Path) -> None:
    log = tmp_path / "traffic.jsonl"
    app = build_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        assert session is not None
        entry = app.entries["everything"]
        await wait_for(pilot, lambda: entry.prompts and session.areas.panels_ready, "the prompts")
        app.call_later(session.forms.open_prompt, "everything", "completable-prompt")
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ArgumentsScreen) and app.screen, "the form"
        )
        # The first field has focus: every department is offered before anything is typed.
        await wait_for(
            pilot,
            lambda: "Engineering · Sales · Marketing · Support" in suggestions(screen),
            "every department",
        )
        await pilot.press("S")
        await wait_for(pilot, lambda: "Sales · Support" in suggestions(screen), "S...")
        assert "Engineering" not in suggestions(screen)
        await wait_for(pilot, lambda: app.focused._suggestion == "Sales", "the dim suggestion")
        await pilot.press("right")
        assert app.focused.value == "Sales"

        row = await focus_field(pilot, "name")
        await wait_for(pilot, lambda: "David · Eve · Frank" in suggestions(screen), "Sales' team")
        await pilot.press("E")
        await wait_for(pilot, lambda: row.control._suggestion == "Eve", "the dim Eve")
        await pilot.press("right")
        assert row.control.value == "Eve"
        await pilot.press("ctrl+s")
        [result] = await wait_for(pilot, lambda: prompt_results(log), "the prompt")
        await quit_app(pilot)

    text = result["result"]["messages"][0]["content"]["text"]
    assert text == "Please promote Eve to the head of the Sales team."
    asked = [m["params"] for m in sent(log, "completion/complete")]
    assert {"ref": {"type": "ref/prompt", "name": "completable-prompt"},
            "argument": {"name": "department", "value": "S"}} in asked  # fmt: skip
    names = [p for p in asked if p["argument"]["name"] == "name"]
    assert names and all(p["context"] == {"arguments": {"department": "Sales"}} for p in names)


async def test_a_template_variable_completes(peers: None, tmp_path: Path) -> None:
    log = tmp_path / "traffic.jsonl"
    app = build_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.session
        assert session is not None
        entry = app.entries["everything"]
        await wait_for(
            pilot, lambda: entry.resources and session.areas.panels_ready, "the resources"
        )
        template = next(r for r in entry.resources if r.template and "text" in r.uri)
        app.call_later(session.forms.open_template, "everything", template)
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ArgumentsScreen) and app.screen, "the form"
        )
        await pilot.press("4", "2")
        await wait_for(pilot, lambda: "Suggestions for resourceId: 42" in suggestions(screen), "42")
        await pilot.press("escape")  # what was typed is thrown away: the form asks first
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the form closed")
        await quit_app(pilot)

    asked = [m["params"] for m in sent(log, "completion/complete")]
    assert {"ref": {"type": "ref/resource", "uri": template.uri},
            "argument": {"name": "resourceId", "value": "42"}} in asked  # fmt: skip
