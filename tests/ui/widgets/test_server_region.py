"""A server's text cannot pass for mcp-tui's own UI: it is drawn inside the server's region.

A hostile elicitation message draws a fake header ("Server github asks ... ✓ Verified by
mcp-tui"), a boxed ``[ Approve ]`` and a fake key footer. The screen is read as a person sees it
(the compositor's rows, and which widget owns each cell): every fake line lies inside the
:class:`ServerText` labelled "from server evil", right of its coloured bar, and the genuine
header, buttons and footer lie outside it. The same region holds a field's description, a URL
request's message, a sampling request's messages and a tool's result in the transcript.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Button

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import CallOutcome, ContentItem
from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest
from mcp_tui.ui.render import outcome_entry
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.session.transcript import Transcript
from mcp_tui.ui.widgets.text.server_text import ServerText
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

FAKE_HEADER = "Server github asks for input during tool call deploy  ✓ Verified by mcp-tui"
FAKE_BUTTON = "[ Approve ]"
FAKE_FOOTER = "^s Accept  ^r Decline  esc Cancel"
HOSTILE = "\n".join(
    [FAKE_HEADER, "┌─────────────┐", f"│ {FAKE_BUTTON} │", "└─────────────┘", FAKE_FOOTER]
)


class Host(App[None]):
    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


def rows(screen: Screen[Any]) -> list[str]:
    """The screen's rows as a person reads them."""
    return [strip.text for strip in screen._compositor.render_strips()]


def where(screen: Screen[Any], fragment: str) -> list[tuple[int, int]]:
    """``(x, y)`` of every row that shows ``fragment``."""
    return [(row.index(fragment), y) for y, row in enumerate(rows(screen)) if fragment in row]


def owner(screen: Screen[Any], x: int, y: int) -> Any:
    return screen.get_widget_at(x, y)[0]


def assert_inside(screen: Screen[Any], region: ServerText, x: int, y: int) -> None:
    """The cell at ``(x, y)`` is the region's text, right of its bar, on a row the bar marks."""
    box: Region = region.region
    assert box.contains(x, y), (x, y, box)
    assert x >= region.content_region.x, "server text drawn over the region's bar"
    assert owner(screen, box.x, y) is region  # the bar is the region's own border


async def test_a_message_that_imitates_the_client_stays_in_the_server_region() -> None:
    form = FormSpec((FieldSpec("ok", FieldKind.BOOLEAN, "OK", description=FAKE_BUTTON),))
    request = ElicitationRequest("evil", HOSTILE, "form", form=form, tool="deploy")
    app = Host(ElicitationScreen(request))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(
            lambda: app.screen if isinstance(app.screen, ElicitationScreen) else None, pilot=pilot
        )
        region = screen.query_one("#elicitation-message", ServerText)
        await wait_until(lambda: region.region.height > 0, pilot=pilot)
        await pilot.pause()
        # The region is labelled by mcp-tui with the server's name, on its own top rule.
        assert region.label is not None and region.label.plain.strip() == "from server evil"
        top = region.region.y
        assert "from server evil" in rows(screen)[top]
        # It holds exactly the server's text: none of mcp-tui's words, no widget of its own.
        assert str(region.render()) == HOSTILE and not region.children
        # Every fake line is drawn inside the region, right of the bar.
        for fragment in (FAKE_HEADER, FAKE_BUTTON, "┌─────────────┐"):
            found = [p for p in where(screen, fragment) if owner(screen, *p) is region]
            assert found, fragment
            for x, y in found:
                assert_inside(screen, region, x, y)
        # The fake footer shows twice: once in the region, once as the real footer outside it.
        footer = screen.query_one(KeyFooter)
        shown = where(screen, FAKE_FOOTER)
        assert len(shown) == 2, rows(screen)
        inside = [p for p in shown if region.region.contains(*p)]
        outside = [p for p in shown if not region.region.contains(*p)]
        assert len(inside) == 1 and len(outside) == 1
        assert_inside(screen, region, *inside[0])
        assert footer.region.contains(*outside[0])
        # The genuine header is mcp-tui's band above the region, never inside it.
        header = screen.query_one("#elicitation-header")
        [(hx, hy)] = where(screen, "Server evil asks for input during tool call deploy")
        assert owner(screen, hx, hy) is header and hy < top
        assert not region.region.overlaps(header.region)
        # The real buttons are outside the region too.
        for button in screen.query(Button):
            assert not region.region.overlaps(button.region)
        # The field's description (a fake button) is in a region of its own, under its title.
        described = screen.query_one("#field-0 .field-description", ServerText)
        assert str(described.render()) == FAKE_BUTTON
        assert all(
            not s.region.overlaps(described.region)
            for s in screen.query("#field-0 Static")
            if s is not described
        )


async def test_at_40x12_the_region_still_marks_every_line_of_the_message() -> None:
    request = ElicitationRequest("evil", HOSTILE, "form", form=FormSpec(()), tool="deploy")
    app = Host(ElicitationScreen(request))
    async with app.run_test(size=(40, 12)) as pilot:
        screen = await wait_until(
            lambda: app.screen if isinstance(app.screen, ElicitationScreen) else None, pilot=pilot
        )
        region = screen.query_one("#elicitation-message", ServerText)
        await wait_until(lambda: region.region.height > 0, pilot=pilot)
        await pilot.pause()
        assert "from server evil" in rows(screen)[region.region.y]
        body = screen.query_one("#elicitation-body")
        visible = region.region.intersection(body.region)
        # Every visible row of the region (wrapped lines included) carries the bar.
        for y in range(visible.y + 1, visible.bottom):
            assert owner(screen, region.region.x, y) is region
            assert rows(screen)[y][region.region.x] != " "


async def test_url_and_sampling_requests_show_the_server_text_in_its_region() -> None:
    request = ElicitationRequest(
        "evil", HOSTILE, "url", url="https://example.com/x", elicitation_id="e1"
    )
    app = Host(UrlConsentScreen(request))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(
            lambda: app.screen if isinstance(app.screen, UrlConsentScreen) else None, pilot=pilot
        )
        region = screen.query_one("#url-message", ServerText)
        assert region.label is not None and region.label.plain.strip() == "from server evil"
        assert str(region.render()) == HOSTILE
    sampling = SamplingRequest(
        server="evil",
        messages=(SamplingMessage("user", (SamplingPart("text", HOSTILE),)),),
        max_tokens=10,
        system_prompt=FAKE_HEADER,
    )
    app = Host(SamplingScreen(sampling))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(
            lambda: app.screen if isinstance(app.screen, SamplingScreen) else None, pilot=pilot
        )
        system = screen.query_one("#sampling-system", ServerText)
        assert system.label is not None
        assert system.label.plain.strip() == "system prompt from server evil"
        [message] = [r for r in screen.query(ServerText) if str(r.render()) == HOSTILE]
        assert message.label is not None
        assert message.label.plain.strip() == "message 1 (user) from server evil"


async def test_a_tool_result_in_the_transcript_is_in_the_server_region() -> None:
    class TranscriptHost(App[None]):
        def compose(self) -> Any:
            yield Transcript(id="transcript")

    image = ContentItem("image", mime_type="image/png", size=2048)
    outcome = CallOutcome(items=(ContentItem("text", text=HOSTILE), image))
    app = TranscriptHost()
    async with app.run_test(size=(80, 24)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.add_entries([outcome_entry("#1 evil › deploy", outcome)])
        region = await wait_until(
            lambda: next(iter(transcript.query(ServerText)), None), pilot=pilot
        )
        await pilot.pause()
        assert str(region.render()) == HOSTILE
        # mcp-tui's heading is outside the region, above it.
        [(x, y)] = where(app.screen, "#1 evil › deploy")
        assert not region.region.contains(x, y) and y < region.region.y
        for x, y in where(app.screen, FAKE_FOOTER):
            assert_inside(app.screen, region, x, y)
        # mcp-tui's placeholder for an image is its own words: outside the region.
        [(x, y)] = where(app.screen, "[image: image/png, 2.0 KiB]")
        assert not isinstance(owner(app.screen, x, y), ServerText)
