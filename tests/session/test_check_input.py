"""``ServerConnection.check_input()``: what the TUI's "Check this server" reads — the listings as
they came over the wire (annotations, names, schemas untouched) and the forms asked."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest

from mcp_tui.check import run_checks
from mcp_tui.check.report import listing_from
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.elicitation import CancelAll

FIXTURE = Path(__file__).resolve().parents[1] / "cli" / "fixtures" / "check_server.py"


@pytest.mark.anyio
async def test_the_listing_and_the_forms_asked_as_received() -> None:
    spec = ServerSpec("fixture", StdioTarget(sys.executable, (str(FIXTURE),)), mode="legacy")
    conn = ServerConnection(spec, handler=CancelAll(), sink=lambda event: None)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(conn.run)
        try:
            with anyio.fail_after(60):
                assert await conn.wait_ready()
                while not conn.tools:
                    await anyio.sleep(0.05)
                await conn.call_tool("ask", {})
            data = conn.check_input()
        finally:
            await conn.close()
    assert data["era"] == "2025-11-25"
    assert {t["name"] for t in data["tools"]} == {"ask", "files.read", "ok"}
    (asked,) = data["elicitations"]
    assert asked["_mcp_tui_call"] == "ask"
    assert asked["requestedSchema"]["properties"]["code"]["pattern"] == "^[A-Z]{3}$"
    rules = {f.rule for f in run_checks([listing_from("fixture", data)]).findings}
    assert {"T102", "E101", "E102"} <= rules
