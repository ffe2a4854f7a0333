"""Record -> test, through the real TUI: a call whose form is answered by keys, "Save as a test",
then ``mcp-tui test`` on the file passes; the server's answer changes and it fails with a diff.

The server (``tests/fixtures/recorded_server.py``) reads its greeting from a file in the test's
temporary directory, so the test can change what it answers between runs. Its form has a field
that looks like a secret: what was typed there must not reach the file (a ``${API_KEY}``
placeholder does, filled in from the run's environment).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from app_testkit import (
    catalog_has,
    mounted_screen,
    open_node,
    run_from_palette,
    session_of,
    transcript_text,
    wait_until,
)

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.testbench.load import load_test_file
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.save_test import SaveTestScreen

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tests" / "fixtures" / "recorded_server.py"
SAVED = Path("tests") / "mcp" / "recorded.mcptest.toml"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def mcp_tui_test(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``mcp-tui test`` in a child process, as in CI: the key and the server's environment
    (the file names each variable, never its value) in its environment, and this Python first
    on PATH (the saved command says ``python``)."""
    env = {
        **os.environ,
        "API_KEY": "s3cret",
        "RECORDED_GREETING_FILE": str(where / "greeting.txt"),
        "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "mcp_tui", "test", *args]
    return subprocess.run(
        command, cwd=where, env=env, capture_output=True, text=True, timeout=90, check=False
    )


async def test_a_call_answered_by_keys_is_saved_as_a_test_that_passes_then_catches_a_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the dialog's default path is relative to where mcp-tui runs
    greeting = tmp_path / "greeting.txt"
    greeting.write_text("Hello")
    env = {"PYTHONPATH": str(ROOT), "RECORDED_GREETING_FILE": str(greeting)}
    target = StdioTarget(sys.executable, (str(SERVER),), env=env, cwd=str(tmp_path))
    app = McpTuiApp([ServerSpec("recorded", target)], AppOptions(stderr_log=Path(os.devnull)))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: catalog_has(app, "recorded", "greet"), 30, pilot=pilot)
        await open_node(pilot, app, "recorded", "greet")
        arguments = await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        await pilot.press("2", "ctrl+s")  # times = 2
        await wait_until(lambda: arguments not in app.screen_stack, pilot=pilot)
        form = await wait_until(lambda: mounted_screen(app, ElicitationScreen), 20, pilot=pilot)
        await pilot.press(*"Ada", "tab", *"s3cret", "ctrl+s")  # name, then the key
        await wait_until(lambda: form not in app.screen_stack, pilot=pilot)
        await wait_until(
            lambda: "Hello, Ada (x2, key ok)" in transcript_text(app, full=True),
            20,
            pilot=pilot,
            message="the tool's answer",
        )
        await wait_until(
            lambda: session_of(app).calls.history.last_finished is not None, pilot=pilot
        )

        await run_from_palette(pilot, app, "save as a test", "Save as a test")
        dialog = await wait_until(lambda: mounted_screen(app, SaveTestScreen), pilot=pilot)
        await pilot.press("enter", "enter")  # the default file, the default name: saved
        await wait_until(lambda: dialog not in app.screen_stack, pilot=pilot)
        await wait_until(
            lambda: "saved as a test in tests/mcp/recorded.mcptest.toml" in transcript_text(app),
            pilot=pilot,
        )
        assert "reads it from ${API_KEY}" in transcript_text(app), "the person is told"

    saved = tmp_path / SAVED
    text = saved.read_text()
    assert "s3cret" not in text, "a secret typed in the form is never written"
    assert "${API_KEY}" in text
    assert str(greeting) not in text, "nor the server's env values"
    server = load_test_file(saved).model.server_decl
    assert server.env == {
        "PYTHONPATH": "${PYTHONPATH}",
        "RECORDED_GREETING_FILE": "${RECORDED_GREETING_FILE}",
    }
    (case,) = load_test_file(saved).model.case
    assert case.name == "greet: accept" and case.tool == "greet"
    assert case.arguments == {"times": 2}
    assert [a.action for a in case.answers] == ["accept"]
    assert case.answers[0].content == {"name": "Ada", "api_key": "${API_KEY}"}
    assert case.expect.text == "Hello, Ada (x2, key ok)"
    assert case.expect.elicitation_count == 1
    (asked,) = case.expect.elicitations or []
    assert asked.message == "Who are you?" and asked.action == "accept"
    assert asked.schema_ is not None and set(asked.schema_["properties"]) == {"name", "api_key"}

    passed = mcp_tui_test(tmp_path, str(SAVED))
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "1 passed" in passed.stdout

    greeting.write_text("Howdy")  # the server's behaviour changes
    failed = mcp_tui_test(tmp_path, str(SAVED))
    assert failed.returncode == 1, failed.stdout + failed.stderr
    report = failed.stdout
    assert "the result's text differs" in report, report
    assert "expected: Hello, Ada (x2, key ok)" in report
    assert "got: Howdy, Ada (x2, key ok)" in report
    assert '-  "result": "Hello, Ada (x2, key ok)"' in report, "structuredContent's diff"
    assert '+  "result": "Howdy, Ada (x2, key ok)"' in report
    assert "s3cret" not in failed.stdout + failed.stderr, "nor is it printed by the run"
