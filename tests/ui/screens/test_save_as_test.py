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
from textual.pilot import Pilot

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.testbench.load import load_test_file
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.save_test import SaveTestScreen
from tests.ui.app_testkit import (
    catalog_has,
    mounted_screen,
    open_node,
    run_from_palette,
    session_of,
    transcript_text,
    wait_until,
)

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "tests" / "fixtures" / "recorded_server.py"
SAVED = Path("tests") / "mcp" / "recorded.mcptest.toml"


def mcp_tui_test(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``mcp-tui test`` in a child process, as in CI: the key and the server's environment
    (the file names each variable, never its value) in its environment, and this Python first
    on PATH (the saved command says ``python``)."""
    env = {
        **os.environ,
        "API_KEY": "s3cret",
        "RECORDED_GREETING_FILE": str(where / "greeting.txt"),
        "ITEMS_FILE": str(where / "items.json"),
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


ITEMS = ROOT / "tests" / "fixtures" / "items_server.py"


async def call_by_keys(
    pilot: Pilot[None], app: McpTuiApp, tool: str, form_keys: tuple[str, ...], done: str
) -> None:
    """Open ``tool``, name "draft" in its arguments, answer its form with ``form_keys``, and
    wait for the result that says ``done``."""
    await open_node(pilot, app, "items", tool)
    arguments = await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
    await pilot.press(*"draft", "ctrl+s")
    await wait_until(lambda: arguments not in app.screen_stack, pilot=pilot)
    form = await wait_until(lambda: mounted_screen(app, ElicitationScreen), 20, pilot=pilot)
    await pilot.press(*form_keys)
    await wait_until(lambda: form not in app.screen_stack, pilot=pilot)
    await wait_until(lambda: done in transcript_text(app, full=True), 20, pilot=pilot)


async def test_save_as_a_test_offers_the_calls_before_as_setup_and_the_case_passes_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Create an item, delete it, save the delete with its setup ticked: the recorded case
    passes twice in a row (the setup makes the item it deletes each time). The dialog lists
    the call it will write as the setup; it is off until the person ticks it."""
    from textual.widgets import Checkbox, Static

    monkeypatch.chdir(tmp_path)
    env = {"ITEMS_FILE": str(tmp_path / "items.json")}
    target = StdioTarget(sys.executable, (str(ITEMS),), env=env, cwd=str(tmp_path))
    app = McpTuiApp([ServerSpec("items", target)], AppOptions(stderr_log=Path(os.devnull)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: catalog_has(app, "items", "delete_item"), 30, pilot=pilot)
        for tool, form_keys, done in (
            ("create_item", (*"for the test", "ctrl+s"), "Created draft (for the test)"),
            ("delete_item", ("space", "ctrl+s"), "Deleted draft"),
        ):
            await call_by_keys(pilot, app, tool, form_keys, done)
        await wait_until(
            lambda: (
                session_of(app).calls.history.last_finished is not None
                and session_of(app).calls.history.last_finished.name == "delete_item"
            ),
            pilot=pilot,
        )

        await run_from_palette(pilot, app, "save as a test", "Save as a test")
        dialog = await wait_until(lambda: mounted_screen(app, SaveTestScreen), pilot=pilot)
        box = dialog.query_one("#save-test-setup", Checkbox)
        listed = str(dialog.query_one("#save-test-setup-calls > Static", Static).render())
        assert not box.value, "off until ticked"
        assert "Also save the call made before it as its setup:" in str(box.label)
        assert '#1 create_item {"name": "draft"} · 1 answer (accept)' in listed, listed
        assert "delete_item" not in listed
        await pilot.press("enter", "tab", "space")  # the path, the name, tick the setup
        await wait_until(lambda: box.value, pilot=pilot)
        await pilot.press("ctrl+s")
        await wait_until(lambda: dialog not in app.screen_stack, pilot=pilot)

    saved = tmp_path / "tests" / "mcp" / "items.mcptest.toml"
    (case,) = load_test_file(saved).model.case
    assert case.tool == "delete_item" and case.expect.text == "Deleted draft"
    [step] = case.setup
    assert (step.tool, step.arguments) == ("create_item", {"name": "draft"})
    assert [(a.action, a.content) for a in step.answers] == [("accept", {"note": "for the test"})]
    assert step.expect is None, "a step's result is not checked"
    for run in range(2):
        passed = mcp_tui_test(tmp_path, str(saved))
        assert passed.returncode == 0, (run, passed.stdout + passed.stderr)
        assert "1 passed" in passed.stdout
