"""Opening a checked URL: exactly the string, one argument, no shell, never a console browser."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.untrusted import one_line
from mcp_tui.url import browser
from mcp_tui.url.browser import (
    BrowserCommand,
    BrowserController,
    OpenResult,
    find_browsers,
    is_console_browser,
    open_in_browser,
    open_url_async,
)
from mcp_tui.url.check import UrlVerdict, check_url

SHOWN = "https://accounts.example.com/oauth?state=a1&redirect=https%3A%2F%2Fx.example%2F#top"


def env(**variables: str) -> dict[str, str]:
    """A controlled environment: no display unless given, the real PATH for the interpreter."""
    return {"PATH": os.environ.get("PATH", ""), **variables}


def test_opens_exactly_the_shown_url_as_one_argument(recorder: Any) -> None:
    # Shell metacharacters, quotes and webbrowser's own placeholders stay exactly as written.
    url = "https://example.com/a;b$(id)`x`&c|d'e\"f?q=%s&r=%action#%25s"
    verdict = check_url(url)
    assert verdict.allowed
    result = open_in_browser(verdict, environ=env(BROWSER=str(recorder.script)))
    assert result.opened, result.error
    assert result.url == url
    assert recorder.calls() == [[url]]


def test_an_international_host_reaches_the_browser_in_a_label_form(recorder: Any) -> None:
    """The browser gets the identity the user was told to check, never the Unicode spelling
    (whose display the browser's own IDN policy would decide)."""
    verdict = check_url("https://аpple.com/login?next=ü")
    assert verdict.allowed
    result = open_in_browser(verdict, environ=env(BROWSER=str(recorder.script)))
    assert result.opened, result.error
    assert recorder.calls() == [["https://xn--pple-43d.com/login?next=ü"]]


def test_a_verdict_with_a_unicode_host_is_not_opened(recorder: Any) -> None:
    forged = UrlVerdict(url="https://аpple.com/", allowed=True, scheme="https", host="x")
    result = open_in_browser(forged, environ=env(BROWSER=str(recorder.script)))
    assert not result.opened
    assert result.error is not None and "xn--pple-43d.com" in result.error
    assert recorder.calls() == []


def test_browser_template_with_percent_s(recorder: Any) -> None:
    result = open_in_browser(
        check_url(SHOWN), environ=env(BROWSER=f"{recorder.script} --new-tab %s &")
    )
    assert result.opened, result.error
    assert recorder.calls() == [["--new-tab", SHOWN]]


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://evil.example\\@trusted.example/",
        "-https://example.com/",
        "http://example.com/",
        "https://example.com/\x1b]52;c;aGk=\x07",
    ],
)
def test_refused_urls_never_open(recorder: Any, url: str) -> None:
    result = open_in_browser(check_url(url), environ=env(BROWSER=str(recorder.script)))
    assert not result.opened
    assert result.error is not None and "refused" in result.error
    assert recorder.calls() == []


@pytest.mark.parametrize(
    "url", ["-https://example.com/", "--remote-debugging-port=9222", "javascript:alert(1)"]
)
def test_a_forged_allowed_verdict_is_checked_again(recorder: Any, url: str) -> None:
    forged = UrlVerdict(url=url, allowed=True, scheme="https", host="example.com")
    result = open_in_browser(forged, environ=env(BROWSER=str(recorder.script)))
    assert not result.opened
    assert recorder.calls() == []


def test_console_browser_named_in_browser_variable_is_refused(make_recorder: Any) -> None:
    lynx = make_recorder("lynx")
    result = open_in_browser(check_url(SHOWN), environ=env(BROWSER=str(lynx.script)))
    assert not result.opened
    assert result.error is not None and "console browser" in result.error
    assert "open it yourself" in result.error
    assert lynx.calls() == []


def test_console_browser_behind_a_link_is_refused(make_recorder: Any, tmp_path: Path) -> None:
    w3m = make_recorder("w3m")
    disguised = tmp_path / "my-browser"
    disguised.symlink_to(w3m.script)
    assert is_console_browser(str(disguised))
    result = open_in_browser(check_url(SHOWN), environ=env(BROWSER=str(disguised)))
    assert not result.opened
    assert w3m.calls() == []


def test_falls_through_missing_and_failing_entries(make_recorder: Any, tmp_path: Path) -> None:
    failing = make_recorder("failing-browser", body="sys.exit(3)\n")
    good = make_recorder("good-browser")
    choices = os.pathsep.join([str(tmp_path / "missing"), str(failing.script), str(good.script)])
    result = open_in_browser(check_url(SHOWN), environ=env(BROWSER=choices))
    assert result.opened
    # The label is the entry cut to 80 characters (a long temporary path loses its tail).
    assert result.browser == f"$BROWSER ({one_line(str(good.script), limit=80)})"
    assert failing.calls() == [[SHOWN]]
    assert good.calls() == [[SHOWN]]
    assert any("not found" in s for s in result.skipped)
    assert any("status 3" in s for s in result.skipped)


def test_failure_is_reported_with_reason(make_recorder: Any) -> None:
    failing = make_recorder("failing-browser", body="sys.exit(3)\n")
    result = open_in_browser(check_url(SHOWN), environ=env(BROWSER=str(failing.script)))
    assert result == OpenResult(opened=False, url=SHOWN, error=result.error, skipped=result.skipped)
    assert result.error is not None
    assert "exited with status 3" in result.error
    assert "no graphical display" in result.error


def test_no_display_and_no_browser_says_so() -> None:
    result = open_in_browser(check_url(SHOWN), environ=env())
    assert not result.opened
    assert result.error is not None and "no graphical display" in result.error


def test_browser_output_never_reaches_the_terminal(
    make_recorder: Any, capfd: pytest.CaptureFixture[str]
) -> None:
    noisy = make_recorder(
        "noisy-browser",
        body=(
            "import os\n"
            "print('Gtk-WARNING: chatter on stdout', flush=True)\n"
            "sys.stderr.write('ATTENTION: chatter on stderr\\n')\n"
            "sys.stdout.write(repr(sys.stdin.read()))\n"
            "try:\n"
            "    open('/dev/tty')\n"
            "    print('HAS A TERMINAL')\n"
            "except OSError:\n"
            "    pass\n"
        ),
    )
    result = open_in_browser(check_url(SHOWN), environ=env(BROWSER=str(noisy.script)))
    assert result.opened, result.error
    assert noisy.calls() == [[SHOWN]]
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_a_browser_still_running_after_the_grace_period_has_opened(
    make_recorder: Any, tmp_path: Path
) -> None:
    pid_file = tmp_path / "pid"
    slow = make_recorder(
        "slow-browser",
        body=f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "time.sleep(60)\n",
    )
    try:
        result = open_in_browser(check_url(SHOWN), environ=env(BROWSER=str(slow.script)), grace=0.3)
        assert result.opened, result.error
        assert slow.calls() == [[SHOWN]]
    finally:
        if pid_file.exists():
            os.kill(int(pid_file.read_text()), signal.SIGTERM)


# --- choosing browsers ----------------------------------------------------------------------


def fake_which(*present: str) -> Any:
    return lambda name: f"/usr/bin/{name}" if os.path.basename(name) in present else None


def test_desktop_openers_in_order_and_console_browsers_skipped() -> None:
    which = fake_which("xdg-open", "firefox", "lynx", "w3m", "www-browser")
    candidates, skipped = find_browsers(
        {"DISPLAY": ":0", "TERM": "xterm", "BROWSER": "lynx:w3m"}, platform="linux", which=which
    )
    assert [c.name for c in candidates] == ["xdg-open", "firefox"]
    assert all(isinstance(c, BrowserCommand) for c in candidates)
    assert len([s for s in skipped if "console browser" in s]) == 2


def test_no_display_means_no_desktop_opener_even_if_installed() -> None:
    which = fake_which("xdg-open", "firefox", "lynx")
    candidates, skipped = find_browsers({"TERM": "xterm"}, platform="linux", which=which)
    assert candidates == []
    assert any("no graphical display" in s for s in skipped)


def test_wayland_counts_as_a_display() -> None:
    candidates, _ = find_browsers(
        {"WAYLAND_DISPLAY": "wayland-0"}, platform="linux", which=fake_which("gio")
    )
    assert [c.command_line(SHOWN) for c in candidates if isinstance(c, BrowserCommand)] == [
        ["gio", "open", "--", SHOWN]
    ]


def test_macos_and_windows_use_the_system_opener() -> None:
    mac, _ = find_browsers({}, platform="darwin", which=fake_which("open"))
    assert isinstance(mac[0], BrowserCommand) and mac[0].command_line(SHOWN) == ["open", SHOWN]
    windows, _ = find_browsers({}, platform="win32", which=fake_which())
    assert all(isinstance(c, BrowserController) for c in windows)


def test_command_line_substitutes_once_and_never_rescans() -> None:
    command = BrowserCommand("x", ("browser", "--url=%s", "--literal"))
    url = "https://example.com/%s/%action"
    assert command.command_line(url) == ["browser", f"--url={url}", "--literal"]
    assert BrowserCommand("y", ("browser",)).command_line(url) == ["browser", url]


# --- off the event loop -----------------------------------------------------------------------


@pytest.mark.anyio
async def test_open_url_async_runs_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def fake_open(verdict: UrlVerdict, **_: Any) -> OpenResult:
        seen.append(threading.get_ident())
        return OpenResult(True, verdict.url, browser="fake")

    monkeypatch.setattr(browser, "open_in_browser", fake_open)
    result = await open_url_async(check_url(SHOWN))
    assert result.opened and result.url == SHOWN
    assert seen and seen[0] != threading.get_ident()


@pytest.mark.anyio
async def test_open_url_async_opens_through_browser_variable(browser_env: Any) -> None:
    result = await open_url_async(check_url(SHOWN))
    assert result.opened, result.error
    assert browser_env.calls() == [[SHOWN]]
