"""Everything mcp-tui copies goes through one path (``McpTuiApp.copy_to_clipboard``), which
escapes what a terminal or a paste would act on (issue 39, item 2): read here as the bytes the
app writes, the OSC 52 sequence's payload decoded. JSON copies as JSON escapes (``\\u009b``) and
parses back to the message; a URL the consent screen checked is copied exactly as shown."""

from __future__ import annotations

import asyncio
import base64
import json
import re
from typing import Any

import pytest
from textual.widgets import Input

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import ConnectionState, TrafficRecorded
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.detail import DetailScreen
from mcp_tui.ui.screens.message_tree import MessageTreeScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from mcp_tui.untrusted import clipboard_text
from tests.ui.app_testkit import RAW_CONTROLS, make_app, session_of, wait_for

pytestmark = pytest.mark.anyio

#: 8-bit CSI, RLO, ESC, BEL, a zero-width space, NEL and a line separator: each does something
#: on a terminal or to what a reader sees, pasted raw.
HOSTILE = "a\x9b2Jb\u202ecba\x1b]52;c;eA==\x07\u200b\x85\u2028z"
MESSAGE = {
    "jsonrpc": "2.0",
    "id": 7,
    "method": "elicitation/create",
    "params": {"message": HOSTILE, "requestedSchema": {"type": "object", "properties": {}}},
}
_OSC52 = re.compile(r"\x1b\]52;c;([A-Za-z0-9+/=]*)\x07")


class Written:
    """What the app writes to the terminal, and the clipboard payloads in it."""

    def __init__(self, app: McpTuiApp) -> None:
        driver = app._driver
        assert driver is not None
        self.data: list[str] = []
        write = driver.write

        def recording(data: str) -> None:
            self.data.append(data)
            write(data)

        driver.write = recording  # type: ignore[method-assign]

    def copies(self) -> list[str]:
        found = _OSC52.findall("".join(self.data))
        return [base64.b64decode(payload).decode("utf-8") for payload in found]

    def last_copy(self) -> str:
        copies = self.copies()
        assert copies, "nothing was copied"
        return copies[-1]


def assert_inert(copied: str) -> None:
    for raw in (*RAW_CONTROLS, "\x85", "\u2028"):
        assert raw not in copied, f"{raw!r} reached the clipboard"


async def _ready(pilot: Any, app: McpTuiApp) -> None:
    await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)


async def test_the_traffic_trees_copy_is_json_with_every_unsafe_character_escaped() -> None:
    app, factory = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        written = Written(app)
        factory.latest("demo").sink(TrafficRecorded("demo", "in", MESSAGE))
        session = session_of(app)
        await pilot.press("t")
        view = session.areas.traffic
        await wait_for(pilot, lambda: view.display and len(view._shown) >= 1)
        await pilot.pause()
        view.open_message(len(view._shown) - 1)
        await wait_for(pilot, lambda: isinstance(app.screen, MessageTreeScreen))
        await pilot.press("c")
        await wait_for(pilot, lambda: bool(written.copies()))
        copied = written.last_copy()
    assert_inert(copied)
    assert "\\u009b2Jb\\u202ecba\\u001b]52" in copied  # JSON's own escapes
    assert json.loads(copied) == MESSAGE  # ... so the copy parses back to the message


async def test_the_detail_views_copy_escapes_what_the_server_wrote() -> None:
    app, _ = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        written = Written(app)
        app.push_screen(DetailScreen("demo › echo", f"result:\n{HOSTILE}\tend"))
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: bool(written.copies()))
        copied = written.last_copy()
    assert_inert(copied)
    assert copied == "result:\na\\x9b2Jb\\u202ecba\\e]52;c;eA==\\x07\\u200b\\x85\\u2028z\tend"


async def test_textuals_own_copy_of_a_value_goes_the_same_way() -> None:
    """An input's Ctrl+C (Textual's action, not ours) copies the raw value it keeps: the one
    path escapes it too (a server's default in a form is such a value)."""
    app, _ = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(pilot, app)
        written = Written(app)
        field = Input(HOSTILE)
        await session_of(app).mount(field)
        field.focus()
        field.select_all()
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: bool(written.copies()))
        copied = written.last_copy()
    assert_inert(copied)
    assert copied == clipboard_text(HOSTILE)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/path?q=1&r=%E2%80%AE#frag",
        "https://xn--bcher-kva.example/r%C3%A9sum%C3%A9",  # a Unicode host, as its A-label
        "https://example.com/café",
    ],
)
async def test_a_url_the_consent_screen_checked_is_copied_exactly_as_shown(url: str) -> None:
    app, _ = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(pilot, app)
        written = Written(app)
        assert app.handler is not None
        request = ElicitationRequest("demo", "Sign in", "url", url=url, elicitation_id="e1")
        answer = asyncio.create_task(app.handler.elicit(request))
        await wait_for(pilot, lambda: isinstance(app.screen, UrlConsentScreen))
        screen = app.screen
        assert isinstance(screen, UrlConsentScreen) and screen.verdict.allowed
        await pilot.press("c")
        await wait_for(pilot, lambda: bool(written.copies()))
        copied = written.last_copy()
        shown = "\n".join(strip.text for strip in screen._compositor.render_strips())
        await pilot.press("escape")
        await answer
    assert copied == screen.verdict.url == url
    assert url in shown.replace("\n", "") or url[:40] in shown


def test_every_unsafe_character_is_escaped_and_safe_text_is_unchanged() -> None:
    from mcp_tui.untrusted import is_unsafe_char, json_text

    for code in [*range(0x20), *range(0x7F, 0xA0), 0x202E, 0x2066, 0x200B, 0xFEFF, 0xE000]:
        ch = chr(code)
        if ch in "\n\t":
            continue
        assert is_unsafe_char(ch)
        assert ch not in clipboard_text(f"x{ch}y"), hex(code)
    assert clipboard_text("line 1\n\tline 2 — café ☃ 天気") == "line 1\n\tline 2 — café ☃ 天気"
    text = json_text(MESSAGE, indent=2)
    assert clipboard_text(text) == text  # JSON made safe is copied as it is
