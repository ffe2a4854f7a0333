"""The URL consent screen driven with Pilot, with ``$BROWSER`` pointing at a recording script.

Proves: nothing opens before Ctrl+S (nor on Enter, scrolling or copying), exactly the shown URL
opens after it, refused URLs never open and answer decline, decline and cancel are returned as
such, a browser failure keeps the screen and the URL to copy, and server text stays literal.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Button, Static

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from mcp_tui.url.browser import OpenResult
from mcp_tui.url.check import UrlVerdict
from tests.waits import wait_until

pytestmark = pytest.mark.anyio

URL = "https://accounts.example.co.uk/oauth/authorize?client_id=mcp-tui&state=8f3a9c2e&scope=repo"


def url_request(url: str | None = URL, message: str = "Sign in to continue.") -> ElicitationRequest:
    return ElicitationRequest(
        server="demo",
        message=message,
        mode="url",
        url=url,
        elicitation_id="el-1",
        tool="list_repos",
    )


class ConsentHost(App[None]):
    """A bare app that pushes one consent screen and keeps what it was dismissed with."""

    def __init__(self, request: ElicitationRequest, **screen_options: Any) -> None:
        super().__init__()
        self.request = request
        self.screen_options = screen_options
        self.outcomes: list[ElicitationOutcome | None] = []

    def compose(self) -> ComposeResult:
        yield Static("session")

    def on_mount(self) -> None:
        self.push_screen(
            UrlConsentScreen(self.request, **self.screen_options), self.outcomes.append
        )


def consent(app: ConsentHost) -> UrlConsentScreen:
    screen = app.screen
    assert isinstance(screen, UrlConsentScreen)
    return screen


def text_of(app: ConsentHost, selector: str) -> str:
    content = consent(app).query_one(selector, Static).content
    return content.plain if isinstance(content, Content) else str(content)


async def settle(pilot: Pilot[None], app: ConsentHost) -> None:
    """Wait until the opening worker has finished (the browser stand-in has run)."""

    def finished() -> bool:
        screen = app.screen
        opening = isinstance(screen, UrlConsentScreen) and screen.state == "opening"
        return bool(app.outcomes) or not opening

    await app.workers.wait_for_complete()
    await pilot.pause()
    await wait_until(finished, pilot=pilot, message="the opening worker never finished")


async def test_nothing_opens_before_ctrl_s_then_exactly_the_shown_url(browser_env: Any) -> None:
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert text_of(app, "#url-full") == URL  # the whole URL is shown, exactly
        # Enter on the initially focused body, scrolling and copying open nothing.
        for key in ("enter", "down", "pagedown", "c", "space"):
            await pilot.press(key)
        await pilot.pause()
        assert browser_env.calls() == []
        assert app.outcomes == []
        await pilot.press("ctrl+s")
        await settle(pilot, app)
    assert browser_env.calls() == [[URL]]
    assert len(app.outcomes) == 1
    outcome = app.outcomes[0]
    assert outcome is not None
    assert outcome.action == "accept" and outcome.content is None
    assert outcome.note is not None and "opened in $BROWSER" in outcome.note


async def test_open_button_also_opens(browser_env: Any) -> None:
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click("#url-open")
        await settle(pilot, app)
    assert browser_env.calls() == [[URL]]
    assert [o.action for o in app.outcomes if o] == ["accept"]


@pytest.mark.parametrize(
    ("url", "keys"),
    [
        ("https://evil.example\\@trusted.example/", ("ctrl+s", "c", "enter", "escape")),
        ("javascript:alert(document.cookie)", ("ctrl+s", "tab", "ctrl+r")),
        ("-https://example.com/", ("ctrl+s", "escape")),
        ("http://0x7f.1/admin", ("ctrl+s", "ctrl+r")),
        (None, ("ctrl+s", "escape")),
    ],
)
async def test_refused_urls_never_open_and_answer_decline(
    browser_env: Any, url: str | None, keys: tuple[str, ...]
) -> None:
    app = ConsentHost(url_request(url))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = consent(app)
        assert not screen.verdict.allowed
        assert not screen.query("#url-open") and not screen.query("#url-copy")
        assert "refused and will not be opened" in text_of(app, "#url-reasons")
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await app.workers.wait_for_complete()
        assert app.clipboard == ""
    assert browser_env.calls() == []
    assert [o.action for o in app.outcomes if o] == ["decline"]


@pytest.mark.parametrize(("key", "action"), [("ctrl+r", "decline"), ("escape", "cancel")])
async def test_decline_and_cancel_are_returned_as_such(
    browser_env: Any, key: str, action: str
) -> None:
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
    assert browser_env.calls() == []
    assert [(o.action, o.content) for o in app.outcomes if o] == [(action, None)]


@pytest.mark.parametrize(
    ("button", "action"), [("#url-decline", "decline"), ("#url-cancel", "cancel")]
)
async def test_decline_and_cancel_buttons(browser_env: Any, button: str, action: str) -> None:
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.click(button)
        await pilot.pause()
    assert browser_env.calls() == []
    assert [o.action for o in app.outcomes if o] == [action]


async def test_browser_failure_keeps_the_screen_and_the_url(
    make_recorder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lynx = make_recorder("lynx")  # a console browser: must be refused
    monkeypatch.setenv("BROWSER", str(lynx.script))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        screen = consent(app)
        assert app.outcomes == []  # not accepted silently
        assert screen.state == "failed"
        status = text_of(app, "#url-status")
        assert "No browser could be opened" in status and "console browser" in status
        assert screen.open_result is not None and not screen.open_result.opened
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == URL
        await pilot.press("ctrl+s")  # now: accept, the user opens it themselves
        await pilot.pause()
    assert lynx.calls() == []
    assert len(app.outcomes) == 1 and app.outcomes[0] is not None
    assert app.outcomes[0].action == "accept"
    assert app.outcomes[0].note is not None and "without opening" in app.outcomes[0].note


async def test_copied_is_said_on_the_button_not_in_a_toast_over_the_explanation() -> None:
    """At 80x24 the "Copied" toast covered the no-browser explanation and the buttons it names:
    the copy button itself now says so, and nothing is drawn over the screen."""

    async def no_browser(verdict: UrlVerdict) -> OpenResult:
        return OpenResult(False, verdict.url, error="No browser could be opened.")

    app = ConsentHost(url_request(), opener=no_browser)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert consent(app).state == "failed"
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == URL
        button = consent(app).query_one("#url-copy", Button)
        assert str(button.label) == "Copied ✓  c"
        assert len(app._notifications) == 0, "no toast over the screen"
        status = consent(app).query_one("#url-status", Static)
        assert status.region.height > 0 and "No browser" in text_of(app, "#url-status")
        for widget in (status, *consent(app).query(Button)):
            assert consent(app).region.contains_region(widget.region), widget


async def test_an_opener_that_raises_is_a_failure_not_a_crash() -> None:
    async def broken(verdict: UrlVerdict) -> OpenResult:
        raise RuntimeError("launcher exploded")

    app = ConsentHost(url_request(), opener=broken)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert consent(app).state == "failed"
        assert "launcher exploded" in text_of(app, "#url-status")
        await pilot.press("escape")
        await pilot.pause()
    assert [o.action for o in app.outcomes if o] == ["cancel"]


async def test_a_defect_in_the_url_check_refuses_the_url(
    browser_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``check_url`` must never raise; if it does, the URL is refused, never opened."""
    import mcp_tui.ui.screens.url_consent as url_consent

    def broken(raw: str) -> UrlVerdict:
        raise ValueError("bug")

    monkeypatch.setattr(url_consent, "check_url", broken)
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not consent(app).verdict.allowed
        assert "could not be checked safely (ValueError)" in text_of(app, "#url-reasons")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert browser_env.calls() == []
    assert [o.action for o in app.outcomes if o] == ["decline"]


async def test_keys_are_ignored_while_opening() -> None:
    calls: list[str] = []
    release: list[bool] = []

    async def slow(verdict: UrlVerdict) -> OpenResult:
        calls.append(verdict.url)
        while not release:
            import anyio

            await anyio.sleep(0.01)
        return OpenResult(True, verdict.url, browser="stand-in")

    app = ConsentHost(url_request(), opener=slow)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert consent(app).state == "opening"
        for key in ("ctrl+s", "escape", "ctrl+r"):
            await pilot.press(key)
        await pilot.pause()
        assert app.outcomes == []
        release.append(True)
        await settle(pilot, app)
    assert calls == [URL]  # opened once, despite the second Ctrl+S
    assert [o.action for o in app.outcomes if o] == ["accept"]


async def test_server_text_is_literal_and_controls_visible() -> None:
    message = "[@click=screen.dismiss('accept')]Click[/] [b]me[/b] \x1b]0;pwned\x07 [/]"
    app = ConsentHost(url_request(message=message))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = text_of(app, "#url-message")
        assert "[@click=screen.dismiss('accept')]" in shown and "[b]me[/b]" in shown
        assert "\\e]0;pwned\\x07" in shown
        assert "\x1b" not in shown and "\x07" not in shown
        await pilot.click("#url-message")
        await pilot.pause()
    assert app.outcomes == []


async def test_header_host_and_warnings_for_an_idn_host() -> None:
    url = "https://login.xn--80ak6aa92e.com:8443/oauth"
    app = ConsentHost(url_request(url))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        header = text_of(app, "#url-header")
        assert "Server demo asks you to open a web page" in header and "list_repos" in header
        host = text_of(app, "#url-host")
        assert "login.xn--80ak6aa92e.com:8443" in host and "shown as login.аррӏе.com" in host
        warnings = text_of(app, "#url-warnings")
        for words in ("International host name", "look like Latin", "Unusual port 8443"):
            assert words in warnings
        screen = consent(app)
        screen.header.set_waiting(2)
        await pilot.pause()
        assert "(2 more waiting)" in text_of(app, "#url-header")
        assert screen.header.waiting == 2 and screen.raw_text() == {}


async def test_registrable_domain_is_highlighted() -> None:
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        content = consent(app).host_content()
        highlighted = [
            content.plain[s.start : s.end] for s in content.spans if "reverse" in str(s.style)
        ]
        assert highlighted == ["example.co.uk"]


async def test_footer_and_buttons_show_the_same_keys(browser_env: Any) -> None:
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = consent(app)
        labels = [str(b.label) for b in screen.query(Button)]
        assert labels == ["Open  Ctrl+S", "Decline  Ctrl+R", "Cancel  Esc", "Copy URL  c"]
        active = {key: b.binding.description for key, b in screen.active_bindings.items()}
        assert active["ctrl+s"] == "Open & accept"
        assert active["ctrl+r"] == "Decline"
        assert active["escape"] == "Cancel"
        assert active["c"] == "Copy URL"


async def test_the_browser_gets_exactly_the_full_url_shown(browser_env: Any) -> None:
    """An internationalised host: the Full URL line is the A-label form, the browser's argv is
    exactly that line, the clipboard too; the Unicode spelling is only shown beside it."""
    app = ConsentHost(url_request("https://аpple.com/login?next=ü"))  # Cyrillic а
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = text_of(app, "#url-full")
        assert shown == "https://xn--pple-43d.com/login?next=ü"
        assert text_of(app, "#url-full-unicode") == "shown as https://аpple.com/login?next=ü"
        assert text_of(app, "#url-host").startswith("https://xn--pple-43d.com")
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == shown
        await pilot.press("ctrl+s")
        await settle(pilot, app)
    assert browser_env.calls() == [[shown]]
    assert [o.action for o in app.outcomes if o] == ["accept"]


async def test_an_ascii_host_has_no_shown_as_line(browser_env: Any) -> None:
    app = ConsentHost(url_request())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not consent(app).query("#url-full-unicode")


async def test_a_host_idna2008_and_transitional_disagree_on_is_refused(browser_env: Any) -> None:
    app = ConsentHost(url_request("https://faß.de/"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not consent(app).verdict.allowed
        reasons = text_of(app, "#url-reasons")
        assert "xn--fa-hia.de" in reasons and "fass.de" in reasons
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert browser_env.calls() == []
    assert [o.action for o in app.outcomes if o] == ["decline"]
