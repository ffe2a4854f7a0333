"""Hostile server text on the session screen: literal, controls made visible, never markup.

Every string the fake server controls carries a sentinel. Textual's and Rich's markup parsers are
wrapped so that any attempt to parse a string containing the sentinel is recorded: the test fails
if server text reaches a markup-parsing path anywhere (tree labels, notifications, the palette,
dialogs, logs, traffic, transcript). The exported screen must hold no raw control characters.
"""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from mcp_tui.session.events import (
    CallOutcome,
    ConnectionState,
    ContentItem,
    ElicitationRefused,
    LogReceived,
    Notice,
    PromptArgumentInfo,
    PromptInfo,
    ResourceInfo,
    ServerInfo,
    StderrReceived,
    ToolInfo,
    TrafficRecorded,
)
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.detail import DetailScreen
from tests.ui.app_testkit import (
    RAW_CONTROLS,
    SENTINEL,
    Script,
    guard_markup,
    make_app,
    open_node,
    palette_options,
    session_of,
    wait_for,
    wait_until,
)

pytestmark = pytest.mark.anyio

HOSTILE = (
    f"{SENTINEL}[bold]b[/] [@click=app.quit]q[/] [/] [link='https://evil.example']l[/link] "
    "\x1b]0;pwned\x07 \x1b]52;c;aGk=\x07 \x1b[31mred \u202eevil\u202c \u200b \x9b2J end"
)


@pytest.fixture
def markup_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return guard_markup(monkeypatch)


def hostile_script() -> Script:
    schema = {
        "type": "object",
        "title": HOSTILE,
        "description": HOSTILE,
        "properties": {"q": {"type": "string", "title": HOSTILE, "description": HOSTILE}},
    }
    return Script(
        info=ServerInfo(
            name=HOSTILE,
            version=HOSTILE,
            title=HOSTILE,
            instructions=HOSTILE,
            capabilities={"tools": {}, HOSTILE: {}},
            protocol_version=HOSTILE,
        ),
        tools=(ToolInfo(HOSTILE, HOSTILE, title=HOSTILE, input_schema=schema),),
        prompts=(PromptInfo(HOSTILE, HOSTILE, arguments=(PromptArgumentInfo(HOSTILE, HOSTILE),)),),
        resources=(ResourceInfo(HOSTILE, HOSTILE, HOSTILE, HOSTILE),),
        results={
            HOSTILE: CallOutcome(
                items=(
                    ContentItem("text", text=HOSTILE),
                    ContentItem("resource_link", uri=HOSTILE, name=HOSTILE, mime_type=HOSTILE),
                    ContentItem("image", mime_type=HOSTILE, size=3),
                ),
                structured={HOSTILE: HOSTILE},
            )
        },
        after_ready=(
            LogReceived("demo", HOSTILE, HOSTILE, {"msg": HOSTILE}),
            LogReceived("demo", "error", None, HOSTILE),
            StderrReceived("demo", HOSTILE),
            Notice("demo", HOSTILE, "warning"),
            ElicitationRefused("demo", HOSTILE, (HOSTILE,)),
            TrafficRecorded("demo", "in", {"jsonrpc": "2.0", "id": HOSTILE, "method": HOSTILE}),
        ),
    )


def assert_no_raw_controls(svg: str) -> None:
    for control in RAW_CONTROLS:
        assert control not in svg, f"raw {control!r} reached the screen"


async def test_hostile_text_everywhere_is_literal(markup_calls: list[str]) -> None:
    app, factory = make_app({"demo": hostile_script()})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        await wait_for(pilot, lambda: session.areas.logs.lines_written >= 3)
        session.calls.call_tool("demo", HOSTILE, {})
        await wait_for(pilot, lambda: len(session.areas.transcript.entries) >= 5)
        plain = "\n".join(e.summary.plain for e in session.areas.transcript.entries)
        assert "[@click=app.quit]q[/]" in plain and "\\e]52;c;aGk=" in plain
        assert_no_raw_controls(app.export_screenshot())

        # The info panel, details, the tool's arguments dialog and the traffic view.
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        assert "\\u202e" in app.screen.text
        assert_no_raw_controls(app.export_screenshot())
        await pilot.press("escape")
        await open_node(pilot, app, "demo", HOSTILE)
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        await pilot.pause()
        assert_no_raw_controls(app.export_screenshot())
        await pilot.press("escape")
        await wait_until(lambda: app.screen is session, pilot=pilot)
        await pilot.press("t")
        await wait_until(lambda: session.areas.traffic.display, pilot=pilot)
        await pilot.pause()
        assert_no_raw_controls(app.export_screenshot())
        traffic = session.areas.traffic.text()
        assert "[@click=app.quit]" in traffic

        # The command palette lists the tool by its (hostile) name.
        await pilot.press("t", "ctrl+p")
        await wait_until(lambda: isinstance(app.screen, CommandPalette), pilot=pilot)
        await pilot.press(*"call tool")
        await wait_until(
            lambda: any(SENTINEL in str(o.prompt) for o in palette_options(app)),
            pilot=pilot,
            message="the palette never listed the hostile tool",
        )
        await pilot.pause()
        assert_no_raw_controls(app.export_screenshot())
        await pilot.press("escape")
        await wait_until(lambda: app.screen is session, pilot=pilot)

        # Still answering keys, and nothing clicked its way to app.quit.
        await pilot.press("l")
        await wait_until(lambda: not session.areas.logs.display, pilot=pilot)
        assert app.is_running
    assert markup_calls == []
    assert factory.latest("demo").calls[0][0] == HOSTILE
