"""The wire (F6) on the sampling review screen: ``sampling/createMessage`` params as received and,
live as the person edits the reply, the exact result Ctrl+S sends (or why nothing is sent).

The end-to-end tests read the answer from the server's side: the fixture's ``sample`` tool echoes
the ``CreateMessageResult`` it received, which must equal what the panel showed before Ctrl+S.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Select, TextArea

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from mcp_tui.ui.widgets.request.wire_panel import WirePanel
from tests.ui.screens.test_sampling_screen import transcript
from tests.waits import wait_until

SERVER = Path(__file__).resolve().parents[2] / "fixtures" / "elicit_server.py"
SMALL = (80, 24)
LARGE = (120, 40)
SnapCompare = Callable[..., bool]


def _app(tmp_path: Path, tools: bool) -> McpTuiApp:
    spec = ServerSpec("fx", StdioTarget(sys.executable, (str(SERVER),)), mode="legacy")
    options = AppOptions(
        call=ToolCallRequest("sample", {"tools": tools}), stderr_log=tmp_path / "stderr.log"
    )
    return McpTuiApp([spec], options)


async def _review(pilot: Pilot[Any], app: McpTuiApp) -> SamplingScreen:
    await wait_until(
        lambda: isinstance(app.screen, SamplingScreen), 60, pilot=pilot, message="the review"
    )
    screen = app.screen
    assert isinstance(screen, SamplingScreen)
    await wait_until(
        lambda: screen.query("#sampling-stop SelectCurrent #label"), pilot=pilot, message="ready"
    )
    reply = screen.query_one("#sampling-reply", TextArea)
    await wait_until(lambda: reply.has_focus, pilot=pilot, message="the reply box focused")
    return screen


async def _wire(pilot: Pilot[Any], screen: SamplingScreen) -> WirePanel:
    await pilot.press("f6")
    await wait_until(lambda: bool(screen.query("#wire")), pilot=pilot, message="the wire")
    wire = screen.query_one("#wire", WirePanel)
    await wait_until(lambda: wire.is_mounted, pilot=pilot)
    return wire


def _received(app: McpTuiApp) -> dict[str, Any]:
    text = transcript(app)
    answer, _ = json.JSONDecoder().raw_decode(text[text.index('{"role"') :])
    assert isinstance(answer, dict)
    return answer


@pytest.mark.anyio
async def test_the_wire_beside_the_reply_sends_what_the_server_receives(tmp_path: Path) -> None:
    """At 120 columns the panel is beside the reply: the params as received, nothing sent while
    the reply is blank, then each key's result; the server receives exactly that."""
    app = _app(tmp_path, tools=False)
    async with app.run_test(size=LARGE) as pilot:
        screen = await _review(pilot, app)
        wire = await _wire(pilot, screen)
        assert screen.has_class("-wire-wide") and not screen.has_class("-wire-over")
        text = wire.plain()
        assert '"maxTokens": 64' in text and '"systemPrompt": "You are terse."' in text
        assert '"stopSequences": [' in text and '"name": "sonnet"' in text
        await wait_until(lambda: "reply" in wire.blocked, pilot=pilot, message="blank: blocked")
        assert wire.sends is None and "nothing is sent" in wire.plain()
        await pilot.press("space", "space")  # only blanks: still nothing
        await pilot.pause()
        assert wire.sends is None and "reply" in wire.blocked
        await pilot.press(*"A cat.")
        await wait_until(
            lambda: wire.sends is not None and wire.sends["content"]["text"] == "  A cat.",
            pilot=pilot,
            message="the reply on the wire",
        )
        shown = wire.sends
        await pilot.press("ctrl+s")
        await wait_until(lambda: '{"role"' in transcript(app), 60, pilot=pilot, message="result")
        got = _received(app)
        await pilot.press("ctrl+q")
        await wait_until(lambda: not app.is_running, 30, pilot=pilot, message="the app quit")
    assert shown == {
        "role": "assistant",
        "content": {"type": "text", "text": "  A cat."},
        "model": "human",
        "stopReason": "endTurn",
    }
    assert got == shown


@pytest.mark.anyio
async def test_the_wire_over_the_reply_at_80x24_shows_the_tool_use_sent(tmp_path: Path) -> None:
    """At 80 columns the same key covers the reply and goes back; a tool-use reply shows the very
    block id that is sent, and a bad tool input shows why nothing would be."""
    app = _app(tmp_path, tools=True)
    async with app.run_test(size=SMALL) as pilot:
        screen = await _review(pilot, app)
        screen.query_one("#sampling-stop", Select).value = "toolUse"
        screen.query_one("#sampling-tool-input", TextArea).text = "[1]"
        wire = await _wire(pilot, screen)
        assert screen.has_class("-wire-over") and not screen.has_class("-wire-wide")
        assert not screen.query_one("#sampling-reply").region.height  # covered
        await wait_until(lambda: "tool input" in wire.blocked, pilot=pilot, message="blocked")
        await pilot.press("ctrl+s")  # refused: nothing sent
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("f6")
        reply = screen.query_one("#sampling-reply", TextArea)
        await wait_until(lambda: reply.has_focus, pilot=pilot, message="the reply focused back")
        assert not screen.has_class("-wire-over")
        screen.query_one("#sampling-tool-input", TextArea).text = '{"city": "Oslo"}'
        await pilot.press(*"Checking.", "f6")
        await wait_until(
            lambda: wire.sends is not None and len(wire.sends["content"]) == 2,
            pilot=pilot,
            message="the tool use on the wire",
        )
        shown = wire.sends
        await pilot.press("ctrl+s")
        await wait_until(lambda: '{"role"' in transcript(app), 60, pilot=pilot, message="result")
        got = _received(app)
        await pilot.press("ctrl+q")
        await wait_until(lambda: not app.is_running, 30, pilot=pilot, message="the app quit")
    assert shown is not None and shown["stopReason"] == "toolUse"
    text, use = shown["content"]
    assert text == {"type": "text", "text": "Checking."}
    assert (use["name"], use["input"]) == ("get_weather", {"city": "Oslo"})
    assert use["id"].startswith("toolu_")
    assert got == shown


HOSTILE = "Say [b]hi[/b]\x1b[31m"


class Host(App[None]):
    def on_mount(self) -> None:
        params = {
            "messages": [{"role": "user", "content": {"type": "text", "text": HOSTILE}}],
            "maxTokens": 120,
            "systemPrompt": "You summarise issues in one sentence.",
        }
        request = SamplingRequest(
            server="demo",
            messages=(SamplingMessage("user", (SamplingPart("text", HOSTILE),)),),
            max_tokens=120,
            system_prompt="You summarise issues in one sentence.",
            tool="summarize_issue",
            params=params,
        )
        self.push_screen(SamplingScreen(request))


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_snapshot_sampling_wire(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        screen = pilot.app.screen
        await wait_until(
            lambda: bool(screen.query("#sampling-reply")) and screen.focused is not None,
            pilot=pilot,
        )
        await pilot.press(*"Fixed [b]now", "f6")
        await wait_until(lambda: bool(screen.query("#wire-answer")), pilot=pilot)
        wire = screen.query_one("#wire", WirePanel)
        await wait_until(lambda: wire.sends is not None, pilot=pilot)
        await pilot.pause()

    assert snap_compare(Host(), terminal_size=size, run_before=run_before)


class EraHost(App[None]):
    """A sampling review as a connection of ``protocol_version`` hands it over, keyed ``key``."""

    def __init__(self, protocol_version: str, key: str | int) -> None:
        super().__init__()
        self.protocol_version = protocol_version
        self.key = key

    def on_mount(self) -> None:
        request = SamplingRequest(
            server="demo",
            messages=(SamplingMessage("user", (SamplingPart("text", "Summarise."),)),),
            max_tokens=64,
            request_key=self.key,
            protocol_version=self.protocol_version,
            params={"messages": [], "maxTokens": 64},
        )
        self.push_screen(SamplingScreen(request))


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("era", "key", "received"),
    [
        ("2025-11-25", 7, "sampling/createMessage"),
        ("2026-07-28", "summary", 'input_required, inputRequests["summary"]'),
        ("2026-07-28", 'x[b]"\x1b', 'input_required, inputRequests["x[b]\\"\\u001b"]'),
    ],
    ids=["request", "input-required", "hostile-key"],
)
async def test_the_wire_names_where_the_sampling_params_came_from(
    era: str, key: str | int, received: str
) -> None:
    """On 2026-07-28 a server sends no ``sampling/createMessage``: the params are an entry of the
    ``input_required`` result's ``inputRequests``, and the wire's title says so (as on a form)."""
    app = EraHost(era, key)
    async with app.run_test(size=LARGE) as pilot:
        await wait_until(lambda: isinstance(app.screen, SamplingScreen), pilot=pilot)
        screen = app.screen
        assert isinstance(screen, SamplingScreen)
        await wait_until(lambda: screen.focused is not None, pilot=pilot, message="shown")
        wire = await _wire(pilot, screen)
        title = str(wire.query(".wire-title").last().render())
    assert title == f"← {received} params, as received"
