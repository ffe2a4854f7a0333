"""Keys that matter now at 80 columns: Enter calls a tool that takes no arguments (``e`` still
opens its dialog), Escape out of the full-screen log gives the focus back to where it was, and
the footer shows the keys of the current state before the general ones.
"""

from __future__ import annotations

import pytest

from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree
from tests.ui.app_testkit import make_app, mounted_screen, open_node, session_of, wait_until
from tests.ui.fixtures.fake_connection import Script


@pytest.mark.anyio
async def test_enter_calls_a_tool_without_arguments_and_e_opens_its_dialog() -> None:
    app, factory = make_app({"demo": Script()})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        await wait_until(lambda: session.areas.panels_ready, pilot=pilot)
        await open_node(pilot, app, "demo", "ping")
        connection = factory.latest("demo")
        await wait_until(lambda: len(connection.calls) == 1, pilot=pilot)
        assert connection.calls[0][:2] == ("ping", {})
        assert not mounted_screen(app, ArgumentsScreen), "no dialog for a tool without arguments"

        tree = session.query_one(CatalogTree)
        assert tree.check_action("tool_dialog", ()), "e is offered on ping"
        await pilot.press("e")
        await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        await pilot.press("escape")
        await wait_until(lambda: not mounted_screen(app, ArgumentsScreen), pilot=pilot)
        assert len(connection.calls) == 1

        # A tool with arguments: Enter opens the form as before, and `e` is not offered.
        await open_node(pilot, app, "demo", "echo")
        await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        await pilot.press("escape")
        await wait_until(lambda: not mounted_screen(app, ArgumentsScreen), pilot=pilot)
        assert not tree.check_action("tool_dialog", ())
        assert len(connection.calls) == 1


@pytest.mark.parametrize(
    ("schema", "none"),
    [
        (None, True),
        ({"type": "object"}, True),
        ({"type": "object", "properties": {}, "additionalProperties": False}, True),
        ({"type": "object", "properties": {"a": {"type": "string"}}}, False),
        ({"type": "object", "required": ["a"]}, False),
        ({"type": "object", "additionalProperties": {"type": "string"}}, False),
        ({"type": "object", "patternProperties": {"^x": {}}}, False),
        ({"anyOf": [{"type": "object"}]}, False),
        ({"type": "array"}, False),
    ],
)
def test_only_a_schema_that_asks_for_nothing_takes_no_arguments(
    schema: dict[str, object] | None, none: bool
) -> None:
    from mcp_tui.schema.no_arguments import takes_no_arguments

    assert takes_no_arguments(schema) is none


@pytest.mark.anyio
@pytest.mark.parametrize("back", ["escape", "L"])
async def test_the_full_screen_log_gives_the_focus_back_to_the_catalog(back: str) -> None:
    app, _ = make_app({"demo": Script()})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        await wait_until(lambda: session.areas.panels_ready, pilot=pilot)
        tree = session.query_one(CatalogTree)
        tree.focus()
        await pilot.pause()
        line = tree.cursor_line
        await pilot.press("L")
        await wait_until(lambda: session.maximized is not None, pilot=pilot)
        await pilot.press(back)
        await wait_until(lambda: session.maximized is None, pilot=pilot)
        await wait_until(lambda: app.focused is tree, pilot=pilot, message=f"{app.focused!r}")
        await pilot.press("down")
        await wait_until(lambda: tree.cursor_line == line + 1, pilot=pilot)


def _footer_left(app: object) -> str:
    """The footer's left part at its width: the keys that fit, up to the "…" if any."""
    from mcp_tui.ui.widgets.key_footer import KeyFooter

    line = session_of(app).query_one(KeyFooter).render().plain  # type: ignore[arg-type]
    return line.split("…")[0] if "…" in line else line


@pytest.mark.anyio
async def test_at_80_columns_the_key_of_the_running_call_shows_first() -> None:
    import asyncio

    from mcp_tui.session.events import CallOutcome, ContentItem

    release = asyncio.Event()

    async def slow(_conn: object, _args: object, _call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text="done"),))

    app, factory = make_app({"demo": Script(results={"echo": slow})})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        await wait_until(lambda: session.areas.panels_ready, pilot=pilot)
        call_id = session.calls.call_tool("demo", "echo", {"text": "a"})
        await wait_until(lambda: factory.latest("demo").in_flight == {call_id}, pilot=pilot)
        await wait_until(lambda: "Cancel call" in _footer_left(app), pilot=pilot)
        first = _footer_left(app).split("Cancel call")[0].split()
        assert len(first) == 1, f"the call's key comes first: {_footer_left(app)!r}"
        release.set()
        await wait_until(lambda: not session.calls.cancellable, pilot=pilot)
        await wait_until(lambda: "Cancel call" not in _footer_left(app), pilot=pilot)


@pytest.mark.anyio
async def test_at_80_columns_a_url_wait_shows_done_and_give_up() -> None:
    from tests.ui.app.test_app_url import needs_url, ready, url_request

    app, _ = make_app({"demo": Script(results={"ping": lambda _a: needs_url(url_request())})})
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_until(lambda: bool(app.url_waits.waiting), pilot=pilot)
        await wait_until(lambda: "Give up" in _footer_left(app), pilot=pilot)
        assert "Done" in _footer_left(app)


CHOICES = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "colour": {"type": "string", "enum": [f"colour {n}" for n in range(1, 15)]},
    },
}


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_drop_down_stays_inside_the_arguments_dialog(size: tuple[int, int]) -> None:
    from textual.widgets import Select
    from textual.widgets._select import SelectOverlay

    from mcp_tui.session.events import ToolInfo

    tool = ToolInfo("paint", "Pick a colour", input_schema=CHOICES)
    app, _ = make_app({"demo": Script(tools=(tool,))})
    async with app.run_test(size=size) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        await wait_until(lambda: session_of(app).areas.panels_ready, pilot=pilot)
        await open_node(pilot, app, "demo", "paint")
        screen = await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        select = screen.query_one(Select)
        select.focus()
        await pilot.press("enter")
        await wait_until(lambda: select.expanded, pilot=pilot)
        overlay = select.query_one(SelectOverlay)
        dialog = screen.query_one(".arguments-dialog")
        await wait_until(lambda: overlay.region.height > 2, pilot=pilot)
        await pilot.pause()
        inside = dialog.region.shrink(dialog.styles.border.spacing)
        assert inside.contains_region(overlay.region), (overlay.region, dialog.region)
