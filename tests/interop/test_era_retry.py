"""A tool written only for 2026-07-28, on a server that speaks both eras, in the default mode.

``servers/mcp2_modern_only.py`` (the ``mcp`` 2.3 SDK, the pattern of the SDK's ``stories/mrtr``
server) returns ``input_required`` whatever the era; on the 2025-11-25 connection ``auto``
makes, the SDK refuses that with -32603 "Handler returned an invalid result". mcp-tui then calls
the tool again on a 2026-07-28 connection by itself and says so (transcript, ``call``'s stderr);
``--mode legacy`` still forces the old era and only gets the hint.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Protocol

import pytest

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.cli_in_process import run_mcp_tui
from tests.interop.python_peers import require_python_peer
from tests.interop.tui_driver import quit_app, wait_for

pytestmark = pytest.mark.interop

SERVER = Path(__file__).resolve().parent / "servers" / "mcp2_modern_only.py"
RETRIED = "calling it again on a 2026-07-28 connection"


def server_command() -> list[str]:
    return [str(require_python_peer("mcp2")), str(SERVER)]


class Call(Protocol):
    def __call__(self, *options: str) -> subprocess.CompletedProcess[str]: ...


@pytest.fixture
def call(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> Call:
    """``mcp-tui call confirm_order ... -- SERVER``, in this process (tests/cli_in_process.py)."""

    def run(*options: str) -> subprocess.CompletedProcess[str]:
        argv = ["call", "confirm_order", "--args", '{"item": "tea"}', "--elicit"]
        argv += ["accept-defaults", "--timeout", "120", "--log", str(tmp_path / "traffic.jsonl")]
        return run_mcp_tui(capfd, [*argv, *options, "--", *server_command()])

    return run


def test_call_redoes_a_2026_only_tool_on_2026(call: Call) -> None:
    done = call()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "item": "tea",
        "action": "accept",
        "content": {"quantity": 1},
    }
    assert RETRIED in done.stderr
    assert "Handler returned an invalid result" in done.stderr  # why it was called again


def test_call_json_prints_the_2026_result(call: Call) -> None:
    done = call("--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["isError"] is False
    assert json.loads(result["content"][0]["text"])["content"] == {"quantity": 1}


def test_mode_legacy_still_forces_the_old_era(call: Call) -> None:
    done = call("--mode", "legacy")
    assert done.returncode == 1
    assert RETRIED not in done.stderr
    assert "try --mode 2026-07-28" in done.stderr


@pytest.mark.anyio
async def test_the_tui_redoes_the_call_and_says_so(tmp_path: Path) -> None:
    command = server_command()
    spec = ServerSpec("modern", StdioTarget(command[0], tuple(command[1:])))
    options = AppOptions(
        call=ToolCallRequest("confirm_order", {"item": "tea"}),
        traffic_log=tmp_path / "traffic.jsonl",
        stderr_log=tmp_path / "stderr.log",
    )
    app = McpTuiApp([spec], options)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationScreen) and app.screen, "the form"
        )
        await pilot.press("ctrl+s")

        def transcript() -> str:
            session: Any = app.session
            return "\n".join(e.full for e in session.areas.transcript.entries)

        await wait_for(pilot, lambda: '"quantity": 1' in transcript(), "the result")
        text = transcript()
        assert RETRIED in text
        assert "press E" not in text  # no hint to do by hand what was done
        await quit_app(pilot)
