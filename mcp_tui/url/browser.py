"""Open a checked URL in the user's graphical browser, and nothing else, never over the TUI.

Follows :mod:`webbrowser`'s conventions — ``$BROWSER`` first (entries separated by
``os.pathsep``, ``%s`` marking where the URL goes), then the platform's usual openers — with
three differences that a full-screen terminal program needs:

- **No console browsers.** ``www-browser``, ``links``, ``elinks``, ``lynx``, ``w3m`` and friends
  run in the same terminal and block until they exit; :mod:`webbrowser` registers them whenever
  ``TERM`` is set. They are skipped, also when ``$BROWSER`` names them (or a link to them).
- **Nothing reaches the terminal.** :mod:`webbrowser` starts browsers with our own stdin, stdout
  and stderr, so Firefox's and xdg-open's chatter would be written over the Textual screen. Here
  every command runs with its standard streams on ``/dev/null`` in a new session (no controlling
  terminal), so even a console browser started indirectly by ``xdg-open`` cannot take it over.
- **A clear answer.** :mod:`webbrowser` returns ``False`` with no reason when there is no display,
  and its background launcher reports success only if the command is *still running* a moment
  later. Here a command that exits 0, or is still running after a short grace period, has opened
  the page; anything else is a failure with a reason the user can read.

The URL is passed as exactly one argument, exactly as the user saw it (``verdict.url``: an
internationalised host in its A-label form), never through a shell; :func:`open_in_browser`
re-checks it first, so a refused URL, one starting with ``-`` or one not in the form the check
gives (a Unicode host) can never reach a browser. It blocks for up to ``grace`` seconds: call
:func:`open_url_async` from async code (it runs in a worker thread). macOS and Windows use the
system opener (``open``, or :mod:`webbrowser`'s own controllers) as a fallback.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
import webbrowser
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import anyio.to_thread

from mcp_tui.untrusted import one_line
from mcp_tui.url.check import UrlVerdict, check_url

#: Text-mode browsers: they would take over the terminal the TUI is drawn on.
CONSOLE_BROWSERS = frozenset(
    {"www-browser", "links", "links2", "elinks", "lynx", "w3m", "browsh", "carbonyl", "edbrowse"}
)

#: How long a launched command may run before we take "still running" to mean "opened".
DEFAULT_GRACE_SECONDS = 2.0

# Graphical openers tried on Unix desktops, in :mod:`webbrowser`'s order; "%s" is the URL.
_UNIX_OPENERS: tuple[tuple[str, ...], ...] = (
    ("xdg-open", "%s"),
    ("gio", "open", "--", "%s"),
    ("x-www-browser", "%s"),
    ("firefox", "%s"),
    ("google-chrome", "%s"),
    ("chromium", "%s"),
    ("chromium-browser", "%s"),
    ("brave-browser", "%s"),
    ("microsoft-edge", "%s"),
    ("epiphany", "%s"),
    ("konqueror", "%s"),
    ("opera", "%s"),
)


@dataclass(frozen=True)
class OpenResult:
    """What happened when the user asked to open ``url``.

    ``opened`` is true when a browser accepted the URL; ``browser`` names it. Otherwise ``error``
    says why, for the user, and the URL stays available to copy. ``skipped`` lists the browsers
    passed over or tried without success, with the reason for each.
    """

    opened: bool
    url: str
    browser: str | None = None
    error: str | None = None
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True)
class BrowserCommand:
    """A command that opens a URL: ``argv`` with ``%s`` where the URL goes (appended if absent)."""

    name: str
    argv: tuple[str, ...]

    def command_line(self, url: str) -> list[str]:
        """The argument list for ``url``: the URL is substituted once, never re-scanned."""
        if not any("%s" in arg for arg in self.argv):
            return [*self.argv, url]
        return [url.join(arg.split("%s")) if "%s" in arg else arg for arg in self.argv]


@dataclass(frozen=True)
class BrowserController:
    """A :mod:`webbrowser` controller (macOS AppleScript, Windows ``startfile``)."""

    name: str
    controller: webbrowser.BaseBrowser


Candidate = BrowserCommand | BrowserController
Which = Callable[[str], str | None]


def is_console_browser(command: str, which: Which = shutil.which) -> bool:
    """True if ``command`` (a name or path) is, or links to, a text-mode browser."""
    names = {os.path.basename(command)}
    found = which(command)
    if found:
        names.add(os.path.basename(os.path.realpath(found)))
    return any(name.lower().removesuffix(".exe") in CONSOLE_BROWSERS for name in names)


def find_browsers(
    environ: Mapping[str, str] | None = None,
    *,
    platform: str = sys.platform,
    which: Which = shutil.which,
) -> tuple[list[Candidate], list[str]]:
    """The browsers to try, in order, and the ones skipped with the reason for each."""
    env = os.environ if environ is None else environ
    candidates: list[Candidate] = []
    skipped: list[str] = []

    def add(name: str, argv: tuple[str, ...]) -> None:
        if not argv or not argv[0]:
            return
        if is_console_browser(argv[0], which):
            skipped.append(f"{name}: a console browser would take over the terminal")
        elif which(argv[0]) is None:
            skipped.append(f"{name}: not found")
        else:
            candidates.append(BrowserCommand(name, argv))

    for entry in env.get("BROWSER", "").split(os.pathsep):
        if not entry.strip():
            continue
        label = f"$BROWSER ({one_line(entry, limit=80)})"
        if "%s" in entry:
            try:
                argv = shlex.split(entry)
            except ValueError:
                skipped.append(f"{label}: cannot be split into a command")
                continue
            if argv and argv[-1] == "&":
                argv.pop()
            add(label, tuple(argv))
        else:
            add(label, (entry, "%s"))

    if platform == "darwin":
        add("open", ("open", "%s"))
        _add_controller(candidates, skipped, "macOS default browser", "MacOSX")
    elif platform.startswith("win"):
        _add_controller(candidates, skipped, "Windows default browser", "windows-default")
    elif env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        for opener in _UNIX_OPENERS:
            if which(opener[0]) is not None:
                add(opener[0], opener)
    else:
        skipped.append("no graphical display ($DISPLAY and $WAYLAND_DISPLAY are not set)")
    return candidates, skipped


def _add_controller(
    candidates: list[Candidate], skipped: list[str], label: str, registered_name: str
) -> None:
    """Add :mod:`webbrowser`'s own controller for the platform's default browser."""
    try:
        candidates.append(BrowserController(label, webbrowser.get(registered_name)))
    except webbrowser.Error:
        skipped.append(f"{label}: not available")


def _launch(argv: list[str], grace: float) -> str | None:
    """Start ``argv`` detached from the terminal; ``None`` if it opened, else the reason."""
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,
        )
    except OSError as exc:
        return f"could not be started ({exc.strerror or exc})"
    try:
        status = process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        return None  # still running: a browser that stayed open
    return None if status == 0 else f"exited with status {status}"


def _try(candidate: Candidate, url: str, grace: float) -> str | None:
    sys.audit("webbrowser.open", url)
    if isinstance(candidate, BrowserCommand):
        return _launch(candidate.command_line(url), grace)
    try:
        return None if candidate.controller.open(url) else "did not open the page"
    except (OSError, webbrowser.Error) as exc:
        return f"failed ({exc})"


def open_in_browser(
    verdict: UrlVerdict,
    *,
    environ: Mapping[str, str] | None = None,
    grace: float = DEFAULT_GRACE_SECONDS,
) -> OpenResult:
    """Open exactly ``verdict.url`` if it is allowed (checked again here). Blocks up to ``grace``.

    Never raises for an ordinary failure: the result says what went wrong.
    """
    url = verdict.url
    again = check_url(url)
    if not verdict.allowed or not again.allowed or url.startswith("-"):
        reasons = "; ".join(verdict.reasons or again.reasons) or "it is not allowed"
        return OpenResult(False, url, error=f"This URL is refused and was not opened: {reasons}")
    if again.url != url:  # a verdict built by hand with the host in Unicode: not what was shown
        return OpenResult(
            False,
            url,
            error=f"This URL was not opened: its host must be written as {again.host}.",
        )
    candidates, skipped = find_browsers(environ)
    tried: list[str] = []
    for candidate in candidates:
        problem = _try(candidate, url, grace)
        if problem is None:
            return OpenResult(True, url, browser=candidate.name, skipped=tuple(skipped + tried))
        tried.append(f"{candidate.name}: {problem}")
    details = "; ".join(skipped + tried) or "no browser is known on this system"
    return OpenResult(
        False,
        url,
        error=f"No browser could be opened ({details}). Copy the URL and open it yourself.",
        skipped=tuple(skipped + tried),
    )


async def open_url_async(
    verdict: UrlVerdict,
    *,
    environ: Mapping[str, str] | None = None,
    grace: float = DEFAULT_GRACE_SECONDS,
) -> OpenResult:
    """:func:`open_in_browser` in a worker thread, so the event loop never waits on a browser."""
    call = functools.partial(open_in_browser, verdict, environ=environ, grace=grace)
    return await anyio.to_thread.run_sync(call)
