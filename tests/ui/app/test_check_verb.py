"""The palette's "Check this server": mcp-tui check's report on what the live connection saw."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandPalette

from mcp_tui.ui.screens.detail import DetailScreen
from tests.ui.demo_tui_kit import demo_app, wait_until
from tests.waits import mounted_screen

pytestmark = pytest.mark.anyio


async def test_check_this_server_from_the_palette(tmp_path: Path) -> None:
    async with demo_app(tmp_path, "2025-11-25", size=(100, 30)) as run:
        pilot = run.pilot
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: mounted_screen(run.app, CommandPalette), "the palette")
        await pilot.press(*"Check this server")
        palette = run.app.screen
        listed = palette.query_one("CommandList")
        await wait_until(pilot, lambda: listed.option_count == 1, "one verb found")  # type: ignore[attr-defined]
        await pilot.press("enter")
        screen = await wait_until(
            pilot, lambda: mounted_screen(run.app, DetailScreen), "the report"
        )
        assert "the 2025-11-25 era" in screen.text and "0 forms asked so far" in screen.text
        assert "T301 server" in screen.text and "0 errors, 0 warnings, 1 info" in screen.text
        await pilot.press("escape")
