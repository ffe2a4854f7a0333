"""The TypeScript SDK's ``elicitationFormExample.js`` answered through the real TUI (issue 4).

That server *validates* what it receives (the TS SDK checks accepted content against the
requested schema): content that does not fit comes back as a tool error naming -32602. So these
tests prove, against someone else's validator, that the forms never send invalid content: a
password with its length rule, an email format, an optional multi-select with ``minItems`` left
empty (it must be omitted, not sent as ``[]``), two forms in a row, an integer range.

The server runs over Streamable HTTP on 127.0.0.1 (``loopback.cjs``), stopped after each test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.interop.interop_peers import NodeServer
from tests.interop.tui_driver import (
    elicitation_answers,
    press_on,
    quit_app,
    replace_text,
    result_text,
    send_refused,
    tool_results,
    wait_for,
)

pytestmark = [pytest.mark.interop, pytest.mark.anyio]


def build_app(server: NodeServer, tmp_path: Path, tool: str) -> McpTuiApp:
    options = AppOptions(
        call=ToolCallRequest(tool),
        traffic_log=tmp_path / "traffic.jsonl",
        stderr_log=tmp_path / "stderr.log",
    )
    return McpTuiApp([ServerSpec(name="forms", target=HttpTarget(server.url))], options)


def assert_no_validation_error(response: dict[str, Any], server: NodeServer) -> str:
    text = result_text(response)
    assert "-32602" not in text and "failed" not in text.lower(), (
        f"the server refused our content: {text}\nserver output:\n{server.output()}"
    )
    assert not (response.get("result") or {}).get("isError"), text
    return text


async def test_register_user(form_example: NodeServer, tmp_path: Path) -> None:
    app = build_app(form_example, tmp_path, "register_user")
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationScreen) and app.screen, "the form"
        )
        # The form flags the password field (the spec forbids asking for secrets in a form).
        assert [f.name for f in screen.secret_fields] == ["password"]

        await replace_text(pilot, "username", "ada")
        await replace_text(pilot, "email", "ada@example.com")
        await replace_text(pilot, "password", "short")  # minLength 8: must not be sent
        await send_refused(pilot, screen)
        assert app.screen is screen and elicitation_answers(log) == []

        await replace_text(pilot, "password", "correct horse battery")
        await press_on(pilot, "newsletter", "space")  # default false -> true
        await pilot.press("ctrl+s")
        responses = await wait_for(
            pilot, lambda: tool_results(log, "register_user"), "the tool result"
        )
        await quit_app(pilot)

    [sent] = elicitation_answers(log)
    # "interests" (optional, minItems 1) was left empty: omitted, never [].
    assert sent["result"] == {
        "action": "accept",
        "content": {
            "username": "ada",
            "email": "ada@example.com",
            "password": "correct horse battery",
            "newsletter": True,
            "role": "developer",
        },
    }
    text = assert_no_validation_error(responses[0], form_example)
    assert "Registration successful!" in text
    assert "Username: ada\nEmail: ada@example.com\nNewsletter: Yes" in text


async def test_create_event_two_forms_in_a_row(form_example: NodeServer, tmp_path: Path) -> None:
    app = build_app(form_example, tmp_path, "create_event")
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(80, 24)) as pilot:
        first = await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationScreen) and app.screen, "step 1"
        )
        assert first.request.message == "Step 1: Enter basic event information"
        await replace_text(pilot, "title", "Analytical Engine demo")
        await pilot.press("ctrl+s")

        second = await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ElicitationScreen) and app.screen is not first and app.screen
            ),
            "step 2",
        )
        assert second.request.message == "Step 2: Enter date and time"
        await replace_text(pilot, "date", "2026-12-10")
        await replace_text(pilot, "startTime", "14:30")
        await replace_text(pilot, "duration", "500")  # maximum 480: must not be sent
        await send_refused(pilot, second)
        assert app.screen is second and len(elicitation_answers(log)) == 1

        await replace_text(pilot, "duration", "90")
        await pilot.press("ctrl+s")
        responses = await wait_for(
            pilot, lambda: tool_results(log, "create_event"), "the tool result"
        )
        await quit_app(pilot)

    answers = [a["result"] for a in elicitation_answers(log)]
    assert answers == [
        {"action": "accept", "content": {"title": "Analytical Engine demo"}},
        {
            "action": "accept",
            "content": {"date": "2026-12-10", "startTime": "14:30", "duration": 90},
        },
    ]
    text = assert_no_validation_error(responses[0], form_example)
    assert text.startswith("Event created successfully!")
    event = json.loads(text.split("\n\n", 1)[1])
    assert event == {
        "title": "Analytical Engine demo",
        "date": "2026-12-10",
        "startTime": "14:30",
        "duration": 90,
    }
