"""The help screen, the palette's verbs and the footer's way to both (issue: 80x24 without README).

The help is generated from the bindings: every described key of the app, the session screen and
the catalog appears, ``?`` typed in a text field is still a question mark, and the palette lists
every verb once, grouped, before any typing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from textual.binding import Binding
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input

from mcp_tui.session.events import ConnectionState, ServerInfo, ToolInfo
from mcp_tui.ui.app import McpTuiApp, commands
from mcp_tui.ui.app.commands import verbs
from mcp_tui.ui.app.help import HelpScreen, help_rows, key_contexts, key_name
from mcp_tui.ui.app.palette import GROUPS, Verb
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree
from tests.ui.app_testkit import (
    Script,
    cursor_on,
    make_app,
    mounted_screen,
    open_node,
    run_from_palette,
    session_of,
    tree_node,
    wait_for,
)

pytestmark = pytest.mark.anyio
SnapCompare = Callable[..., bool]

TEXT_SCHEMA = {"type": "object", "properties": {"q": {"type": "string", "title": "Query"}}}


def many_tools() -> Script:
    tools = tuple(
        ToolInfo(f"tool_{n}", "Does a thing", title=f"Tool number {n}", input_schema=TEXT_SCHEMA)
        for n in range(11)
    )
    info = ServerInfo(name="demo", version="1", capabilities={"tools": {}})
    return Script(info=info, tools=tools)


async def ready(pilot: Pilot[None]) -> McpTuiApp:
    app = pilot.app
    assert isinstance(app, McpTuiApp)
    await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
    await wait_for(pilot, lambda: session_of(app).areas.panels_ready)
    return app


def footer_line(app: McpTuiApp) -> str:
    return app.screen.query_one(KeyFooter).render().plain


# --- the help screen --------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["question_mark", "f1"])
async def test_question_mark_and_f1_open_the_help_and_escape_closes_it(key: str) -> None:
    app, _ = make_app({"demo": many_tools()})
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen))


def described(bindings: list[Binding]) -> Iterator[str]:
    for binding in Binding.make_bindings(bindings):
        if binding.description:
            yield binding.tooltip or binding.description


def test_the_help_lists_every_described_key_of_the_app_session_and_catalog() -> None:
    """Generated from the bindings: a key added to any of these classes shows up by itself."""
    contexts = dict(key_contexts(McpTuiApp))
    for cls, title in (
        (McpTuiApp, "Everywhere"),
        (SessionScreen, "Session screen"),
        (CatalogTree, "Catalog (servers and what they offer)"),
    ):
        shown = {description for _, description in contexts[title]}
        missing = set(described(cls.BINDINGS)) - shown
        assert not missing, f"{title}: {missing}"
    everywhere = dict((d, k) for k, d in contexts["Everywhere"])
    assert everywhere["Help"] == "? / F1"
    assert everywhere["Command palette: every verb"] == "Ctrl+P"
    # Forms and the tool arguments dialog are there too, by their own bindings.
    titles = [title for title, _ in key_contexts(McpTuiApp)]
    assert titles[:3] == ["Everywhere", "Session screen", "Catalog (servers and what they offer)"]
    assert "Elicitation form (a server asks)" in titles
    assert "Tool, prompt and template arguments" in titles


def test_key_names_read_as_a_person_writes_them() -> None:
    assert key_name("ctrl+s") == "Ctrl+S"
    assert key_name("question_mark") == "?"
    assert key_name("R") == "R"
    assert key_name("shift+tab") == "Shift+Tab"
    assert key_name("f2") == "F2"
    assert key_name("escape") == "Esc"


async def test_the_palette_finds_the_help_and_the_help_lists_the_verbs() -> None:
    app, _ = make_app({"demo": many_tools()})
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await run_from_palette(pilot, app, "help", "Help")  # waits for the hit, not 0.5 s
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = list(help_rows(app))
        verb_rows = dict((k, d) for kind, k, d in rows if kind == "row")
        assert "Call tool" in verb_rows["Call"]
        assert "Reconnect" in verb_rows["Server"]


async def test_a_question_mark_typed_in_a_text_field_is_a_question_mark() -> None:
    app, _ = make_app({"demo": many_tools()})
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await open_node(pilot, app, "demo", "tool_0")
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        field = app.focused
        assert isinstance(field, Input)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: field.value == "?")  # the key was handled: typed
        assert not isinstance(app.screen, HelpScreen)
        assert app.focused is field
        await pilot.press("f1")  # F1 still opens the help from a form
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))


# --- the palette ------------------------------------------------------------------------------


async def test_every_verb_is_listed_once_grouped_before_any_typing() -> None:
    app, _ = make_app({"demo": many_tools()})
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        found = verbs(app, session_of(app))
        # One "Quit" (Textual's own is left out), one "Help", every tool by its name.
        assert [v.verb for v in found].count("Quit") == 1
        assert [v.verb for v in found].count("Help") == 1
        calls = [v for v in found if v.verb == "Call tool"]
        assert len(calls) == 11
        # Unique entries: what each line shows differs.
        shown = [v.display().plain for v in found]
        assert len(shown) == len(set(shown))
        assert "Tool number 3" in calls[3].display().plain
        # Grouped: the groups come in GROUPS order.
        ranks = [GROUPS.index(v.group) for v in found]
        assert ranks == sorted(ranks)
        # The palette shows them all before typing, in that order.
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: mounted_screen(app, CommandPalette) is not None)
        palette = app.screen
        listed = palette.query_one("CommandList")
        await wait_for(pilot, lambda: listed.option_count >= len(found))  # type: ignore[attr-defined]
        assert listed.option_count == len(found)  # type: ignore[attr-defined]
        first = listed.get_option_at_index(0)  # type: ignore[attr-defined]
        assert "Help" in first.prompt.plain


async def test_a_registered_verb_source_appears_in_the_palette_and_the_help() -> None:
    """How another part adds a verb: one decorated function, nothing else to edit."""

    def ping(app: McpTuiApp, session: SessionScreen, entry: object) -> Iterator[Verb]:
        yield Verb("Server", "Ping", "demo", "Check the server answers", lambda: None)

    commands.server_verbs(ping)
    try:
        app, _ = make_app({"demo": many_tools()})
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(pilot)
            found = verbs(app, session_of(app))
            assert any(v.verb == "Ping" for v in found)
            verb_rows = {k: d for kind, k, d in help_rows(app) if kind == "row"}
            assert "Ping" in verb_rows["Server"]
    finally:
        commands._SERVER_SOURCES.remove(ping)


# --- the footer -------------------------------------------------------------------------------


async def test_the_footer_shows_enter_help_and_palette_at_80_columns() -> None:
    app, _ = make_app({"demo": many_tools()})
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        line = footer_line(app)
        assert "⏎ Open/close" in line  # the cursor starts on the server
        catalog = session_of(app).areas.catalog
        await cursor_on(pilot, catalog, lambda: tree_node(app, "demo", "tool_0"), "tool_0")
        await wait_for(pilot, lambda: "⏎ Call" in footer_line(app))
        line = footer_line(app)
        assert line.startswith("⏎ Call ")
        assert line.rstrip().endswith("? Help ▏^p palette")
        assert len(line) == 80


async def test_keys_that_do_not_fit_are_left_out_whole_and_help_stays() -> None:
    app, _ = make_app({"demo": many_tools()})
    async with app.run_test(size=(50, 24)) as pilot:
        await ready(pilot)
        line = footer_line(app)
        assert line.rstrip().endswith("? Help ▏^p palette")
        assert "…" in line
        left = line.split("…")[0]
        # Whole keys only: each word on the left is a key or a full description.
        assert left.split()[-1] in {"Details", "Traffic", "Log", "asking", "Open/close", "Quit"}
        assert len(line) == 50


# --- snapshots --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_help_screen_snapshot(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def open_help(pilot: Pilot[None]) -> None:
        await ready(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.pause()

    app, _ = make_app({"demo": many_tools()})
    assert snap_compare(app, terminal_size=size, run_before=open_help)
