"""The chat's model dialog (F3) and its empty page, at 80x24: the Provider drop-down opens from
the keyboard (Enter, Space, Down, as every drop-down of mcp-tui's forms), focus starts on it each
time the dialog opens, and the empty chat says how to pick a model before anything is typed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from mcp_tui.config.chat_settings import ChatSettings
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.chat_extras import ChatSettingsScreen
from mcp_tui.ui.screens.chat_screen import ChatScreen
from tests.ui.app_testkit import mounted_screen, wait_for
from tests.ui.screens.test_session_snapshots import make_session_app

pytestmark = pytest.mark.anyio
SMALL = (80, 24)
SnapCompare = Callable[..., bool]
LOCAL = ChatSettings(provider="openai-compatible", base_url="http://127.0.0.1:9/v1", model="m")


def chat_app(settings: ChatSettings) -> McpTuiApp:
    return make_session_app(settings)


async def open_chat(pilot: Pilot[None]) -> ChatScreen:
    app = pilot.app
    assert isinstance(app, McpTuiApp)
    await wait_for(pilot, lambda: app.entries["weather"].state is ConnectionState.READY)
    await wait_for(pilot, lambda: app.session is not None and app.session.areas.panels_ready)
    await pilot.press("m")
    await wait_for(pilot, lambda: mounted_screen(app, ChatScreen) is not None, timeout=90)
    chat = app.screen
    assert isinstance(chat, ChatScreen)
    chat.query_one("#chat-input").cursor_blink = False  # type: ignore[attr-defined]
    return chat


async def open_dialog(pilot: Pilot[None]) -> ChatSettingsScreen:
    await pilot.press("f3")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChatSettingsScreen))
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, ChatSettingsScreen)
    return dialog


def focused_id(pilot: Pilot[None]) -> str | None:
    focused = pilot.app.focused
    return focused.id if focused is not None else None


@pytest.mark.parametrize("settings", [ChatSettings(), LOCAL], ids=["none", "local"])
async def test_the_dialog_starts_on_the_provider_each_time(settings: ChatSettings) -> None:
    app = chat_app(settings)
    async with app.run_test(size=SMALL) as pilot:
        await open_chat(pilot)
        for _ in range(3):
            await open_dialog(pilot)
            assert focused_id(pilot) == "chat-provider"
            await pilot.press("tab")
            assert focused_id(pilot) == "chat-model"  # the fields in order, not the dialog box
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, ChatScreen))


@pytest.mark.parametrize("key", ["enter", "space", "down"])
async def test_the_provider_opens_from_the_keyboard(key: str) -> None:
    app = chat_app(ChatSettings())
    async with app.run_test(size=SMALL) as pilot:
        chat = await open_chat(pilot)
        dialog = await open_dialog(pilot)
        select = dialog.query_one("#chat-provider")
        await pilot.press(key)
        await wait_for(pilot, lambda: getattr(select, "expanded", False))
        # the drop-down's rows: "Choose…" (none, highlighted), anthropic, openai, ...
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: not getattr(select, "expanded", True))
        assert focused_id(pilot) == "chat-provider"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is chat)
        assert chat.settings.provider == "anthropic"


def hint_text(chat: ChatScreen) -> str:
    found = chat.query("#chat-empty")
    return str(found.first(Static).render()) if found and found.first().display else ""


async def test_the_empty_chat_says_how_to_pick_a_model() -> None:
    app = chat_app(ChatSettings())
    async with app.run_test(size=SMALL) as pilot:
        chat = await open_chat(pilot)
        text = hint_text(chat)
        assert "No model is chosen yet" in text
        for words in ("F3", "--provider", "--model", "--base-url", "ANTHROPIC_API_KEY", "[chat]"):
            assert words in text, words
        # choosing one in F3 says so on the page still empty
        dialog = await open_dialog(pilot)
        await pilot.press("enter", "down", "down", "enter", "ctrl+s")
        await wait_for(pilot, lambda: app.screen is chat)
        assert dialog is not app.screen
        await wait_for(pilot, lambda: "Model: openai · gpt-4.1-mini" in hint_text(chat))


async def test_the_hint_leaves_with_the_first_message_and_comes_back_for_a_new_chat() -> None:
    app = chat_app(ChatSettings())
    async with app.run_test(size=SMALL) as pilot:
        chat = await open_chat(pilot)
        assert hint_text(chat)
        await pilot.press("h", "i", "enter")
        await wait_for(pilot, lambda: not hint_text(chat))
        await wait_for(pilot, lambda: not chat.generating)
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: "No model is chosen yet" in hint_text(chat))


def test_snapshot_empty_chat(snap_compare: SnapCompare) -> None:
    async def run(pilot: Pilot[None]) -> None:
        await open_chat(pilot)

    assert snap_compare(chat_app(ChatSettings()), terminal_size=SMALL, run_before=run)


def test_snapshot_model_dialog(snap_compare: SnapCompare) -> None:
    async def run(pilot: Pilot[None]) -> None:
        await open_chat(pilot)
        await open_dialog(pilot)

    assert snap_compare(chat_app(LOCAL), terminal_size=SMALL, run_before=run)
