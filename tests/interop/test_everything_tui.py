"""server-everything's eliciting tools, answered through the real TUI (issues 4 and 5).

The reference server runs over stdio (over HTTP it would bind every interface). The app is built
as the CLI builds it: one server spec, ``--call`` and ``--log``; Pilot plays the user. Each test
checks what the server says it received, and the exact response in the traffic log.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.interop.interop_peers import EVERYTHING_JS, LOOPBACK_PRELOAD, NODE
from tests.interop.tui_driver import (
    elicitation_answers,
    everything_raw_result,
    press_on,
    quit_app,
    replace_text,
    result_text,
    send_refused,
    tool_results,
    wait_for,
)

pytestmark = [pytest.mark.interop, pytest.mark.anyio]

TOOL = "trigger-elicitation-request"

#: Every default of the tool's schema, as the JSON the server must get back untouched.
DEFAULTS = {
    "firstLine": "It was a dark and stormy night.",
    "integer": 42,
    "number": 3.14,
    "untitledSingleSelectEnum": "Monica",
    "untitledMultipleSelectEnum": ["Guitar"],
    "titledSingleSelectEnum": "hero-1",
    "titledMultipleSelectEnum": ["fish-1"],
    "legacyTitledEnum": "pet-1",
}


def everything() -> ServerSpec:
    target = StdioTarget(str(NODE), ("-r", str(LOOPBACK_PRELOAD), str(EVERYTHING_JS), "stdio"))
    return ServerSpec(name="everything", target=target)


def build_app(tmp_path: Path, tool: str, arguments: dict[str, object] | None = None) -> McpTuiApp:
    options = AppOptions(
        call=ToolCallRequest(tool, dict(arguments or {})),
        traffic_log=tmp_path / "traffic.jsonl",
        stderr_log=tmp_path / "stderr.log",
    )
    return McpTuiApp([everything()], options)


async def test_every_field_kind_reaches_the_server_exactly_typed(
    peers: None, tmp_path: Path
) -> None:
    app = build_app(tmp_path, TOOL)
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationScreen) and app.screen, "the form"
        )
        assert [f.name for f in screen.form_spec.fields][:3] == ["name", "check", "firstLine"]

        # "name" is required and empty: Ctrl+S must not send anything.
        await send_refused(pilot, screen)
        assert app.screen is screen
        assert elicitation_answers(log) == []

        await replace_text(pilot, "name", "Ada Lovelace")
        await press_on(pilot, "check", "y")  # optional boolean with no default: set to true
        await replace_text(pilot, "email", "ada@example.com")
        await replace_text(pilot, "homepage", "https://example.com/ada")
        await replace_text(pilot, "birthdate", "1815-12-10")
        await replace_text(pilot, "integer", "7")
        await replace_text(pilot, "number", "2.5")
        await press_on(pilot, "untitledMultipleSelectEnum", "down", "space")  # + Piano
        await pilot.press("ctrl+s")

        responses = await wait_for(pilot, lambda: tool_results(log, TOOL), "the tool result")

        await quit_app(pilot)

    expected = {
        **DEFAULTS,
        "name": "Ada Lovelace",
        "check": True,
        "email": "ada@example.com",
        "homepage": "https://example.com/ada",
        "birthdate": "1815-12-10",
        "integer": 7,
        "number": 2.5,
        "untitledMultipleSelectEnum": ["Guitar", "Piano"],
    }
    [sent] = elicitation_answers(log)
    assert sent["result"] == {"action": "accept", "content": expected}
    received = everything_raw_result(responses[0])
    assert received == {"action": "accept", "content": expected}
    content = received["content"]
    assert type(content["integer"]) is int and type(content["number"]) is float
    assert type(content["check"]) is bool


async def test_untouched_defaults_are_sent_and_empty_optionals_omitted(
    peers: None, tmp_path: Path
) -> None:
    app = build_app(tmp_path, TOOL)
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), "the form")
        await replace_text(pilot, "name", "Grace")
        await pilot.press("ctrl+s")
        responses = await wait_for(pilot, lambda: tool_results(log, TOOL), "the tool result")
        await quit_app(pilot)

    # No "check", "email", "homepage" or "birthdate": optional, no default, left empty.
    expected = {"name": "Grace", **DEFAULTS}
    assert everything_raw_result(responses[0]) == {"action": "accept", "content": expected}


@pytest.mark.parametrize(("key", "action"), [("ctrl+r", "decline"), ("escape", "cancel")])
async def test_decline_and_cancel_arrive_as_such(
    peers: None, tmp_path: Path, key: str, action: str
) -> None:
    app = build_app(tmp_path, TOOL)
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), "the form")
        await replace_text(pilot, "name", "typed, then thrown away")
        await pilot.press(key)
        if key == "escape":
            # Escape on a form with typed text asks before throwing it away: y confirms.
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            await pilot.press("y")
        responses = await wait_for(pilot, lambda: tool_results(log, TOOL), "the tool result")
        await quit_app(pilot)

    [sent] = elicitation_answers(log)
    assert sent["result"] == {"action": action}
    assert everything_raw_result(responses[0]) == {"action": action}
    assert "typed, then thrown away" not in result_text(responses[0])
