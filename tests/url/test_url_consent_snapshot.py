"""Snapshots of the URL consent screen at 80×24: with warnings, and refused."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Static

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.ui.screens.url_consent import UrlConsentScreen


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
