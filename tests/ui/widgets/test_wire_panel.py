"""The wire beside the form (F6): the request as received and the exact answer Ctrl+S sends.

The end-to-end tests read the answer from the server's side: the fixture server echoes the
``ElicitResult`` it received, which must equal what the panel showed a moment before Ctrl+S, and
nothing reaches it while the panel shows a validation error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from mcp_tui.schema.parse import parse_requested_schema
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.widgets.request.wire_panel import WirePanel, schema_lines, toggle_wire, wire_shown
from tests.fixtures.elicit_server import ALL_FIELDS_SCHEMA
from tests.ui.app.test_elicitation_e2e import Host, echoed, open_form, session
from tests.ui.screens.test_form_snapshots import Host as FormHost
from tests.waits import wait_until

SMALL = (80, 24)
LARGE = (120, 40)
SnapCompare = Callable[..., bool]


def panel(screen: ElicitationScreen) -> WirePanel:
    return screen.query_one("#wire", WirePanel)


def test_each_schema_line_knows_its_property() -> None:
    hostile = "x\x1b[31m"
    lines = schema_lines(
        {
            "message": "m",
            "requestedSchema": {
                "type": "object",
                "properties": {"a": {"type": "string"}, hostile: {"type": "integer"}},
                "required": ["a"],
            },
        }
    )
    owned = {owner for _, owner in lines}
    assert owned == {None, "a", hostile}
    assert [line.strip() for line, owner in lines if owner == "a"] == [
        '"a": {',
        '"type": "string"',
        "},",
    ]
    assert all("\x1b" not in line for line, _ in lines)  # escaped: \u001b, inert


@pytest.mark.anyio
async def test_the_panel_sends_what_the_server_receives_wide() -> None:
    """At 120 columns the panel is beside the form and follows each key."""
    app = Host()
    async with app.run_test(size=LARGE) as pilot, session(app, "legacy") as conn:
        call = asyncio.create_task(conn.call_tool("all_fields", {}))
        screen = await open_form(pilot, app)
        await pilot.press("f6", "tab")  # the wire; then to "age"
        wire = await _panel(pilot, screen)
        assert screen.has_class("-wire-wide")
        await _until(pilot, lambda: wire._focused == "age")
        # A value that fails validation: the panel names it and Ctrl+S sends nothing.
        await pilot.press(*"200")
        await _until(pilot, lambda: "age" in wire.blocked and wire.sends is None)
        assert "0 to 150" in wire.blocked["age"]
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not call.done() and isinstance(app.screen, ElicitationScreen)
        assert "nothing is sent" in wire.plain()
        await pilot.press("backspace", "backspace", "backspace", *"36", "tab")
        await pilot.press("tab", "space")  # subscribe: true -> false
        await pilot.press("tab", "enter", "down", "down", "down", "enter")  # color: blue
        await pilot.pause()
        await pilot.press("tab", "space", "down", "down", "space")  # tags: a, c
        await _until(pilot, lambda: wire.sends is not None and "tags" in wire.sends["content"])
        shown = wire.sends
        await pilot.press("ctrl+s")
        got = echoed(await asyncio.wait_for(call, 15))
    assert shown == {
        "action": "accept",
        "content": {
            "name": "Ada",
            "age": 36,
            "ratio": 0.5,
            "subscribe": False,
            "color": "blue",
            "tags": ["a", "c"],
        },
    }
    assert got == shown


@pytest.mark.anyio
async def test_the_panel_goes_over_the_form_at_80x24_and_back() -> None:
    """At 80 columns the same key shows the panel over the form; the field keeps its text and
    gets the focus back; what the server receives is what the panel showed."""
    app = Host()
    async with app.run_test(size=SMALL) as pilot, session(app, "2026-07-28") as conn:
        call = asyncio.create_task(conn.call_tool("all_fields", {}))
        screen = await open_form(pilot, app)
        await pilot.press("tab", *"999")
        await pilot.press("f6")
        wire = await _panel(pilot, screen)
        assert screen.has_class("-wire-over") and not screen.has_class("-wire-wide")
        await _until(pilot, lambda: "age" in wire.blocked)
        await pilot.press("ctrl+s")  # refused: nothing sent
        await pilot.pause()
        assert not call.done()
        await pilot.press("f6")
        await _until(pilot, lambda: app.focused is not None and app.focused.id == "field-1-control")
        assert not screen.has_class("-wire-over")
        await pilot.press("backspace", "backspace", "backspace", "7")
        await pilot.press("tab", "tab", "tab", "enter", "down", "enter")  # color: red
        await pilot.pause()
        await pilot.press("tab", "space")  # tags: a
        await pilot.press("f6")
        await _until(pilot, lambda: wire.sends is not None and "tags" in wire.sends["content"])
        shown = wire.sends
        await pilot.press("ctrl+s")
        got = echoed(await asyncio.wait_for(call, 15))
    assert shown is not None and shown["content"]["age"] == 7
    assert {k: got[k] for k in ("action", "content")} == shown  # (+ the round's "state")


@pytest.mark.anyio
async def test_shown_or_hidden_is_remembered_for_the_next_form() -> None:
    app = FormHost(_request())
    async with app.run_test(size=LARGE) as pilot:
        await wait_until(lambda: isinstance(app.screen, ElicitationScreen), pilot=pilot)
        toggle_wire(app)  # the palette verb
        first = app.screen
        assert isinstance(first, ElicitationScreen)
        await _panel(pilot, first)
        first.cancel_without_asking()
        await wait_until(lambda: not isinstance(app.screen, ElicitationScreen), pilot=pilot)
        app.push_screen(ElicitationScreen(_request()))
        await wait_until(
            lambda: isinstance(app.screen, ElicitationScreen) and app.screen is not first,
            pilot=pilot,
        )
        second = app.screen
        assert isinstance(second, ElicitationScreen)
        wire = await _panel(pilot, second)
        assert wire.display
        await pilot.press("f6")
        await _until(pilot, lambda: not wire.display)
        assert wire_shown(app) is False


def _request(message: str = "Please fill in every field") -> ElicitationRequest:
    return ElicitationRequest(
        "fixture",
        message,
        "form",
        form=parse_requested_schema(ALL_FIELDS_SCHEMA),
        tool="all_fields",
    )


async def _panel(pilot: Pilot[Any], screen: ElicitationScreen) -> WirePanel:
    await _until(pilot, lambda: bool(screen.query("#wire")) and panel(screen).is_mounted)
    return panel(screen)


async def _until(pilot: Pilot[Any], condition: Callable[[], bool]) -> None:
    await wait_until(condition, 15, pilot=pilot)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_snapshot_wire_panel(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    hostile = "Pick a [b]colour[/b]\x1b[31m"
    schema = {**ALL_FIELDS_SCHEMA, "description": hostile}

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press("tab", *"200", "f6")
        await wait_until(lambda: bool(pilot.app.screen.query("#wire-answer")), pilot=pilot)
        await pilot.pause()

    request = ElicitationRequest(
        "fixture", hostile, "form", form=parse_requested_schema(schema), tool="all_fields"
    )
    assert snap_compare(FormHost(request), terminal_size=size, run_before=run_before)


class UrlHost(App[None]):
    def __init__(self, request: ElicitationRequest) -> None:
        super().__init__()
        self.request = request

    def on_mount(self) -> None:
        from mcp_tui.ui.screens.url_consent import UrlConsentScreen

        self.push_screen(UrlConsentScreen(self.request))


@pytest.mark.anyio
@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_url_consent_shows_the_wire_too(size: tuple[int, int]) -> None:
    from mcp_tui.ui.screens.url_consent import UrlConsentScreen

    request = ElicitationRequest(
        "fixture",
        "Sign in [b]now[/b]",
        "url",
        url="https://example.com/login?state=1",
        elicitation_id="el-1",
        tool="connect",
    )
    app = UrlHost(request)
    async with app.run_test(size=size) as pilot:
        await wait_until(lambda: isinstance(app.screen, UrlConsentScreen), pilot=pilot)
        await pilot.press("f6")
        screen = app.screen
        await _until(pilot, lambda: bool(screen.query("#wire")))
        wire = screen.query_one("#wire", WirePanel)
        await _until(pilot, lambda: wire.is_mounted and wire.sends == {"action": "accept"})
        text = wire.plain()
        assert '"url": "https://example.com/login?state=1"' in text
        assert '"elicitationId": "el-1"' in text
        assert screen.has_class("-wire-wide" if size == LARGE else "-wire-over")


class PanelHost(App[None]):
    """A wire panel asked to focus its JSON in the same turn it is mounted, as ``WireSide.fit``
    does when F6 lays the panel over a narrow form: its children are not composed yet then."""

    def on_mount(self) -> None:
        panel = WirePanel({"message": "hi", "requestedSchema": {}}, id="wire")
        self.mount(panel)
        panel.focus_json()


@pytest.mark.anyio
async def test_the_json_is_focused_even_when_asked_before_the_panel_is_composed() -> None:
    """Once raised NoMatches ('#wire-received-scroll') and took the app down: a CI run of
    test_sampling_wire's 80x24 case met it when the refresh came before the panel's compose."""
    app = PanelHost()
    async with app.run_test() as pilot:
        await wait_until(
            lambda: app.focused is not None and app.focused.id == "wire-received-scroll",
            pilot=pilot,
            message="the received JSON focused",
        )
