"""Every screen that answers a server keeps its answers in sight on a small terminal.

At 40x12 the URL consent's button row was cut to "Open Ctrl+S  Decline Ctrl+R" and its footer
to "^s Open & accept ^r Decline …": no way to cancel on screen. The answer buttons now sit in an
``AnswerBar`` docked under the body, two columns when one row does not fit. Checked here at
every size from 80x24 down to 40x12 (each button whole and inside the screen), with snapshots of
the form and the sampling review at 40x12 (the URL consent's are in ``tests/url``).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button, Static

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from tests.waits import wait_until

URL = "https://accounts.example.co.uk/oauth/authorize?client_id=mcp-tui&state=8f3a9c2e&scope=repo"
SIZES = [(80, 24), (60, 20), (50, 16), (44, 14), (40, 12)]


def form_screen() -> ElicitationScreen:
    fields = (
        FieldSpec("name", FieldKind.TEXT, "Name"),
        FieldSpec("party", FieldKind.INTEGER, "Party size"),
    )
    request = ElicitationRequest(
        "demo", "Book a table: who and how many?", "form", form=FormSpec(fields), tool="book"
    )
    return ElicitationScreen(request)


def sampling_screen() -> SamplingScreen:
    message = SamplingMessage("user", (SamplingPart("text", "Summarize issue #12 in one line."),))
    request = SamplingRequest(server="demo", messages=(message,), max_tokens=100, tool="summary")
    return SamplingScreen(request)


def url_screen() -> UrlConsentScreen:
    return UrlConsentScreen(
        ElicitationRequest("demo", "Sign in to continue.", "url", url=URL, elicitation_id="e1")
    )


SCREENS = {
    "url": (url_screen, ("#url-open", "#url-decline", "#url-cancel", "#url-copy")),
    "form": (form_screen, ("#elicitation-accept", "#elicitation-decline", "#elicitation-cancel")),
    "sampling": (sampling_screen, ("#sampling-accept", "#sampling-decline", "#sampling-cancel")),
}


class Host(App[None]):
    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def compose(self) -> ComposeResult:
        yield Static("session")

    def on_mount(self) -> None:
        self.push_screen(self.make())


@pytest.mark.anyio
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("kind", list(SCREENS))
async def test_every_answer_button_is_whole_and_in_sight(kind: str, size: tuple[int, int]) -> None:
    make, buttons = SCREENS[kind]
    app = Host(make)
    async with app.run_test(size=size) as pilot:
        await wait_until(
            lambda: isinstance(app.screen, (UrlConsentScreen, ElicitationScreen, SamplingScreen)),
            pilot=pilot,
        )
        screen = app.screen
        await pilot.pause()
        await pilot.pause()
        visible = screen.region
        for selector in buttons:
            button = screen.query_one(selector, Button)
            region = button.region
            assert region.area and visible.contains_region(region), (selector, region, visible)
            assert region.width >= button.label.cell_length, (selector, "label cut", region)


@pytest.mark.parametrize("kind", ["form", "sampling"])
def test_small_terminal_snapshot(snap_compare: Any, kind: str) -> None:
    assert snap_compare(Host(SCREENS[kind][0]), terminal_size=(40, 12))
