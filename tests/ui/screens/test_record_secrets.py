"""Record -> replay -> fail against a server that puts ``${...}`` in every string it sends
(``tests/fixtures/dollar_server.py``: its tool's name, an argument's default, the form's defaults,
titles and message, a later request's message, the result).

By keys in the TUI ("Save as a test"), and with ``--record FILE``: the form is accepted as shown,
the call saved; ``mcp-tui test`` on the file with ``API_TOKEN`` set must send the server its own
``${API_TOKEN}`` back (the server writes down what it received), never the environment's value.
Then the file's author writes ``${API_TOKEN}`` into an answer and the server changes: the case
fails, and the text report, JUnit and ``--json`` show ``***`` where the token went (the server
echoes it in its next request's message and in its result), never the token.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import CallOutcome, ConnectionState, ContentItem
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.save_test import SaveTestScreen
from tests.ui.app_testkit import (
    Script,
    catalog_has,
    make_app,
    mounted_screen,
    open_node,
    run_from_palette,
    session_of,
    transcript_text,
    wait_until,
)

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(120)]

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "tests" / "fixtures" / "dollar_server.py"
TOOL = "sign_up_${API_TOKEN}"
TOKEN = "tok-CI-9f2c81e4"


def _app(tmp_path: Path, options: AppOptions) -> McpTuiApp:
    env = {"PYTHONPATH": str(ROOT), "DOLLAR_SEEN_FILE": str(tmp_path / "seen.jsonl")}
    target = StdioTarget(sys.executable, (str(SERVER),), env=env, cwd=str(tmp_path))
    return McpTuiApp([ServerSpec("dollar", target)], options)


async def _call_and_accept_as_shown(pilot: Any, app: McpTuiApp) -> None:
    await wait_until(lambda: catalog_has(app, "dollar", TOOL), 30, pilot=pilot)
    await open_node(pilot, app, "dollar", TOOL)
    arguments = await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
    await pilot.press("ctrl+s")  # the arguments as shown
    await wait_until(lambda: arguments not in app.screen_stack, pilot=pilot)
    for _ in range(2):  # the form as shown, then the confirmation that echoes it
        form = await wait_until(lambda: mounted_screen(app, ElicitationScreen), 20, pilot=pilot)
        await pilot.press("ctrl+s")
        await wait_until(lambda form=form: form not in app.screen_stack, pilot=pilot)
    await wait_until(
        lambda: "Welcome ${API_TOKEN} at-${HOME}" in transcript_text(app, full=True),
        20,
        pilot=pilot,
        message="the tool's answer",
    )
    await wait_until(lambda: session_of(app).calls.history.last_finished is not None, pilot=pilot)


def _environ(tmp_path: Path) -> dict[str, str]:
    """The CI's environment: the token, and what the file's server names (by reference)."""
    return {
        **os.environ,
        "API_TOKEN": TOKEN,
        "PYTHONPATH": str(ROOT),
        "DOLLAR_SEEN_FILE": str(tmp_path / "seen.jsonl"),
        "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
    }


async def _mcp_tui_test(tmp_path: Path, *args: str | Path) -> tuple[int, str, str]:
    """``mcp-tui test`` (in a thread: it runs its own event loop), its exit code and output."""
    from mcp_tui.cli.runtests import run_test_command

    out, err = io.StringIO(), io.StringIO()

    def run() -> int:
        import contextlib

        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            return run_test_command([str(a) for a in args], _environ(tmp_path))

    code = await anyio.to_thread.run_sync(run)
    return code, out.getvalue(), err.getvalue()


async def _replay_then_fail(
    tmp_path: Path, saved: Path, monkeypatch: pytest.MonkeyPatch, *, fail: bool = True
) -> None:
    text = saved.read_text()
    assert 'label = "$${API_TOKEN}"' in text and 'home = "at-$${HOME}"' in text, text
    assert str(tmp_path / "seen.jsonl") not in text, "the server's env value is not written"
    assert "${DOLLAR_SEEN_FILE}" in text

    seen = tmp_path / "seen.jsonl"
    seen.unlink()
    # The saved command says ``python``: this one, first on PATH, as in a CI job's venv.
    monkeypatch.setenv("PATH", _environ(tmp_path)["PATH"])
    code, out, err = await _mcp_tui_test(tmp_path, saved)
    assert code == 0, out + err
    received = seen.read_text()
    assert TOKEN not in received, "the server was sent the CI's secret"
    lines = [json.loads(line) for line in received.splitlines()]
    answer = next(line["answer"] for line in lines if "answer" in line)
    home = os.environ.get("HOME", "")
    assert answer == {"label": "${API_TOKEN}", "home": "at-${HOME}", "note": ""}, home
    if not fail:
        return

    # The author writes a variable of their own into an answer; the server changes.
    saved.write_text(text.replace('note = ""', 'note = "n-${API_TOKEN}"'))
    monkeypatch.setenv("DOLLAR_GREETING", "Hello")
    junit, report = tmp_path / "junit.xml", tmp_path / "report.json"
    code, out, err = await _mcp_tui_test(tmp_path, saved, "--junit-xml", junit)
    assert code == 1, out + err
    assert f"n-{TOKEN}" in seen.read_text(), "what the author wrote is sent"
    code, as_json, json_err = await _mcp_tui_test(tmp_path, saved, "--json")
    assert code == 1
    report.write_text(as_json)
    for where, printed in [
        ("the report", out + err),
        ("JUnit", junit.read_text()),
        ("--json", as_json + json_err),
    ]:
        assert TOKEN not in printed, f"{where} holds the token:\n{printed}"
        assert "n-***" in printed, f"{where} does not show where it went:\n{printed}"
    assert "Hello ${API_TOKEN} at-${HOME} n-***" in out, out
    doc = json.loads(as_json)
    (case,) = doc["cases"]
    assert case["status"] == "failed"
    assert case["observed"]["elicitations"][1]["message"].startswith('You sent {"label"')


async def test_a_call_saved_by_keys_replays_the_servers_text_not_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the dialog's default path is relative to where mcp-tui runs
    app = _app(tmp_path, AppOptions(stderr_log=Path(os.devnull)))
    async with app.run_test(size=(100, 30)) as pilot:
        await _call_and_accept_as_shown(pilot, app)
        await run_from_palette(pilot, app, "save as a test", "Save as a test")
        dialog = await wait_until(lambda: mounted_screen(app, SaveTestScreen), pilot=pilot)
        await pilot.press("enter", "enter")  # the default file, the default name: saved
        await wait_until(lambda: dialog not in app.screen_stack, pilot=pilot)
        await wait_until(lambda: "saved as a test in" in transcript_text(app), pilot=pilot)
    saved = tmp_path / "tests" / "mcp" / "dollar.mcptest.toml"
    await _replay_then_fail(tmp_path, saved, monkeypatch)


async def test_a_call_saved_by_record_replays_the_servers_text_not_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "rec.mcptest.toml"
    app = _app(tmp_path, AppOptions(stderr_log=Path(os.devnull), record=record))
    async with app.run_test(size=(100, 30)) as pilot:
        await _call_and_accept_as_shown(pilot, app)
        await wait_until(record.exists, pilot=pilot)
    await _replay_then_fail(tmp_path, record, monkeypatch, fail=False)  # the reports: above


async def test_the_saved_notice_gives_a_command_that_is_safe_to_paste(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    monkeypatch.chdir(tmp_path)
    record = tmp_path / "my $(touch X) `id`; tests.mcptest.toml"
    script = Script(results={"echo": CallOutcome(items=(ContentItem("text", text="hi"),))})
    options = AppOptions(stderr_log=Path("/var/log/x.log"), record=record)
    app, _ = make_app({"demo": script}, options=options)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session_of(app).calls.call_tool("demo", "echo", {"text": "hi"})
        await wait_until(lambda: "saved as a test in" in transcript_text(app), pilot=pilot)
        text = transcript_text(app, full=True)
    line = text[text.index("mcp-tui test ") :].splitlines()[0]
    assert shlex.split(line) == ["mcp-tui", "test", str(record)], line


async def test_a_value_the_config_took_from_the_environment_is_never_written_when_echoed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The config gives the server ``DOLLAR_ECHO = "${API_TOKEN}"``; the server echoes it in a
    form's message, title and default and in its result, and in a tool's name. ``--save-answers``
    and ``--record`` write none of it: the answers file masks the message and leaves the field
    out (the replay fills it from the form's default), the test case leaves out the snapshots
    that hold it, and a call of the tool named after it is not saved, with the reason."""
    from mcp_tui.config.load import load_config
    from mcp_tui.testbench.load import load_test_file

    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.toml"
    seen = tmp_path / "seen.jsonl"
    config.write_text(
        f"[servers.dollar]\ncommand = {json.dumps(sys.executable)}\n"
        f"args = [{json.dumps(str(SERVER))}]\n"
        'env = { DOLLAR_ECHO = "${API_TOKEN}", DOLLAR_SEEN_FILE = "${SEEN}" }\n',
        encoding="utf-8",
    )
    specs = load_config(config, {"API_TOKEN": TOKEN, "SEEN": str(seen)}).default_servers()
    answers, record = tmp_path / "answers.toml", tmp_path / "rec.mcptest.toml"
    options = AppOptions(stderr_log=Path(os.devnull), save_answers=answers, record=record)
    app = McpTuiApp(specs, options)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: catalog_has(app, "dollar", "echo_form"), 30, pilot=pilot)
        session_of(app).calls.call_tool("dollar", "echo_form", {})
        form = await wait_until(lambda: mounted_screen(app, ElicitationScreen), 20, pilot=pilot)
        await pilot.press("ctrl+s")  # as shown: the default that holds the token
        await wait_until(lambda: form not in app.screen_stack, pilot=pilot)
        await wait_until(record.exists, 20, pilot=pilot, message="the call recorded")
        session_of(app).calls.call_tool("dollar", f"echo_{TOKEN}", {})
        await wait_until(lambda: "#2 not saved" in transcript_text(app, full=True), 20, pilot=pilot)
        said = transcript_text(app, full=True)
    assert "the tool's name holds a value taken from the environment" in said
    assert json.loads(seen.read_text().splitlines()[-1]) == {"echo_form": {"note": f"d-{TOKEN}"}}
    saved_answers, saved_case = answers.read_text(), record.read_text()
    assert TOKEN not in saved_answers, saved_answers
    assert TOKEN not in saved_case, saved_case
    assert 'message = "Is *** yours?"' in saved_answers
    (case,) = load_test_file(record).model.case
    assert case.tool == "echo_form" and case.expect.text is None
    assert case.answers[0].content == {}, "the field is left out: the default fills it"
    (form,) = case.expect.elicitations
    assert (form.message, form.schema_, form.action) == (None, None, "accept"), "both hold it"

    seen.unlink()
    monkeypatch.setenv("DOLLAR_ECHO", TOKEN)  # the variables the recorded server table reads
    monkeypatch.setenv("DOLLAR_SEEN_FILE", str(seen))
    monkeypatch.setenv("PATH", _environ(tmp_path)["PATH"])
    code, out, err = await _mcp_tui_test(tmp_path, record)
    assert code == 0, out + err
    assert json.loads(seen.read_text().splitlines()[-1]) == {"echo_form": {"note": f"d-{TOKEN}"}}
