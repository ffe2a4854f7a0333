"""``--watch``: a real stdio server restarted when its file changes, driven through the TUI.

The server is a file in a temporary directory; the test edits it (a tool added, another's answer
changed) and waits for the conditions a person would look for: the transcript says which file
changed and that the server restarts, the "refreshed" line names the new and changed tools, the
catalog shows the new tool with the cursor still on the tool it was on, and ``a`` calls the last
tool again with the same values, now answered by the new code.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree
from tests.ui.app_testkit import (
    catalog_has,
    cursor_on,
    mounted_screen,
    session_of,
    transcript_text,
    tree_node,
    wait_until,
)

pytestmark = pytest.mark.anyio

SERVER = """
from mcp.server.mcpserver import MCPServer

server = MCPServer("watched")


@server.tool(description="The first tool")
def alpha(x: int = 1) -> str:
    return f"alpha {x}"


@server.tool(description="The second tool")
def beta(word: str = "plain") -> str:
    return f"BETA_ANSWER {word}"
{extra}

if __name__ == "__main__":
    server.run()
"""

GAMMA = """

@server.tool(description="A tool added while the TUI runs")
def gamma() -> str:
    return "gamma"
"""


def write_atomically(path: Path, text: str) -> None:
    """As editors save: a temporary file renamed over the old one."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


async def test_a_changed_server_file_restarts_the_server_and_a_calls_again(
    tmp_path: Path,
) -> None:
    source = tmp_path / "server.py"
    source.write_text(SERVER.replace("{extra}", ""))
    spec = ServerSpec("w", StdioTarget(sys.executable, (str(source),), cwd=str(tmp_path)))
    options = AppOptions(stderr_log=Path(os.devnull), watch=(tmp_path,))
    app = McpTuiApp([spec], options)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: catalog_has(app, "w", "beta"), 30, pilot=pilot)
        tree = session_of(app).query_one(CatalogTree)
        await cursor_on(pilot, tree, lambda: tree_node(app, "w", "beta"), "w/beta")
        await pilot.press("enter")
        form = await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        await pilot.press("end", *"-typed", "ctrl+s")  # the word field: "plain-typed"
        await wait_until(lambda: form not in app.screen_stack, pilot=pilot)
        await wait_until(
            lambda: "BETA_ANSWER plain-typed" in transcript_text(app, full=True),
            20,
            pilot=pilot,
            message="the first call's result",
        )
        watch = app.server_actions._watch
        assert watch is not None
        await wait_until(lambda: watch.armed, 20, pilot=pilot, message="the watcher started")
        old = app.entries["w"].connection

        changed = (
            SERVER.replace("{extra}", GAMMA)
            .replace("BETA_ANSWER", "BETA_EDITED")
            .replace("The second tool", "The second tool, edited")
        )
        write_atomically(source, changed)

        await wait_until(
            lambda: catalog_has(app, "w", "gamma"), 30, pilot=pilot, message="gamma listed"
        )
        assert app.entries["w"].connection is not old, "a new connection (a new process)"
        text = transcript_text(app)
        assert "server.py changed: restarting the server (--watch)" in text
        assert "w: refreshed: 3 tools (1 new: gamma; 1 changed: beta)" in text
        assert watch.restarts == 1, "one save, one restart"
        await wait_until(
            lambda: tree.current is not None and tree.current.key == ("tool", "tools", "beta"),
            pilot=pilot,
            message="the cursor stays on beta",
        )
        prose = session_of(app).query_one("#info-text")  # the server's words about the item
        await wait_until(
            lambda: "The second tool, edited" in str(prose.render()),
            pilot=pilot,
            message="the info panel shows beta as it is now",
        )

        await pilot.press("a")  # again: the same values, the new code answers
        await wait_until(
            lambda: "BETA_EDITED plain-typed" in transcript_text(app, full=True),
            20,
            pilot=pilot,
            message="the call again, answered by the edited server",
        )
        assert app.entries["w"].state is ConnectionState.READY


async def test_what_mcp_tui_writes_under_the_watched_folder_restarts_nothing(
    tmp_path: Path,
) -> None:
    """``mcp-tui --watch . --log traffic.jsonl --record ... -- python server.py``: the traffic
    log grows with every message and the call's test case is saved under the watched folder;
    only the edit of ``server.py`` restarts the server, and the transcript names it alone."""
    source = tmp_path / "server.py"
    source.write_text(SERVER.replace("{extra}", ""))
    spec = ServerSpec("w", StdioTarget(sys.executable, (str(source),), cwd=str(tmp_path)))
    record = tmp_path / "tests" / "mcp" / "w.mcptest.toml"
    options = AppOptions(
        stderr_log=tmp_path / "w.stderr.log",
        traffic_log=tmp_path / "traffic.jsonl",
        record=record,
        watch=(tmp_path,),
    )
    app = McpTuiApp([spec], options)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: catalog_has(app, "w", "beta"), 30, pilot=pilot)
        watch = app.server_actions._watch
        assert watch is not None
        await wait_until(lambda: watch.armed, 20, pilot=pilot, message="the watcher started")
        tree = session_of(app).query_one(CatalogTree)
        await cursor_on(pilot, tree, lambda: tree_node(app, "w", "beta"), "w/beta")
        await pilot.press("enter")
        form = await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        await pilot.press("ctrl+s")
        await wait_until(lambda: form not in app.screen_stack, pilot=pilot)
        await wait_until(
            lambda: record.exists() and "BETA_ANSWER" in record.read_text(),
            20,
            pilot=pilot,
            message="the call saved as a test case",
        )
        old = app.entries["w"].connection

        write_atomically(source, SERVER.replace("{extra}", GAMMA))
        await wait_until(
            lambda: catalog_has(app, "w", "gamma"), 30, pilot=pilot, message="gamma listed"
        )
        assert app.entries["w"].connection is not old
        restarts = [line for line in transcript_text(app).splitlines() if "(--watch)" in line]
        assert restarts == ["ℹ w: server.py changed: restarting the server (--watch)"], restarts
        assert watch.restarts == 1
