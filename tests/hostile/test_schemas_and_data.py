"""Schema abuse through the real app, and nothing lost: live traffic log, confirm before quitting.

Refused schemas never open a form: the user sees the problem list in the transcript and the server
gets -32602 with the same list. A catastrophic regex cannot stall the form (patterns run in RE2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from mcp_tui.config.options import AppOptions
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.hostile.hostile_kit import (
    HostileServer,
    assert_answers_keys,
    done,
    ready,
    transcript_text,
    wait_for,
)

pytestmark = pytest.mark.anyio

REFUSED: list[dict[str, Any]] = [
    {"type": "object", "properties": {"a": {"type": "object", "properties": {}}}},
    {"type": "object", "properties": {"a": {"$ref": "#"}}},
    {"type": "object", "properties": {"a": {"type": "integer", "minimum": 10, "maximum": 5}}},
    # A choice between two real types is ambiguous ("T or null" is a form field now).
    {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}},
    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["nope"]},
    {"type": "array", "items": {"type": "string"}},
    {"type": "object", "properties": {"a": {"type": "string", "enum": []}}},
    {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(600)}},
]

#: A non-object root fails the SDK's own params model before mcp-tui's callback runs: the SDK
#: answers -32602 itself (without a problem list); the traffic tap still tells the user.
SDK_REFUSED = 5


def ask(schema: dict[str, Any], message: str = "refuse me") -> dict[str, Any]:
    return {"message": message, "requestedSchema": schema}


async def test_refused_schemas_show_problems_and_answer_minus_32602(tmp_path: Path) -> None:
    actions = [{"elicit": ask(s, f"refused #{i}"), "id": f"r{i}"} for i, s in enumerate(REFUSED)]
    server = HostileServer(tmp_path, {"on_initialized": actions})
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot, app)
        await wait_for(pilot, lambda: len(server.responses()) == len(REFUSED), 50)
        for i in range(len(REFUSED)):
            error = server.responses()[f"r{i}"][0]["error"]
            assert error["code"] == -32602, i
            if i != SDK_REFUSED:
                assert error["data"]["problems"], i
        shown = len(REFUSED)
        await wait_for(pilot, lambda: transcript_text(app).count("cannot be shown") >= shown, 20)
        text = transcript_text(app, full=True)
        assert "minimum (10) is greater than maximum (5)" in text
        assert f"refused #{SDK_REFUSED}" in text
        assert transcript_text(app).count("cannot be shown") == shown  # each told once
        assert 'root must be "type": "object" (it is \'array\')' in text
        assert not isinstance(app.screen, ElicitationScreen)
        await assert_answers_keys(pilot, app)


async def test_a_catastrophic_pattern_cannot_stall_the_form(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}},
        "required": ["code"],
    }
    server = HostileServer(tmp_path, {"on_initialized": [{"elicit": ask(schema), "id": "p"}]})
    app = server.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 50)
        await wait_for(pilot, done(lambda: isinstance(app.focused, Input)), 10)
        field = app.focused
        assert isinstance(field, Input)
        field.value = "a" * 40 + "!"  # Python's re would take hours on this
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: "to fix" in str(app.screen.query_one("#elicitation-status").render())
        )
        await assert_answers_keys(pilot, app)
        field.value = "a" * 40
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "p" in server.responses(), 30)
        assert server.responses()["p"][0]["result"]["content"] == {"code": "a" * 40}


async def test_traffic_is_logged_as_it_happens_and_quitting_a_form_asks_first(
    tmp_path: Path,
) -> None:
    form = ask({"type": "object", "properties": {"note": {"type": "string"}}}, "a form")
    server = HostileServer(tmp_path, {"on_initialized": [{"elicit": form, "id": "q"}]})
    log = tmp_path / "traffic.jsonl"
    app = server.app(options=AppOptions(traffic_log=log, stderr_log=tmp_path / "err.log"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 50)
        # Already on disk while the app runs: a crash now would lose nothing shown so far.
        logged = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        assert any('"elicitation/create"' in json.dumps(entry) for entry in logged)
        await wait_for(pilot, done(lambda: isinstance(app.focused, Input)), 10)
        await pilot.press(*"typed")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # stay: the form and what was typed are still there
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        assert isinstance(app.focused, Input) and app.focused.value == "typed"
        assert "q" not in server.responses()
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, 50)
    assert server.alive() == []
