"""Helpers shared by the app's Pilot tests (not a test module: no ``test_`` prefix).

Imported as ``tests.ui.app_testkit`` by the UI's tests on every floor (``tests/ui/app``,
``screens``, ``widgets``, ``tour``) and by the hostile, chat and interop tests.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import textual.markup
from rich.text import Text
from textual.app import App
from textual.css.query import NoMatches
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets.tree import TreeNode

from mcp_tui.config.options import AppOptions
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree, NodeRef
from tests.ui.fixtures.fake_connection import FakeFactory, Script, spec
from tests.waits import DEFAULT_TIMEOUT, mounted_screen, wait_until

__all__ = [
    "RAW_CONTROLS",
    "SENTINEL",
    "FakeFactory",
    "Script",
    "after_refresh",
    "catalog_has",
    "cursor_on",
    "events_shown",
    "guard_markup",
    "make_app",
    "mounted_screen",
    "open_node",
    "palette_options",
    "run_from_palette",
    "session_of",
    "spec",
    "transcript_text",
    "tree_node",
    "wait_for",
    "wait_until",
]


#: Every string a hostile test server controls carries this, so markup parses of it can be caught.
SENTINEL = "⟦srv⟧"
#: Characters that must never reach the terminal from server text.
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\u202e", "\u200b")


def guard_markup(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every markup parse (Textual or Rich) of a string carrying :data:`SENTINEL`."""
    seen: list[str] = []
    to_content = textual.markup.to_content
    from_markup = Text.from_markup.__func__  # type: ignore[attr-defined]

    def guarded_to_content(markup: str, *args: Any, **kwargs: Any) -> Any:
        if SENTINEL in markup:
            seen.append(markup)
        return to_content(markup, *args, **kwargs)

    def guarded_from_markup(cls: type[Text], text: str, *args: Any, **kwargs: Any) -> Text:
        if SENTINEL in text:
            seen.append(text)
        return from_markup(cls, text, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(textual.markup, "to_content", guarded_to_content)
    monkeypatch.setattr(Text, "from_markup", classmethod(guarded_from_markup))
    return seen


def make_app(
    scripts: Mapping[str, Script] | None = None,
    servers: tuple[str, ...] = ("demo",),
    options: AppOptions | None = None,
) -> tuple[McpTuiApp, FakeFactory]:
    factory = FakeFactory(scripts)
    # A fixed stderr file name: the log panel shows it, and snapshots must not show this
    # machine's log directory (fake connections write nothing there).
    options = options or AppOptions(stderr_log=Path("/var/log/mcp-tui-tests/stderr.log"))
    app = McpTuiApp([spec(name) for name in servers], options, connection_factory=factory)
    return app, factory


def session_of(app: McpTuiApp) -> SessionScreen:
    session = app.session
    assert session is not None
    return session


def transcript_text(app: McpTuiApp, *, full: bool = False) -> str:
    """The transcript as the user reads it (summaries) or as the detail view shows it (full);
    empty until the session screen's panels are mounted (after the first frame)."""
    session = session_of(app)
    if not session.areas.panels_ready:
        return ""
    entries = session.areas.transcript.entries
    return "\n".join(e.full if full else e.summary.plain for e in entries)


#: How long :func:`wait_for` waits by default, in seconds.
WAIT_FOR_TIMEOUT = 15.0


def condition_text(condition: Callable[[], object]) -> str:
    """The source of ``condition`` (a lambda, up to the end of its body), to say what a wait
    waited for."""
    try:
        source = " ".join(inspect.getsource(condition).split())
    except (OSError, TypeError):
        return getattr(condition, "__qualname__", repr(condition))
    start = source.find("lambda")
    if start < 0:
        return getattr(condition, "__qualname__", source[:200])
    depth = 0
    for end, char in enumerate(source[start:], start):
        if char in "([{":
            depth += 1
        elif char in ")]}" or (char == "," and depth == 0):
            if depth == 0:
                return source[start:end].strip()[:200]
            depth -= 1
    return source[start:].strip()[:200]


async def wait_for(
    pilot: Pilot[None],
    condition: Callable[[], object],
    timeout: float = WAIT_FOR_TIMEOUT,
    *,
    message: str | None = None,
) -> Any:
    """Let the app run until ``condition`` holds (its value is returned); fail after ``timeout``
    seconds naming it.

    :func:`tests.waits.wait_until` with the pilot: bounded by time, not by a count of pauses (a
    count stretches under load, past the suite's per-test limit, and a hang then ended the run
    instead of failing by name). Without ``message`` the failure quotes the condition's source.
    """
    return await wait_until(
        condition,
        timeout,
        pilot=pilot,
        message=message or f"the app never reached: {condition_text(condition)}",
    )


async def events_shown(pilot: Pilot[None], app: McpTuiApp) -> None:
    """Wait until every session event delivered so far has reached the widgets: the panels are
    mounted, the app's event buffer is drained by a flush, and the messages that flush posted are
    handled. The positive sign to wait for before asserting that an event changed nothing."""
    await wait_until(
        lambda: (
            app.session is not None and app.session.areas.panels_ready and not app._buffer.pending
        ),
        pilot=pilot,
        message="the app never moved the buffered events to its widgets",
    )
    await pilot.pause()


def palette_options(app: McpTuiApp) -> list[Any]:
    """The commands the open command palette lists (none while it is closed or searching)."""
    from textual.command import CommandList

    found = app.screen.query(CommandList)
    if not found:
        return []
    commands = found.first()
    return [commands.get_option_at_index(i) for i in range(commands.option_count)]


async def run_from_palette(pilot: Pilot[None], app: McpTuiApp, query: str, expect: str) -> None:
    """Open the command palette, type ``query``, wait until the highlighted command mentions
    ``expect`` (the search runs in workers), and press Enter."""
    from textual.command import CommandList, CommandPalette

    await pilot.press("ctrl+p")
    await wait_until(lambda: isinstance(app.screen, CommandPalette), pilot=pilot)
    await pilot.press(*query)

    def offered() -> bool:
        found = app.screen.query(CommandList)
        option = found.first().highlighted_option if found else None
        return option is not None and expect in str(option.prompt)

    await wait_until(offered, pilot=pilot, message=f"the palette never offered {expect!r}")
    await pilot.press("enter")


def catalog_has(app: McpTuiApp, server: str, name: str) -> bool:
    """Whether the catalog shows the server (``name == ""``) or its item ``name`` yet."""
    try:
        tree_node(app, server, name)
    except (AssertionError, NoMatches, IndexError):
        return False
    return True


def tree_node(app: McpTuiApp, server: str, name: str) -> TreeNode[NodeRef]:
    """The catalog node of a server (``name == ""``) or of one of its items."""
    tree = app.screen_stack[0].query_one(CatalogTree)
    found: list[TreeNode[NodeRef]] = []

    def walk(node: TreeNode[NodeRef]) -> None:
        data = node.data
        if data is not None and data.server == server:
            item = data.item
            item_name = getattr(item, "name", None) if item is not None else ""
            if (name == "" and data.kind == "server") or (name and item_name == name):
                found.append(node)
        for child in node.children:
            walk(child)

    walk(tree.root)
    assert found, f"no catalog node {server}/{name}"
    return found[0]


async def after_refresh(pilot: Pilot[None], widget: Widget) -> None:
    """Wait until ``widget``'s screen has repainted after everything already queued for it,
    and until the callbacks queued before to run after that repaint have run (the catalog's
    cursor restore after a rebuild is one)."""
    done = asyncio.Event()
    widget.call_after_refresh(done.set)
    await wait_until(done.is_set, pilot=pilot, message=f"{widget!r} never refreshed")


async def cursor_on(
    pilot: Pilot[None], tree: CatalogTree, find: Callable[[], TreeNode[NodeRef]], what: str
) -> TreeNode[NodeRef]:
    """Focus the catalog and put its cursor on the node ``find()`` returns (its group expanded);
    return once the cursor stays there.

    ``Tree.move_cursor`` goes to the node's line number, which Textual only computes when it next
    lays out the tree: right after a group opened or a server's subtree was rebuilt (any catalog
    or mark change replaces its nodes) the number is stale and the cursor lands elsewhere. A
    rebuild also puts the cursor back where it was, after the next repaint. So the node is looked
    up afresh, the cursor moved, a repaint awaited, and that repeated until the cursor is on it.
    """
    deadline = time.monotonic() + DEFAULT_TIMEOUT
    while True:
        if pilot.app.focused is not tree:
            tree.focus()  # again: a screen closing gives the focus back to its own choice
        node = find()
        if node.parent is not None and not node.parent.is_expanded:
            node.parent.expand()
            await after_refresh(pilot, tree)
            node = find()
        tree.move_cursor(node, animate=False)
        await after_refresh(pilot, tree)
        node = find()
        if tree.cursor_node is node and pilot.app.focused is tree:
            return node
        assert time.monotonic() < deadline, (
            f"the catalog cursor never stayed on {what}: it is on {tree.cursor_node!r}, the"
            f" focus on {pilot.app.focused!r}, the screen {pilot.app.screen!r}"
        )


async def open_node(
    pilot: Pilot[None], app: McpTuiApp, server: str, name: str, key: str = "enter"
) -> None:
    """Move the catalog cursor to an item and press Enter (or ``key``) on it."""
    tree = app.screen_stack[0].query_one(CatalogTree)
    await cursor_on(pilot, tree, lambda: tree_node(app, server, name), f"{server}/{name}")
    await pilot.press(key)
    await pilot.pause()


class ArgumentsHost(App[None]):
    """An app that shows only an ArgumentsScreen for ``schema`` (``kw``: the screen's options)
    and keeps what it answers in ``results`` (``None`` for a cancel)."""

    def __init__(self, schema: Any, **kw: Any) -> None:
        super().__init__()
        self.schema = schema
        self.kw = kw
        self.results: list[dict[str, Any] | None] = []

    def on_mount(self) -> None:
        from mcp_tui.ui.screens.arguments import ArgumentsScreen

        self.push_screen(ArgumentsScreen("tool", self.schema, **self.kw), self.results.append)
