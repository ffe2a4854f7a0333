"""The site a URL goes to is on the consent screen's first screen at every size down to 40x12,
highlighted, whatever the server's message (issue 39, item 4).

A spoofing host reads as another site from its left end; at 40x12 the screen used to show the
header, the server's message and nothing else above the fold (the host's first 32 characters,
``https://accounts.google.com.secu``, with a shorter message), and a long message pushes the
host down at any size. Read here as a person reads it: the rows drawn on the terminal, and the
style the registrable domain is drawn in.
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.segment import Segment

from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from tests.url.test_url_consent import ConsentHost, url_request
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

SPOOF = "https://accounts.google.com.secure-login.evil.example/oauth/authorize?client_id=x"
SIZES = [(40, 12), (60, 20), (80, 24)]
LONG_MESSAGE = "\n".join(f"Step {i}: read this carefully before you go on." for i in range(40))


def drawn(app: ConsentHost) -> list[list[Segment]]:
    """The rows of the screen as drawn: each a list of styled segments."""
    return [list(strip) for strip in app.screen._compositor.render_strips()]


def row_text(row: list[Segment]) -> str:
    return "".join(segment.text for segment in row)


async def shown(app: ConsentHost, pilot: Any) -> None:
    await wait_until(
        lambda: isinstance(app.screen, UrlConsentScreen) and app.screen.shown, pilot=pilot
    )
    await pilot.pause()


@pytest.mark.parametrize("message", ["Sign in to continue.", LONG_MESSAGE], ids=["short", "long"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_registrable_domain_is_on_the_first_screen_highlighted(
    size: tuple[int, int], message: str
) -> None:
    app = ConsentHost(url_request(SPOOF, message=message))
    async with app.run_test(size=size) as pilot:
        await shown(app, pilot)
        rows = drawn(app)
        [site] = [row for row in rows if "Destination" in row_text(row)]
        assert "Destination  evil.example" in row_text(site)
        [domain] = [s for s in site if s.text == "evil.example"]
        assert domain.style is not None and domain.style.reverse  # highlighted
        # above the server's message, which comes after it, and above the buttons
        texts = [row_text(row) for row in rows]
        at = texts.index(row_text(site))
        assert at < next(i for i, t in enumerate(texts) if "Open  Ctrl+S" in t)
        if any("from server" in t for t in texts):
            assert at < next(i for i, t in enumerate(texts) if "from server" in t)


async def test_a_host_without_a_registrable_domain_is_drawn_whole_at_40x12() -> None:
    app = ConsentHost(url_request("http://localhost:8765/callback?code=abc"))
    async with app.run_test(size=(40, 12)) as pilot:
        await shown(app, pilot)
        texts = [row_text(row) for row in drawn(app)]
        assert any("Destination  localhost" in t for t in texts)
