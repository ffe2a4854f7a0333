"""A call that did not finish by itself is never recorded (issue 36, item 7).

Quitting (Ctrl+Q, y) while a call's form is open used to save the call under ``--record`` as
``outcome = "error"``, ``error_code = -32000``, ``elicitation_count = 0``: a case that fails at
once. A call is a case only when the server ended it: not when mcp-tui quit under it, the person
cancelled it, or its connection ended (a reconnect, a restart, the server lost).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.ui.app_testkit import catalog_has, mounted_screen, open_node, wait_until

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "tests" / "fixtures" / "recorded_server.py"


def recorded_app(tmp_path: Path, record: Path) -> McpTuiApp:
    greeting = tmp_path / "greeting.txt"
    greeting.write_text("Hello")
    env = {"PYTHONPATH": str(ROOT), "RECORDED_GREETING_FILE": str(greeting)}
    target = StdioTarget(sys.executable, (str(SERVER),), env=env, cwd=str(tmp_path))
    options = AppOptions(stderr_log=Path(os.devnull), record=record)
    return McpTuiApp([ServerSpec("recorded", target)], options)


async def test_quitting_with_the_calls_form_open_records_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "rec.mcptest.toml"
    app = recorded_app(tmp_path, record)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: catalog_has(app, "recorded", "greet"), 30, pilot=pilot)
        await open_node(pilot, app, "recorded", "greet")
        arguments = await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        await pilot.press("2", "ctrl+s")
        await wait_until(lambda: arguments not in app.screen_stack, pilot=pilot)
        await wait_until(lambda: mounted_screen(app, ElicitationScreen), 20, pilot=pilot)
        await pilot.press("ctrl+q")
        await wait_until(
            lambda: mounted_screen(app, ConfirmScreen), pilot=pilot, message=str(app.screen_stack)
        )
        await pilot.press("y")
        await wait_until(lambda: not app.is_running, 20, pilot=pilot)
    assert not record.exists(), record.read_text()
