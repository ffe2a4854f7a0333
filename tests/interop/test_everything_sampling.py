"""server-everything's ``trigger-sampling-request``, answered by a person through the real TUI and
by an answers file headless (issue 17).

The server registers the tool only for a client that advertises ``sampling``; it sends one user
message, a system prompt, ``maxTokens`` and ``temperature``, and returns the ``CreateMessageResult``
it parsed as JSON text, so each test reads back exactly what the server received.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Select, Static, TextArea

from mcp_tui.cli import main as cli
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from tests.interop.interop_peers import EVERYTHING_JS, LOOPBACK_PRELOAD, NODE
from tests.interop.test_everything_tui import build_app
from tests.interop.tui_driver import _messages, quit_app, result_text, tool_results, wait_for

pytestmark = [pytest.mark.interop]

TOOL = "trigger-sampling-request"
ARGS = {"prompt": "Say hello", "maxTokens": 42}


def sampling_answers(log: Path) -> list[dict[str, Any]]:
    """Every response we sent to a server's ``sampling/createMessage``, in order."""
    asked = {m["id"] for m in _messages(log, "in") if m.get("method") == "sampling/createMessage"}
    return [m for m in _messages(log, "out") if "method" not in m and m.get("id") in asked]


def received(response: dict[str, Any]) -> dict[str, Any]:
    """The ``CreateMessageResult`` server-everything got (``LLM sampling result: {...}``)."""
    text = result_text(response)
    marker = "LLM sampling result: "
    assert marker in text, f"no sampling result in {text!r}"
    parsed: dict[str, Any] = json.loads(text.split(marker, 1)[1])
    return parsed


def screen_text(screen: SamplingScreen) -> str:
    return "\n".join(str(s.render()) for s in screen.query(Static))


@pytest.mark.anyio
async def test_a_person_writes_the_reply_and_the_server_gets_it(
    peers: None, tmp_path: Path, anyio_backend: str
) -> None:
    app = build_app(tmp_path, TOOL, ARGS)
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, SamplingScreen) and app.screen, "the review"
        )
        reply = await wait_for(
            pilot, lambda: screen.query("#sampling-reply"), "the screen's widgets"
        )
        await wait_for(pilot, lambda: app.focused is reply.first(), "the reply box focused")
        # The stop-reason Select composes its children a moment later; its value is set below.
        await wait_for(
            pilot, lambda: screen.query("#sampling-stop SelectCurrent #label"), "the stop reason"
        )
        shown = screen_text(screen)
        assert "Server everything asks for a model reply (sampling)" in shown
        assert "during tool call trigger-sampling-request" in shown
        assert "maxTokens: 42" in shown and "temperature: 0.7" in shown
        assert "You are a helpful test server." in shown
        assert "Resource trigger-sampling-request context: Say hello" in shown

        # Nothing typed: Ctrl+S sends nothing and says why.
        await pilot.press("ctrl+s")
        status = screen.query_one("#sampling-status")
        await wait_for(pilot, lambda: "write the reply first" in str(status.render()), "why")
        assert app.screen is screen and sampling_answers(log) == []

        await pilot.press(*"Hello,", "enter", *"world")
        screen.query_one("#sampling-model", Input).value = "pilot-model"
        screen.query_one("#sampling-stop", Select).value = "maxTokens"
        await pilot.press("ctrl+s")
        responses = await wait_for(pilot, lambda: tool_results(log, TOOL), "the tool result")
        await quit_app(pilot)

    expected = {
        "role": "assistant",
        "content": {"type": "text", "text": "Hello,\nworld"},
        "model": "pilot-model",
        "stopReason": "maxTokens",
    }
    [sent] = sampling_answers(log)
    assert sent["result"] == expected
    assert received(responses[0]) == expected


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("ctrl+r", "User rejected sampling request"),
        ("escape", "User dismissed the sampling request without answering"),
    ],
)
async def test_decline_and_cancel_reach_the_server_as_the_rejection_error(
    peers: None, tmp_path: Path, anyio_backend: str, key: str, message: str
) -> None:
    app = build_app(tmp_path, TOOL, ARGS)
    log = tmp_path / "traffic.jsonl"
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, SamplingScreen) and app.screen, "the review"
        )
        await wait_for(
            pilot,
            lambda: isinstance(app.focused, TextArea) and app.focused.screen is screen,
            "the reply box focused",
        )
        await pilot.press(*"not sent")
        await pilot.press(key)
        responses = await wait_for(pilot, lambda: tool_results(log, TOOL), "the tool result")
        await quit_app(pilot)

    [sent] = sampling_answers(log)
    assert sent["error"] == {"code": -1, "message": message}
    assert "not sent" not in json.dumps(responses[0])


def everything_argv() -> list[str]:
    return ["--", str(NODE), "-r", str(LOOPBACK_PRELOAD), str(EVERYTHING_JS), "stdio"]


def test_headless_answers_file_replies(
    peers: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.json"
    reply = {"text": "scripted reply", "model": "ci", "stopReason": "endTurn"}
    answers.write_text(json.dumps({"answers": [{"sampling": reply}]}), encoding="utf-8")
    argv = ["call", TOOL, "--args", json.dumps(ARGS), "--answers", str(answers), "-q", "--json"]
    code = cli.main(argv + everything_argv())
    out, err = capsys.readouterr()
    assert code == 0, err
    text = json.loads(out)["content"][0]["text"]
    assert json.loads(text.split("LLM sampling result: ", 1)[1]) == {
        "role": "assistant",
        "content": {"type": "text", "text": "scripted reply"},
        "model": "ci",
        "stopReason": "endTurn",
    }
    assert 'sampling #1: 1 message(s), maxTokens 42; last: "Resource trigger-sampling' in err
    assert 'system prompt: "You are a helpful test server."' in err


def test_headless_without_an_answer_declines(
    peers: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["call", TOOL, "--args", json.dumps(ARGS), "-q", *everything_argv()])
    out, err = capsys.readouterr()
    assert code == 1  # the tool fails: the server's request was rejected
    assert "-> decline  (--sampling decline)" in err
    assert "User rejected sampling request" in out + err
