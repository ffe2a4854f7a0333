"""The log panel wraps inside what it shows (issue 28, item 12).

RichLog renders each write at least ``min_width`` (78) columns wide and, before the scrollbar
appears, as wide as the region without it: at 80 columns the character at each wrap point, and the
last one of a line exactly as wide as the panel, were hidden behind the border or the scrollbar.
"""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from mcp_tui.session.events import StderrReceived
from mcp_tui.ui.widgets.session.log_panel import LogPanel
from tests.waits import wait_until

pytestmark = pytest.mark.anyio


class _LogApp(App[None]):
    CSS = "LogPanel { height: 7; border: round white; scrollbar-size-vertical: 1; }"

    def compose(self) -> ComposeResult:
        yield LogPanel(id="logs")


def _shown(panel: LogPanel) -> list[str]:
    width = panel.scrollable_content_region.width
    return [strip.text[:width].rstrip() for strip in panel.lines]


async def test_wrapped_lines_keep_every_character_at_80_columns() -> None:
    # "stderr   s " and then words: over the lengths around the panel's width, some line wraps
    # (or ends) exactly at its last column, with and without the scrollbar's column.
    sent = [f"{'a' * n} valid directories tool_manager.py" for n in range(28, 44)]
    sent += ["x" * (78 - len("stderr   s ")) for _ in range(10)]  # as wide as the panel
    app = _LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.query_one(LogPanel)
        for line in sent:  # one flush each: the scrollbar appears part way
            panel.add_batch([StderrReceived("s", line)])
        await wait_until(lambda: panel.lines_written == len(sent), pilot=pilot)
        await pilot.pause()
        width = panel.scrollable_content_region.width
        assert max(strip.cell_length for strip in panel.lines) <= width
        shown = "".join(strip.text for strip in panel.lines)
        expected = "".join(f"stderr s {line}".replace(" ", "") for line in sent)
        assert "".join(shown.split()) == expected
