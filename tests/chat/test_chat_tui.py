"""The chat through the real app on the bundled demo server, with a model that is a real HTTP
server on 127.0.0.1 speaking the OpenAI-compatible API (``fake_openai``), scripted here.

The demo is a fresh one per test (``build_server()``), served from the test's process over
Streamable HTTP on 127.0.0.1: what the chat does with a server's tools does not depend on the
transport, and a stdio child per test imported the SDK again (the demo over stdio through the
real app is ``tests/ui/app/test_demo_tui.py``'s).

The model calls the demo's ``delete_project``, the user approves the call, the tool's elicitation
form opens over the chat and is filled through Pilot, and the model's next request carries the
tool's result. Also: a denied call never reaches the server, "always" allows that one tool and no
other, the provider gets the key's value (never its variable's name), Escape stops a reply
mid-stream (and a second Escape goes back to the session screen), and a saved conversation is
resumed.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from mcp_tui.config.chat_settings import ChatSettings, ProviderKind
from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.demo.server import build_server
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.chat_screen import ChatScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from mcp_tui.ui.widgets.chat_blocks import ModelBlock, ToolBlock, UserBlock
from tests.chat.fake_openai import FakeOpenAI, Reply, ToolCall, fake_openai
from tests.session.session_testkit import serve_http
from tests.ui.demo_tui_kit import DemoRun, next_form, row, traffic, wait_until

pytestmark = pytest.mark.anyio

DELETE = ToolCall("demo__delete_project", {"name": "payments-api"}, id="call_del")


@asynccontextmanager
async def chat_app(
    tmp_path: Path,
    script: list[Reply],
    monkeypatch: pytest.MonkeyPatch,
    *,
    provider: ProviderKind = "openai-compatible",
    api_key_env: str | None = None,
) -> AsyncIterator[tuple[DemoRun, FakeOpenAI, ChatScreen]]:
    """The app on the demo (2025-11-25), its chat opened with ``m`` and talking to the fake."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with fake_openai(script) as fake:
        settings = ChatSettings(
            provider=provider, base_url=fake.url, model="fake-1", api_key_env=api_key_env
        )
        log = tmp_path / "traffic.jsonl"
        options = AppOptions(traffic_log=log, stderr_log=tmp_path / "stderr.log", chat=settings)
        demo = build_server()
        async with serve_http(demo.streamable_http_app()) as port:
            spec = ServerSpec("demo", HttpTarget(f"http://127.0.0.1:{port}/mcp"), mode="legacy")
            app = McpTuiApp([spec], options)
            async with app.run_test(size=(100, 32)) as pilot:
                entry = app.entries["demo"]
                await wait_until(pilot, lambda: entry.state is ConnectionState.READY, "demo ready")
                await wait_until(pilot, lambda: entry.tools, "the demo's tools")
                await wait_until(
                    pilot, lambda: app.session and app.session.areas.panels_ready, "panels"
                )
                await pilot.press("m")
                screen = await wait_until(
                    pilot,
                    lambda: app.screen if isinstance(app.screen, ChatScreen) else None,
                    "chat",
                )
                run = DemoRun(app, pilot, log, "2025-11-25", "chat-test")
                yield run, fake, screen
                await pilot.press("ctrl+q")
                await wait_until(
                    pilot,
                    lambda: isinstance(app.screen, ConfirmScreen) or not app.is_running,
                    "quit",
                )
                if app.is_running:
                    await pilot.press("y")


async def say(run: DemoRun, text: str) -> None:
    await run.pilot.press(*["space" if c == " " else c for c in text], "enter")


def model_text(screen: ChatScreen) -> str:
    return "\n".join(b.text for b in screen.query(ModelBlock))


async def test_the_model_calls_a_tool_that_elicits_and_sees_its_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = [Reply(text="Deleting it.", tool_calls=[DELETE]), Reply(text="It is deleted now.")]
    async with chat_app(tmp_path, script, monkeypatch) as (run, fake, chat):
        await say(run, "please delete payments-api")
        block = await wait_until(
            run.pilot,
            lambda: next((b for b in chat.query(ToolBlock) if b.has_class("-asking")), None),
            "the approval question",
        )
        assert block.tool_label == "demo › delete_project"
        assert [type(b) for b in chat.query("#chat-log > *")][:2] == [UserBlock, ModelBlock]
        await run.pilot.press("y")
        form = await next_form(run, "Delete the project payments-api")
        await run.pilot.press("space")
        assert row(form, "confirm").get_raw() is True
        await run.pilot.press("ctrl+s")
        await wait_until(run.pilot, lambda: "It is deleted now." in model_text(chat), "reply")
        assert run.app.screen is chat  # the form closed back onto the chat
        # The model's second request carries the tool's result, and the server got the answer.
        tool_message = fake.requests[1]["messages"][-1]
        assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_del"
        assert "Deleted payments-api." in tool_message["content"]
        answers = [
            m for m in traffic(run.log) if m.get("message", {}).get("result", {}).get("action")
        ]
        assert answers and answers[-1]["message"]["result"] == {
            "action": "accept",
            "content": {"confirm": True},
        }
        assert block.result is not None and "Deleted payments-api." in block.result
        # The card lists what the tool asked inside the call, as the transcript's card does.
        asked = "asked: form, 1 field → accepted {confirm}"
        await wait_until(run.pilot, lambda: block.asked == asked, "the card saying what was asked")
        assert asked in str(block.query_one(".tool-asked").render())
        assert asked in run.transcript()
        # The call is in the session's transcript too.
        assert run.app.session is not None
        assert "Deleted payments-api." in run.transcript()
        # The conversation was saved as it went.
        saved = list((tmp_path / "data").rglob("*.jsonl"))
        assert len(saved) == 1 and "please delete payments-api" in saved[0].read_text()


async def test_a_denied_call_never_reaches_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = [Reply(tool_calls=[DELETE]), Reply(text="Understood, not deleting.")]
    async with chat_app(tmp_path, script, monkeypatch) as (run, fake, chat):
        await say(run, "delete it")
        await wait_until(
            run.pilot, lambda: any(b.has_class("-asking") for b in chat.query(ToolBlock)), "ask"
        )
        await run.pilot.press("n")
        await wait_until(run.pilot, lambda: "not deleting" in model_text(chat), "the reply")
        assert "declined" in fake.requests[1]["messages"][-1]["content"]
        calls = [m for m in traffic(run.log) if m.get("message", {}).get("method") == "tools/call"]
        assert calls == []


async def test_always_allows_only_that_tool_a_different_one_is_still_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    search = ToolCall("demo__search_issues", {"query": "*"}, id="call_s1")
    other = ToolCall("demo__long_task", {"duration": 0, "steps": 1}, id="call_l")
    again = ToolCall("demo__search_issues", {"query": "login"}, id="call_s2")
    script = [
        Reply(tool_calls=[search]),
        Reply(tool_calls=[other]),
        Reply(tool_calls=[again]),
        Reply(text="All done."),
    ]

    def asking() -> list[ToolBlock]:
        return [b for b in chat.query(ToolBlock) if b.has_class("-asking")]

    async with chat_app(tmp_path, script, monkeypatch) as (run, _fake, chat):
        await say(run, "look around")
        first = await wait_until(run.pilot, asking, "the first call is asked about")
        assert first[0].tool_label == "demo › search_issues"
        await run.pilot.press("a")  # always, for search_issues only
        # A different tool is still asked about, whatever was allowed before it.
        second = await wait_until(run.pilot, asking, "the different tool is asked about")
        assert second[0].tool_label == "demo › long_task"
        await run.pilot.press("n")
        await wait_until(run.pilot, lambda: "All done" in model_text(chat), "the reply")
        blocks = list(chat.query(ToolBlock))
        assert [b.tool_label for b in blocks] == [
            "demo › search_issues",
            "demo › long_task",
            "demo › search_issues",
        ]
        # The allowed tool ran again without a question; the declined one never ran.
        assert [b.result_status for b in blocks] == ["done", "denied", "done"]
        called = [
            m["message"]["params"]["name"]
            for m in traffic(run.log)
            if m.get("message", {}).get("method") == "tools/call"
        ]
        assert called == ["search_issues", "search_issues"]


async def test_the_provider_is_sent_the_key_not_the_name_of_its_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_TUI_TEST_CHAT_KEY", "sk-test-value-7f3a")
    script = [Reply(text="Hello.")]
    async with chat_app(
        tmp_path, script, monkeypatch, provider="openai", api_key_env="MCP_TUI_TEST_CHAT_KEY"
    ) as (run, fake, chat):
        await say(run, "hi")
        await wait_until(run.pilot, lambda: "Hello" in model_text(chat), "the reply")
    authorization = {k.lower(): v for k, v in fake.headers[0].items()}["authorization"]
    assert authorization == "Bearer sk-test-value-7f3a"


async def test_escape_stops_generation_then_goes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold = threading.Event()
    script = [Reply(text="A very long answer that never ends", hold=hold), Reply(text="Next.")]
    async with chat_app(tmp_path, script, monkeypatch) as (run, _fake, chat):
        await say(run, "talk")
        await wait_until(run.pilot, lambda: "A" in model_text(chat), "the first words")
        assert chat.generating
        await run.pilot.press("escape")
        await wait_until(run.pilot, lambda: not chat.generating, "generation stopped")
        hold.set()
        assert run.app.screen is chat
        await wait_until(
            run.pilot,
            lambda: "[stopped]" in str(list(chat.query(ModelBlock))[-1].render()),
            "the stop shown",
        )
        # The conversation goes on after a stop.
        await say(run, "go on")
        # Escape stops a turn that still runs (the text shows before it ends): wait for its end.
        await wait_until(
            run.pilot,
            lambda: "Next." in model_text(chat) and not chat.generating,
            "the next reply, and the turn over",
        )
        await run.pilot.press("escape")
        await wait_until(
            run.pilot, lambda: run.app.screen is run.app.session, "back to the session"
        )
        # ``m`` again: the same conversation.
        await run.pilot.press("m")
        await wait_until(run.pilot, lambda: run.app.screen is chat, "the chat again")
        assert "Next." in model_text(chat)


async def test_a_saved_conversation_is_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = [Reply(text="First answer."), Reply(text="Second answer.")]
    async with chat_app(tmp_path, script, monkeypatch) as (run, fake, chat):
        await say(run, "hello")
        # Ctrl+N is refused while the turn runs, and the text shows before the turn ends.
        await wait_until(
            run.pilot,
            lambda: "First answer." in model_text(chat) and not chat.generating,
            "the reply, and the turn over",
        )
        await run.pilot.press("ctrl+n")
        await wait_until(run.pilot, lambda: not list(chat.query(UserBlock)), "a new chat")
        await run.pilot.press("ctrl+o")
        await wait_until(run.pilot, lambda: type(run.app.screen).__name__ == "ResumeScreen", "list")
        await run.pilot.press("enter")
        await wait_until(run.pilot, lambda: "First answer." in model_text(chat), "resumed")
        await say(run, "and then")
        await wait_until(run.pilot, lambda: "Second answer." in model_text(chat), "reply 2")
        sent = fake.requests[1]["messages"]
        assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
        assert sent[2]["content"] == "First answer."
        files = list((tmp_path / "data").rglob("*.jsonl"))
        assert len(files) == 1  # resumed conversations go on in their own file
        await run.pilot.press("f4")
        await wait_until(run.pilot, lambda: files[0].with_suffix(".md").exists(), "export")
        assert "Second answer." in files[0].with_suffix(".md").read_text()


async def test_a_tool_that_needs_a_page_first_is_retried_for_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-32042 inside the chat: the same consent, wait and retry as a call made by hand, asked
    over the chat; the model gets the retried call's result, never the -32042."""
    from tests.ui.app.test_app_url_demo import LISTING, browser_calls, press_page, recording_browser

    opened = recording_browser(tmp_path, monkeypatch)
    files = ToolCall("demo__list_files", {"folder": "/"}, id="call_files")
    script = [Reply(tool_calls=[files]), Reply(text="Here are your files.")]
    async with chat_app(tmp_path, script, monkeypatch) as (run, fake, chat):
        await say(run, "list my files")
        await wait_until(
            run.pilot, lambda: any(b.has_class("-asking") for b in chat.query(ToolBlock)), "ask"
        )
        await run.pilot.press("y")
        consent = await wait_until(
            run.pilot,
            lambda: run.app.screen if isinstance(run.app.screen, UrlConsentScreen) else None,
            "the consent screen over the chat",
        )
        url = consent.verdict.url
        await run.pilot.press("ctrl+s")
        await wait_until(run.pilot, lambda: run.app.screen is chat, "back on the chat")
        await wait_until(run.pilot, lambda: run.app.url_waits.waiting, "the page's wait")
        assert len(fake.requests) == 1  # the model waits; it has not seen the -32042
        await asyncio.to_thread(press_page, url)
        title = await wait_until(
            run.pilot,
            lambda: (
                isinstance(run.app.screen, ConfirmScreen)
                and next(iter(run.app.screen.query(".dialog-title")), None)
            ),
            "the retry question over the chat",
        )
        assert "Retry list_files?" in str(title.render())
        await run.pilot.press("y")
        await wait_until(run.pilot, lambda: "Here are your files." in model_text(chat), "reply")
        tool_message = fake.requests[1]["messages"][-1]
        assert tool_message["role"] == "tool" and LISTING in tool_message["content"]
        assert "32042" not in tool_message["content"]
        assert browser_calls(opened) == [[url]]
        calls = [m for m in traffic(run.log) if m.get("message", {}).get("method") == "tools/call"]
        assert len(calls) == 2  # the call and its one retry
