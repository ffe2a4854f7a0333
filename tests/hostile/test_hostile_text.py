"""Hostile text in every string a server controls, through the real app and a real process.

Every string carries markup, ``@click`` actions, links, ESC/OSC/CSI/C1 sequences, bidi and
zero-width characters (``hostile_kit.hostile``). The markup parsers are guarded: the test fails if
any of it is parsed as markup anywhere. The screen never holds a raw control character, the
transcript shows the visible escapes, nothing clicked its way to ``app.quit``, long text is cut
inline but complete in the detail view — and what the user accepts reaches the server exactly,
byte for byte, not in its escaped display form.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from mcp_tui.ui.screens.detail import DetailScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.hostile.hostile_kit import (
    HostileServer,
    assert_answers_keys,
    assert_no_raw_controls,
    done,
    guard_markup,
    hostile,
    ready,
    session_of,
    transcript_text,
    wait_for,
)

pytestmark = pytest.mark.anyio

H = hostile
NO_ARGS = {"type": "object", "properties": {}}
LONG = "L" * 50_000 + "-the-end"


def form_request() -> dict[str, Any]:
    schema = {
        "type": "object",
        "title": H("form-title"),
        "description": H("form-desc"),
        "properties": {
            H("prop"): {
                "type": "string",
                "title": H("prop-title"),
                "description": H("prop-desc"),
                "default": H("default"),
            },
            "pick": {
                "type": "string",
                "title": H("pick-title"),
                "oneOf": [
                    {"const": H("value-1"), "title": H("label-1")},
                    {"const": H("value-2"), "title": H("label-2")},
                ],
                "default": H("value-2"),
            },
            "many": {
                "type": "array",
                "items": {"type": "string", "enum": [H("m-1"), H("m-2")]},
                "default": [H("m-1")],
            },
            "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": [H("n-a"), H("n-b")]},
        },
        "required": [H("prop")],
    }
    return {"message": H("message"), "requestedSchema": schema}


def hostile_script() -> dict[str, Any]:
    tool = {
        "name": H("tool"),
        "title": H("tool-title"),
        "description": H("tool-desc"),
        "inputSchema": NO_ARGS,
    }
    return {
        "server_info": {"name": H("name"), "version": H("version"), "title": H("title")},
        "instructions": H("instructions"),
        "capabilities": {"tools": {}, "prompts": {}, "resources": {}, H("cap"): {}},
        "tools": [
            tool,
            {"name": "fail", "description": H("fail-desc"), "inputSchema": NO_ARGS},
            {"name": "ask", "inputSchema": NO_ARGS},
            {"name": "long", "inputSchema": NO_ARGS},
        ],
        "prompts": [{"name": H("prompt"), "description": H("prompt-desc")}],
        "resources": [{"uri": "hostile://r", "name": H("resource"), "description": H("r-desc")}],
        "results": {
            H("tool"): {
                "result": {
                    "content": [{"type": "text", "text": H("result")}],
                    "structuredContent": {H("key"): H("structured")},
                }
            },
            "fail": {"error": {"code": -32000, "message": H("error"), "data": H("error-data")}},
            "ask": {"result_from": "form"},
            "long": {"result": {"content": [{"type": "text", "text": LONG}]}},
        },
        "on_initialized": [
            {"log": {"level": "warning", "logger": H("logger"), "data": H("log")}},
            {"log": {"level": "error", "data": {H("log-key"): [H("log-item")]}}},
            {"stderr": H("stderr")},
        ],
        "on_call": {"ask": [{"elicit": form_request(), "id": "form"}, {"await": "form"}]},
    }


async def test_hostile_text_everywhere_stays_literal_and_answers_stay_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    markup_calls = guard_markup(monkeypatch)
    server = HostileServer(tmp_path, hostile_script())
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: len(app.entries["evil"].tools) == 4, 30)
        session = session_of(app)
        await wait_for(pilot, lambda: session.areas.logs.lines_written >= 4, 30)
        assert_no_raw_controls(app.export_screenshot())

        session.calls.call_tool("evil", H("tool"), {})
        session.calls.call_tool("evil", "fail", {})
        await wait_for(pilot, lambda: "error-data" in transcript_text(app), 30)
        await wait_for(pilot, lambda: "structured" in transcript_text(app), 30)
        text = transcript_text(app)
        for tag in ("result", "structured", "key", "error", "error-data", "name"):
            assert f"{tag} [bold]b[/] [@click=app.quit]q[/]" in text, tag
        assert "\\e]52;c;aGk=\\x07" in text and "\\x9b2J" in text and "\\u202eevil" in text
        assert_no_raw_controls(text)
        assert_no_raw_controls(app.export_screenshot())

        # Server info, instructions and capabilities in the details view.
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        detail = app.screen
        assert isinstance(detail, DetailScreen)
        assert "instructions [bold]" in detail.text and "\\e]0;pwned\\x07" in detail.text
        assert_no_raw_controls(app.export_screenshot())
        await pilot.press("escape")

        # The form: message, titles, descriptions, property names, labels and defaults.
        session.calls.call_tool("evil", "ask", {})
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 30)
        await wait_for(pilot, done(lambda: isinstance(app.focused, Input)), 10)
        await pilot.pause()
        shot = app.export_screenshot()
        assert_no_raw_controls(shot)
        assert "message [bold]b[/] [@click=app.quit]q[/]" in shot.replace("&#160;", " ")
        await assert_answers_keys(pilot, app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "form" in server.responses(), 30)
        answer = server.responses()["form"][0]["result"]
        assert answer == {
            "action": "accept",
            "content": {H("prop"): H("default"), "pick": H("value-2"), "many": [H("m-1")]},
        }

        # A long result is cut inline and complete in the detail view.
        session.calls.call_tool("evil", "long", {})
        await wait_for(pilot, lambda: "-the-end" in transcript_text(app, full=True), 30)
        assert "-the-end" not in transcript_text(app)
        assert "then Enter or i: full text" in transcript_text(app)
        full = [e for e in session.areas.transcript.entries if "-the-end" in e.full]
        assert len(full) == 1
        session.post_message(session.areas.transcript.DetailRequested(full[0]))
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        assert isinstance(app.screen, DetailScreen)
        assert app.screen.text.endswith(LONG)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, DetailScreen))
        await assert_answers_keys(pilot, app)
        assert app.is_running
    assert markup_calls == []
