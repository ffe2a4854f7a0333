"""Regenerate ``screenshots/``: the real widgets, on the bundled demo server and its schemas.

Run from anywhere: ``python scripts/screenshots.py [--only NAME ...] [--out DIR]``. For each image
it writes ``NAME.svg`` (Textual's own export) and, when ``rsvg-convert`` is installed, ``NAME.png``.

One mcp-tui app connects to the demo server over stdio (2025-11-25, so the -32042 flow shows) and
everything is drawn on top of it, exactly as a user sees it:

- one form per field kind, built from the demo's own ``requestedSchema``s (text and formats,
  numbers, a boolean confirmation, a select, a multi-select, a long filterable select, an
  empty-schema confirmation, and a form with its errors shown);
- the URL consent screen (a sample with every warning: an internationalised look-alike host and an
  unusual port);
- the session screen with a transcript (real calls, a form answered, a tool's progress), the
  waiting row of an accepted URL request, the JSON-RPC traffic view and the help screen;
- the wire beside a form (F6), and ``mcp-tui demo --tour`` at its first form.

Nothing is opened: ``$BROWSER`` is set to ``true`` for the run, and the demo's connect page is
pressed with a plain HTTP request, as a user would in the browser.

Textual's SVG puts each run of text in its own ``<text>`` element; without
``xml:space="preserve"`` renderers such as librsvg drop the spaces between runs ("github-toolsasks
you"), so the attribute is added to every SVG written here.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from textual.pilot import Pilot  # noqa: E402

from mcp_tui.cli.demo import demo_stdio_spec  # noqa: E402
from mcp_tui.config.options import AppOptions  # noqa: E402
from mcp_tui.demo.booking import EXTRAS_SCHEMA, VISIT_SCHEMA  # noqa: E402
from mcp_tui.demo.forms import (  # noqa: E402
    EMPTY_SCHEMA,
    PREFERENCES_SCHEMA,
    SURVEY,
    choose_schema,
    delete_schema,
)
from mcp_tui.demo.state import default_projects  # noqa: E402
from mcp_tui.schema.parse import parse_requested_schema  # noqa: E402
from mcp_tui.session.elicitation import ElicitationRequest  # noqa: E402
from mcp_tui.session.events import ConnectionState  # noqa: E402
from mcp_tui.ui.app import McpTuiApp  # noqa: E402
from mcp_tui.ui.app.help import HelpScreen  # noqa: E402
from mcp_tui.ui.arming_delay import ARMING  # noqa: E402
from mcp_tui.ui.screens.confirm import ConfirmScreen  # noqa: E402
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen  # noqa: E402
from mcp_tui.ui.screens.url_consent import UrlConsentScreen  # noqa: E402

FORM_SIZE = (100, 30)
SESSION_SIZE = (120, 36)
#: The wire panel sits beside the form from 120 columns.
WIRE_SIZE = (120, 32)
#: ``--tour``: the form, the wire beside it and the tour's note.
TOUR_SIZE = (120, 36)
TITLE = "mcp-tui"

Schema = dict[str, Any]


def pick(schema: Schema, *names: str) -> Schema:
    """A copy of ``schema`` with only ``names`` (in that order)."""
    required = [n for n in schema.get("required", []) if n in names]
    properties = {n: schema["properties"][n] for n in names}
    return {"type": "object", "properties": properties, "required": required}


def numbers_schema() -> Schema:
    """The demo's numbers: a bounded float, a bounded integer, and the survey's required stars."""
    schema = pick(PREFERENCES_SCHEMA, "volume", "page_size")
    stars = SURVEY["rating"][1]["properties"]["stars"]
    schema["properties"]["stars"] = stars
    schema["required"] = ["stars"]
    return schema


PROJECTS = default_projects()
API_PROJECTS = [p for p in PROJECTS.values() if "api" in p.name]

#: name -> (tool, message, schema, keys pressed before the picture)
FORMS: dict[str, tuple[str, str, Schema, tuple[str, ...]]] = {
    "form-text": (
        "set_preferences",
        "Review your preferences.",
        pick(PREFERENCES_SCHEMA, "display_name", "email", "homepage", "birthday", "digest_at"),
        (),
    ),
    "form-numbers": (
        "set_preferences",
        "Review your preferences.",
        numbers_schema(),
        ("tab",),
    ),
    "form-boolean": (
        "delete_project",
        f"Delete the project {API_PROJECTS[0].name} ({API_PROJECTS[0].title})? "
        "This cannot be undone.",
        delete_schema(API_PROJECTS[0]),
        (),
    ),
    "form-select": (
        "open_project",
        f"{len(API_PROJECTS)} projects match 'api'. Which one did you mean?",
        choose_schema(API_PROJECTS),
        ("enter", "down", "down"),
    ),
    "form-multiselect": (
        "book_table",
        "Step 3 of 3: anything the kitchen should know? Both fields are optional.",
        EXTRAS_SCHEMA,
        ("space", "down", "down", "space"),
    ),
    "form-long-select": (
        "set_preferences",
        "Review your preferences.",
        pick(PREFERENCES_SCHEMA, "time_zone"),
        tuple("europe/"),
    ),
    "form-confirm": (
        "confirm_action",
        "Please confirm: publish the release notes.",
        EMPTY_SCHEMA,
        (),
    ),
    "form-errors": (
        "book_table",
        "Step 1 of 3: when would you like to come, and how many of you?",
        VISIT_SCHEMA,
        (*"2031-02-30", "tab", "end", "backspace", *"40", "ctrl+s"),
    ),
}

URL_SAMPLE = ElicitationRequest(
    server="github-tools",
    message="To list your private repositories, sign in to GitHub and authorise mcp-tui.",
    mode="url",
    url="https://login.xn--80ak6aa92e.com:8443/oauth/authorize?client_id=mcp-tui"
    "&state=8f3a9c2e7d1b4a6f&scope=repo%20read%3Auser",
    elicitation_id="el-7",
    tool="list_repos",
)


# --- writing -------------------------------------------------------------------------------------


def preserve_spaces(svg: str) -> str:
    """Add ``xml:space="preserve"`` to the root element (see the module docstring)."""
    if "xml:space=" in svg[:400]:
        return svg
    return svg.replace("<svg ", '<svg xml:space="preserve" ', 1)


def write(app: McpTuiApp, out: Path, name: str, written: list[Path]) -> None:
    svg_path = out / f"{name}.svg"
    svg_path.write_text(preserve_spaces(app.export_screenshot(title=TITLE)), encoding="utf-8")
    written.append(svg_path)
    converter = shutil.which("rsvg-convert")
    if converter is not None:
        png_path = out / f"{name}.png"
        subprocess.run([converter, "-o", str(png_path), str(svg_path)], check=True)
        written.append(png_path)


# --- driving the app -----------------------------------------------------------------------------


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 30) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise TimeoutError("the app never reached the state this screenshot needs")


def press_page(url: str) -> None:
    """What the user does in the browser: open the connect page and press its button."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=10) as page:
        html = page.read().decode()
    action = re.search(r"<form method='post' action='([^']+)'>", html)
    if action is None:
        raise RuntimeError("the demo's connect page has no form")
    opener.open(urllib.request.Request(urljoin(url, action.group(1)), b""), timeout=10).close()


async def forms(app: McpTuiApp, pilot: Pilot[None], shoot: Callable[[str], None]) -> None:
    for name, (tool, message, schema, keys) in FORMS.items():
        if not wanted(name):
            continue
        request = ElicitationRequest(
            "demo", message, "form", form=parse_requested_schema(schema), tool=tool
        )
        screen = ElicitationScreen(request)
        app.push_screen(screen)
        await until(pilot, lambda s=screen: app.screen is s)  # type: ignore[misc]
        await pilot.pause(0.3)
        for key in keys:
            await pilot.press(key)
        await pilot.pause(0.3)
        shoot(name)
        screen.dismiss(None)
        await until(pilot, lambda s=screen: app.screen is not s)  # type: ignore[misc]
    if wanted("url-consent"):
        consent = UrlConsentScreen(URL_SAMPLE)
        app.push_screen(consent)
        await until(pilot, lambda: app.screen is consent)
        await pilot.pause(0.3)
        shoot("url-consent")
        consent.dismiss(None)
        await until(pilot, lambda: app.screen is not consent)


async def wire(app: McpTuiApp, pilot: Pilot[None], shoot: Callable[[str], None]) -> None:
    """Step 1 of the booking with the wire shown (F6): a date typed, a party size too big."""
    request = ElicitationRequest(
        "demo",
        "Step 1 of 3: when would you like to come, and how many of you?",
        "form",
        form=parse_requested_schema(VISIT_SCHEMA),
        tool="book_table",
    )
    screen = ElicitationScreen(request)
    app.push_screen(screen)
    await until(pilot, lambda: app.screen is screen)
    await pilot.pause(0.3)
    await pilot.press(*"2031-03-14", "tab", "end", "backspace", *"4", "f6")
    await until(pilot, lambda: bool(screen.query("#wire-answer")))
    await pilot.pause(0.5)
    shoot("wire")
    screen.dismiss(None)


async def tour(app: McpTuiApp, pilot: Pilot[None], shoot: Callable[[str], None]) -> None:
    """``mcp-tui demo --tour``, step 2: the demo's form with every field kind, the wire beside
    it and the tour's note below, a field changed."""
    guide = app.tour
    assert guide is not None
    await until(pilot, lambda: guide.index == 0)
    await pilot.press("space")
    await until(pilot, lambda: isinstance(app.screen, ElicitationScreen))
    screen = app.screen
    await until(pilot, lambda: bool(screen.query("#wire-answer")))
    await pilot.pause(0.3)
    await pilot.press("tab", "end", *".uk")
    await pilot.pause(0.5)
    shoot("tour")
    await pilot.press("ctrl+s")
    await until(pilot, lambda: not guide.running)


def transcript_has(app: McpTuiApp, text: str) -> bool:
    session = app.session
    return session is not None and any(text in e.full for e in session.areas.transcript.entries)


async def session(app: McpTuiApp, pilot: Pilot[None], shoot: Callable[[str], None]) -> None:
    session = app.session
    assert session is not None
    session.calls.call_tool("demo", "search_issues", {"query": "forms", "state": "all", "limit": 3})
    await until(pilot, lambda: transcript_has(app, "structured content"))
    session.calls.call_tool("demo", "confirm_action", {"action": "publish the release notes"})
    await until(pilot, lambda: isinstance(app.screen, ElicitationScreen))
    await pilot.pause(0.2)
    await pilot.press("ctrl+s")
    await until(pilot, lambda: transcript_has(app, "Confirmed: publish the release notes."))
    session.calls.call_tool("demo", "list_files", {"folder": "/reports"})
    await until(pilot, lambda: isinstance(app.screen, UrlConsentScreen))
    consent = app.screen
    assert isinstance(consent, UrlConsentScreen)
    url = consent.verdict.url
    await pilot.pause(0.2)
    await pilot.press("ctrl+s")
    await until(pilot, lambda: bool(app.url_waits.waiting))
    session.calls.call_tool("demo", "long_task", {"duration": 4, "steps": 8})
    await pilot.pause(1.6)
    session.areas.transcript.scroll_end(animate=False)
    await pilot.pause(0.5)
    if wanted("session-waiting"):
        shoot("session-waiting")
    await asyncio.to_thread(press_page, url)
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.pause(0.2)
    await pilot.press("y")
    await until(pilot, lambda: transcript_has(app, "Files in /reports"))
    await until(pilot, lambda: transcript_has(app, "Finished"), 15)
    await pilot.pause(0.3)
    session.areas.transcript.scroll_end(animate=False)
    await pilot.pause(0.5)
    if wanted("session"):
        shoot("session")
    if wanted("traffic"):
        await pilot.press("t")
        await pilot.pause(0.5)
        shoot("traffic")
        await pilot.press("t")
    if wanted("help"):
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause(0.3)
        shoot("help")
        await pilot.press("escape")


# --- main ---------------------------------------------------------------------------------------

ONLY: set[str] = set()


def wanted(name: str) -> bool:
    return not ONLY or name in ONLY


async def run_app(
    size: tuple[int, int], out: Path, scene: Scene, *, tour: bool = False
) -> list[Path]:
    written: list[Path] = []
    options = AppOptions(stderr_log=Path(os.devnull), tour=tour)
    app = McpTuiApp([demo_stdio_spec("legacy")], options)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.entries["demo"].state is ConnectionState.READY, 60)
        await until(pilot, lambda: bool(app.entries["demo"].tools))
        await pilot.pause(0.3)
        await scene(app, pilot, lambda name: write(app, out, name, written))
    return written


Scene = Callable[[McpTuiApp, Pilot[None], Callable[[str], None]], Awaitable[None]]


async def main_async(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    os.environ["BROWSER"] = "true"  # "opens" every page without opening anything
    # Screens that answer a server ignore Ctrl+S for a moment after they appear (arming): the
    # scenes press it at once, and each shot shows a screen as it looks once it is live.
    ARMING.delay = 0
    written = await run_app(FORM_SIZE, out, forms)
    if wanted("wire"):
        written += await run_app(WIRE_SIZE, out, wire)
    if wanted("tour"):
        written += await run_app(TOUR_SIZE, out, tour, tour=True)
    if wanted("session") or wanted("traffic") or wanted("session-waiting") or wanted("help"):
        written += await run_app(SESSION_SIZE, out, session)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="only these image names")
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots", help="output folder")
    args = parser.parse_args()
    ONLY.update(args.only)
    for path in asyncio.run(main_async(args.out)):
        print(path)


if __name__ == "__main__":
    main()
