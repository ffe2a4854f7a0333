"""Build the demo MCP server, and the command that runs it over stdio.

`build_server()` returns a fresh `MCPServer` with its own world (projects, account connection),
so tests can connect to it in-process (`mcp.Client(build_server(), mode=...)`) without sharing
state. `demo_stdio_command()` is the argv that runs the same server as a child process with the
same Python, which is how `mcp-tui demo` starts it.

The tools that answer in prose are registered with `structured_output=False`: `MCPServer` would
otherwise also send every string result as `{"result": ...}` structured content with an output
schema, which a client shows twice. Only `search_issues` returns real structured data.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from mcp_tui.demo.state import DemoState

SERVER_NAME: Final = "mcp-tui-demo"
SERVER_VERSION: Final = "0.1.0"

INSTRUCTIONS: Final = (
    "The mcp-tui demo server. Every tool demonstrates one client feature, mostly elicitation: "
    "book_table (a three-form wizard), delete_project (confirming a destructive action), "
    "open_project (choosing among ambiguous matches), set_preferences (every field kind with "
    "defaults), quick_survey (two forms at once), confirm_action (an empty form), "
    "connect_account (URL mode), list_files "
    "(-32042 until connected), long_task (progress and logs) and search_issues (a rich input "
    "schema). Nothing here touches real data."
)


def demo_stdio_command() -> list[str]:
    """The argv that runs the demo over stdio with this same Python interpreter."""
    return [sys.executable, "-m", "mcp_tui.demo"]


def demo_http_command(port: int = 0) -> list[str]:
    """The argv that serves the demo over Streamable HTTP on 127.0.0.1 (`port` 0: a free one).

    The child prints its endpoint URL (`http://127.0.0.1:<port>/mcp`) as the first line of stdout
    once it accepts connections, and nothing after; SIGTERM stops it.
    """
    return [*demo_stdio_command(), "--http", "--port", str(port)]


def demo_stdio_env() -> dict[str, str]:
    """Environment to add for `demo_stdio_command()`: makes `mcp_tui` importable in the child
    even when it runs from a source checkout that was never installed."""
    return {"PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def _quiet_root_logging() -> None:
    """Give the root logger a plain stderr handler unless the host already configured one.

    Constructing `MCPServer` calls `logging.basicConfig` with a Rich handler; doing it first makes
    that a no-op, so nothing decorated (and nothing at all on stdout) comes from the SDK.
    """
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(
            stream=sys.stderr,
            level=logging.WARNING,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )


def build_server() -> MCPServer[DemoState]:
    """A new demo server with a world of its own.

    `mcp` is imported here, not at the top: the CLI imports this module for
    `demo_stdio_command()` on its start-up path, and `import mcp` costs about half a second.
    """
    _quiet_root_logging()
    from mcp.server.mcpserver import MCPServer

    from mcp_tui.demo import account, booking, catalog, forms, sampling
    from mcp_tui.demo.asking import answer_log_level
    from mcp_tui.demo.connect_page import ConnectPage
    from mcp_tui.demo.state import DemoState

    state = DemoState()
    page = ConnectPage(state)

    @asynccontextmanager
    async def lifespan(_: MCPServer[DemoState]) -> AsyncIterator[DemoState]:
        # One per connection (stdio, in-memory) or one for all sessions (HTTP). Its task group
        # can host the connect page, which therefore stops when the server does.
        async with anyio.create_task_group() as task_group:
            with page.hosting(task_group):
                yield state

    server: MCPServer[DemoState] = MCPServer(
        SERVER_NAME,
        title="mcp-tui demo",
        description="Every kind of elicitation, and a little of everything else.",
        instructions=INSTRUCTIONS,
        version=SERVER_VERSION,
        lifespan=lifespan,
        log_level="WARNING",
    )
    answer_log_level(server, state)
    booking.register(server)
    forms.register(server, state)
    account.register(server, state, page)
    catalog.register(server, state)
    sampling.register(server)
    return server
