"""Snapshots of the URL consent screen at 80×24 (with warnings, refused, on loopback, arming) and
at 40×12, where every answer must still be in sight."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from tests.waits import wait_until


def request(url: str) -> ElicitationRequest:
    return ElicitationRequest(
        server="github-tools",
        message="To list your private repositories, sign in to GitHub and authorise mcp-tui.",
        mode="url",
        url=url,
        elicitation_id="el-7",
        tool="list_repos",
    )


class SnapshotHost(App[None]):
    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def compose(self) -> ComposeResult:
        yield Static("")

    def on_mount(self) -> None:
        self.push_screen(UrlConsentScreen(request(self.url)))


def test_consent_screen_with_warnings(snap_compare: Any) -> None:
    url = (
        "https://login.xn--80ak6aa92e.com:8443/oauth/authorize?client_id=mcp-tui"
        "&state=8f3a9c2e7d1b4a6f&scope=repo%20read%3Auser"
    )
    assert snap_compare(SnapshotHost(url), terminal_size=(80, 24))


def test_consent_screen_refused(snap_compare: Any) -> None:
    url = "https://github.com\\@evil.example/login?next=%2Fsettings"
    assert snap_compare(SnapshotHost(url), terminal_size=(80, 24))


def test_consent_screen_local_http(snap_compare: Any) -> None:
    url = "http://localhost:8765/callback?code=abc123&state=xyz"
    assert snap_compare(SnapshotHost(url), terminal_size=(80, 24))


PLAIN = "https://accounts.example.co.uk/oauth/authorize?client_id=mcp-tui&state=8f3a9c2e&scope=repo"


@pytest.mark.parametrize("size", [(80, 24), (40, 12)], ids=["80x24", "40x12"])
def test_consent_screen_every_answer_in_sight(snap_compare: Any, size: tuple[int, int]) -> None:
    """At 40x12 the buttons were cut to 'Open Ctrl+S  Decline Ctrl+R' and the footer to
    '^s Open & accept ^r Decline …': no way to cancel in sight. Now the row becomes two."""
    assert snap_compare(SnapshotHost(PLAIN), terminal_size=size)


def test_consent_screen_arming(snap_compare: Any, arming_clock: Any) -> None:
    """Just shown: the Open button and its key are drawn disabled until the screen has been on
    screen for the arming delay (the clock here never moves)."""

    async def shown(pilot: Any) -> None:
        await wait_until(
            lambda: isinstance(pilot.app.screen, UrlConsentScreen) and pilot.app.screen.shown,
            pilot=pilot,
        )

    assert snap_compare(SnapshotHost(PLAIN), terminal_size=(80, 24), run_before=shown)
