"""Contrast of field states and log text, computed from the rendered colours (WCAG AA, 4.5:1).

A boolean's state must be readable at a glance in the default theme and in Textual's light one:
the box (☑ / ☐ / ◌) and its words are checked, focused and not, for each state. The log panel's
time stamps, stderr tags and levels are checked the same way.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget

from mcp_tui.schema.fields import FieldKind, FieldSpec
from mcp_tui.session.events import LogReceived, StderrReceived
from mcp_tui.ui.widgets.form.form_controls import BoolControl, TriStateControl
from mcp_tui.ui.widgets.session.log_panel import LogPanel
from tests import waits
from tests.ui.contrast_kit import AA, widget_contrasts
from tests.ui.screens.test_form_snapshots import Host, host

pytestmark = pytest.mark.anyio
THEMES = ["textual-dark", "textual-light"]


class Logs(App[None]):
    CSS = "LogPanel { height: 12; background: $surface; }"

    def __init__(self, theme: str) -> None:
        super().__init__()
        self._theme_name = theme

    def compose(self) -> ComposeResult:
        yield LogPanel(id="logs")

    def on_mount(self) -> None:
        self.theme = self._theme_name


async def wait_until(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    await waits.wait_until(condition, pilot=pilot)


def low(found: list[tuple[str, float]]) -> list[tuple[str, float]]:
    return [(text, round(r, 2)) for text, r in found if r < AA]


def boolean_form(theme: str) -> Host:
    fields = (
        FieldSpec("a", FieldKind.BOOLEAN, "Ticked", default=True, has_default=True),
        FieldSpec("b", FieldKind.BOOLEAN, "Empty", default=False, has_default=True),
        FieldSpec("c", FieldKind.BOOLEAN, "Not answered"),
    )
    app = host(*fields)
    app.theme = theme
    return app


@pytest.mark.parametrize("theme", THEMES)
async def test_boolean_states_read_at_aa_contrast_in_a_form_focused_or_not(theme: str) -> None:
    app = boolean_form(theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: len(app.screen.query(BoolControl)) == 2)
        ticked, empty = app.screen.query(BoolControl)
        (unset,) = app.screen.query(TriStateControl)
        states: list[tuple[Widget, str]] = [
            (ticked, "☑"),
            (empty, "☐"),
            (unset, "◌ not set"),
        ]
        for widget, words in states:
            for focused in (True, False):
                if focused:
                    widget.focus()
                else:
                    app.screen.set_focus(None)
                await pilot.pause()
                found = widget_contrasts(widget)
                shown = "".join(text for text, _ in found)
                assert shown.strip().startswith(words), (widget.id, shown)
                assert not low(found), (theme, widget.id, focused, low(found))
        # The answered tri-state, both ways.
        for value, words in ((True, "☑ yes"), (False, "☐ no")):
            unset.state = value
            await pilot.pause()
            found = widget_contrasts(unset)
            assert "".join(t for t, _ in found).strip().startswith(words)
            assert not low(found), (theme, value, low(found))


@pytest.mark.parametrize("theme", THEMES)
async def test_log_text_reads_at_aa_contrast(theme: str) -> None:
    app = Logs(theme)
    async with app.run_test(size=(80, 20)) as pilot:
        logs = app.query_one(LogPanel)
        events = [
            LogReceived("demo", level, "db", f"{level} message", at=1_700_000_000.0)
            for level in ("debug", "info", "notice", "warning", "error", "critical")
        ]
        logs.add_batch([*events, StderrReceived("demo", "Traceback (most recent call last):")])
        await wait_until(pilot, lambda: logs.lines_written >= len(events) + 1)
        await pilot.pause()
        found = widget_contrasts(logs)
        assert any("warning message" in text for text, _ in found)
        assert not low(found), (theme, low(found))
