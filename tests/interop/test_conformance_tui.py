"""The conformance harness's ``elicitation-sep1034-client-defaults`` answered by the real TUI.

Issue 4 asks for this one scenario to pass when a person answers it in the TUI, not only through
the headless client. The harness runs in its interactive mode (no ``--command``: it serves the
scenario and waits), the app is pointed at its URL with ``--call``, and Pilot plays the person:
the form opens pre-filled with the schema's defaults and the person just accepts (Ctrl+S).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.interop.interop_peers import CONFORMANCE_JS, InteractiveHarness
from tests.interop.tui_driver import elicitation_answers, quit_app, tool_results, wait_for

pytestmark = [pytest.mark.interop, pytest.mark.anyio]

SCENARIO = "elicitation-sep1034-client-defaults"
TOOL = "test_client_elicitation_defaults"


async def test_defaults_scenario_passes_when_the_tui_accepts(peers: None, tmp_path: Path) -> None:
    harness = InteractiveHarness(CONFORMANCE_JS, SCENARIO, tmp_path / "results")
    url = harness.start()
    try:
        log = tmp_path / "traffic.jsonl"
        options = AppOptions(call=ToolCallRequest(TOOL), traffic_log=log)
        app = McpTuiApp([ServerSpec(name="conformance", target=HttpTarget(url))], options)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await wait_for(
                pilot, lambda: isinstance(app.screen, ElicitationScreen) and app.screen, "form"
            )
            names = [f.name for f in screen.form_spec.fields]
            assert names == ["name", "age", "score", "status", "verified"]
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: tool_results(log, TOOL), "the tool result")
            await quit_app(pilot)
    finally:
        checks = harness.stop()

    [sent] = elicitation_answers(log)
    assert sent["result"] == {
        "action": "accept",
        "content": {
            "name": "John Doe",
            "age": 30,
            "score": 95.5,
            "status": "active",
            "verified": True,
        },
    }
    statuses = {str(c["id"]): c["status"] for c in checks}
    expected = {
        f"client-elicitation-sep1034-{kind}-default": "SUCCESS"
        for kind in ("string", "integer", "number", "enum", "boolean")
    }
    assert {k: v for k, v in statuses.items() if k.startswith("client-")} == expected, checks
    assert not [c for c in checks if c["status"] in ("FAILURE", "WARNING")], checks
