"""A server's sampling request answered by the chat's model, through the real app: the review
screen shows the request, Ctrl+G (the person's approval) sends it to the model — here a real HTTP
server on 127.0.0.1 speaking the OpenAI-compatible API — the reply fills the box, and the server
gets it only after Ctrl+S. Without a model, Ctrl+G is not offered and the person writes the reply.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.config.options import AppOptions
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from tests.chat.fake_openai import Reply, fake_openai
from tests.session.session_testkit import stdio_spec
from tests.ui.demo_tui_kit import wait_until

pytestmark = pytest.mark.anyio


async def sampling_review(app: McpTuiApp, pilot: Pilot[None]) -> SamplingScreen:
    """Call the fixture server's ``sample`` tool once it is ready; its review screen."""
    entry = app.entries["fx"]
    await wait_until(pilot, lambda: entry.state is ConnectionState.READY, "ready")
    await wait_until(pilot, lambda: app.session and app.session.areas.panels_ready, "panels")
    assert app.session is not None
    app.session.calls.call_tool("fx", "sample", {})
    return await wait_until(
        pilot,
        lambda: app.screen if isinstance(app.screen, SamplingScreen) else None,
        "the sampling review",
    )


async def test_the_chat_model_answers_a_sampling_request_after_the_person_asks(
    tmp_path: Path,
) -> None:
    with fake_openai([Reply(text="A small grey cat.")]) as fake:
        chat = ChatSettings(provider="openai-compatible", base_url=fake.url, model="fake-1")
        app = McpTuiApp([stdio_spec()], AppOptions(stderr_log=tmp_path / "err.log", chat=chat))
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await sampling_review(app, pilot)
            assert fake.requests == []  # nothing goes to the model before the person asks
            assert screen.check_action("ask_model", ()) is True
            await pilot.press("ctrl+g")
            box = screen.query_one("#sampling-reply")
            # The box fills while the reply streams in; the model's name and stop reason are set
            # once it is complete, when asking is offered again.
            await wait_until(
                pilot,
                lambda: box.text == "A small grey cat." and screen.chat_model.can_ask(),
                "the model's whole reply",
            )
            [sent] = fake.requests
            assert sent["messages"][0] == {"role": "system", "content": "You are terse."}
            assert sent["max_completion_tokens"] == 64 and sent["temperature"] == 0.2
            assert sent["messages"][1]["content"].startswith(
                "Describe this picture\n[image: image/png"
            )
            assert sent["stop"] == ["END"]
            assert app.screen is screen  # still the person's to send
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: app.screen is app.session, "the review closed")
            result = await wait_until(
                pilot,
                lambda: next(
                    (e.full for e in app.session.areas.transcript.entries if '"model"' in e.full),
                    None,  # type: ignore[union-attr]
                ),
                "the tool's result",
            )
            echoed, _ = json.JSONDecoder().raw_decode(result[result.index("{") :])
            assert echoed["content"] == {"type": "text", "text": "A small grey cat."}
            assert echoed["model"] == "fake" and echoed["stopReason"] == "endTurn"


async def test_without_a_model_ctrl_g_is_not_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    app = McpTuiApp([stdio_spec()], AppOptions(stderr_log=tmp_path / "err.log"))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await sampling_review(app, pilot)
        assert screen.check_action("ask_model", ()) is False
        await pilot.press("ctrl+g")
        assert screen.query_one("#sampling-reply").text == ""  # type: ignore[attr-defined]
        await pilot.press("escape")
