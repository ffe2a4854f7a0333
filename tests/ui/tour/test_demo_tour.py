"""``mcp-tui demo --tour`` from its first step to its last, on both protocol eras.

The app is built as ``mcp-tui demo --tour --log FILE`` builds it, at 80x24 (the forms keep their
fields with the wire summarised under them; ``test_tour_small_screen.py`` has the details, the
snapshots the 120x40 layout); Pilot plays the presenter:
Space or → on the session screen for the next step, the keys each step's note names in the
forms (Space in a form types a space: the test checks it did not advance the tour). What the
demo server received is read from its side: each tool's result (the demo says what it got) and
the answers in the ``--log`` traffic file. ``$BROWSER`` only records the URL; the test presses
the demo page's button over plain HTTP, as the presenter would in the browser.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from mcp_tui.demo.booking import describe_day
from mcp_tui.demo.forms import PREFERENCES_SCHEMA
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from mcp_tui.ui.tour.guide import TourGuide
from mcp_tui.ui.tour.note import TourNote
from mcp_tui.ui.tour.script import STEPS
from mcp_tui.ui.widgets.request.sent_wire import SentWire
from mcp_tui.ui.widgets.request.wire_panel import WirePanel
from tests.ui.app.test_app_url_demo import browser_calls, press_page, recording_browser
from tests.ui.app.test_demo_tui import a_saturday
from tests.ui.demo_tui_kit import (
    ERAS,
    DemoRun,
    answers,
    clear_and_type,
    demo_app,
    expect_focus,
    final_text,
    gone,
    next_form,
    type_text,
    wait_until,
    wire_text,
)

pytestmark = pytest.mark.anyio

DEFAULTS = {name: p["default"] for name, p in PREFERENCES_SCHEMA["properties"].items()}
SMALL = (80, 24)


def guide(run: DemoRun) -> TourGuide:
    assert run.app.tour is not None
    return run.app.tour


def note_on(run: DemoRun) -> str:
    """The text of the tour's note on the screen shown now."""
    notes = list(run.app.screen.query(TourNote))
    assert len(notes) == 1, f"{len(notes)} notes on {run.app.screen!r}"
    return notes[0].plain()


async def step_over(run: DemoRun, number: int) -> None:
    """Wait until step ``number`` (1-based) has ended, back on the session screen."""
    tour = guide(run)
    await wait_until(
        run.pilot,
        lambda: (
            tour.index == number - 1
            and not tour.running
            and isinstance(run.app.screen, SessionScreen)
        ),
        f"step {number} over",
    )
    over = ("Space/→ next step", "the end")
    await wait_until(
        run.pilot,
        lambda: any(words in note_on(run) for words in over),
        f"the note of step {number} saying it is over",
    )


async def next_step(run: DemoRun, key: str, number: int) -> None:
    await run.pilot.press(key)
    await wait_until(run.pilot, lambda: guide(run).index == number - 1, f"step {number}")
    text = note_on(run)  # on the session screen, or on the form that opened already
    assert f"{number}/{len(STEPS)}" in text and STEPS[number - 1].title in text


async def consent(run: DemoRun) -> str:
    """The URL consent screen (with the tour's note), Ctrl+S; returns the URL it showed."""

    def showing() -> UrlConsentScreen | None:
        screen = run.app.screen
        return screen if isinstance(screen, UrlConsentScreen) and screen.is_mounted else None

    screen = await wait_until(run.pilot, showing, "the URL consent")
    await wait_until(run.pilot, lambda: screen.query(TourNote), "the note on the consent")
    url = screen.verdict.url
    await run.pilot.press("ctrl+s")
    await gone(run, screen)
    return url


def accepted(content: dict[str, object]) -> dict[str, object]:
    return {"action": "accept", "content": content}


@pytest.mark.parametrize("era", list(ERAS))
async def test_the_tour_runs_from_start_to_end(
    tmp_path: Path, era: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = recording_browser(tmp_path, monkeypatch)
    day = a_saturday()
    async with demo_app(tmp_path, era, size=SMALL, tour=True) as run:
        pilot, tour = run.pilot, guide(run)
        await wait_until(pilot, lambda: tour.index == 0, "step 1")
        assert "Tour · step 1/10 — Welcome" in note_on(run)
        assert run.app.wire_shown  # the tour turns the wire panel on

        # 2: every field kind. Space in a field types a space; it does not advance the tour.
        await next_step(run, "space", 2)
        form = await next_form(run, "Review your preferences.")
        assert form.query(WirePanel) and "Tour 2/10 · A form with every field kind" in note_on(run)
        await wait_until(pilot, lambda: form.has_class("-wire-split"), "the wire under the form")
        # The wire names where the params came from: a request, or the input_required result.
        received = (
            'input_required, inputRequests["preferences"]'
            if era == "2026-07-28"
            else ("elicitation/create")
        )
        assert f"← {received} params, as received" in str(
            form.query_one(WirePanel).query(".wire-title").last().render()
        )
        await expect_focus(run, "display_name")
        await pilot.press("end", "space", "right")
        await pilot.press("ctrl+s")
        await gone(run, form)
        await step_over(run, 2)
        prefs = {**DEFAULTS, "display_name": "Ada Lovelace "}
        assert json.loads(final_text(run.log, "set_preferences") or "") == accepted(prefs)
        sent = run.app.screen.query_one(SentWire)
        await wait_until(pilot, lambda: sent.display and sent.message, "the answer as sent")
        if era == "2026-07-28":  # scrolled to the part that carries the answer
            await wait_until(pilot, lambda: sent.scroll_y > 0, "the sent panel at inputResponses")

        # 3: validation: nothing goes out while the email is wrong.
        await next_step(run, "right", 3)
        form = await next_form(run, "Review your preferences.")
        await pilot.press("tab")
        await expect_focus(run, "email")
        await pilot.press("end", "@")
        panel = form.query_one(WirePanel)
        await wait_until(pilot, lambda: "email" in panel.blocked, "the wire naming the email")
        await pilot.press("ctrl+s")
        status = form.query_one("#elicitation-status")
        await wait_until(pilot, lambda: "Email" in str(status.render()), "the error shown")
        assert run.app.screen is form
        await pilot.press("backspace", "ctrl+s")
        await gone(run, form)
        await step_over(run, 3)
        assert json.loads(final_text(run.log, "set_preferences") or "") == accepted(DEFAULTS)

        # 4: decline.
        await next_step(run, "space", 4)
        form = await next_form(run, "Delete the project payments-api")
        await pilot.press("ctrl+r")
        await gone(run, form)
        await step_over(run, 4)
        assert final_text(run.log, "delete_project") == "Kept payments-api: you declined."

        # 5: cancel.
        await next_step(run, "space", 5)
        form = await next_form(run, "3 projects match 'api'")
        await pilot.press("escape")
        await gone(run, form)
        await step_over(run, 5)
        assert (
            final_text(run.log, "open_project") == "No project opened: the request was cancelled."
        )

        # 6: three forms in a row.
        await next_step(run, "space", 6)
        form = await next_form(run, "(step 1 of 3)")
        await expect_focus(run, "date")
        await type_text(run, day.isoformat())
        await pilot.press("tab")
        await clear_and_type(run, "party_size", "2")
        await pilot.press("ctrl+s")
        await gone(run, form)
        form = await next_form(run, "Step 2 of 3")
        await pilot.press("enter", "down", "enter", "ctrl+s")  # the first time offered
        await gone(run, form)
        form = await next_form(run, "Step 3 of 3")
        await pilot.press("ctrl+s")
        await gone(run, form)
        await step_over(run, 6)
        booked = f"Booked: a table for 2 people at Trattoria Demo on {describe_day(day)}"
        assert (final_text(run.log, "book_table") or "").startswith(booked)

        # 7: URL mode, with consent; the page's button pressed "in the browser".
        await next_step(run, "space", 7)
        url = await consent(run)
        assert "Connect" in await asyncio.to_thread(press_page, url)
        await step_over(run, 7)
        assert final_text(run.log, "connect_account") == "Connected as demo-user@example.com."

        # 8: -32042 on 2025-11-25 (the retry question), input_required on 2026-07-28.
        await next_step(run, "space", 8)
        second = await consent(run)
        await asyncio.to_thread(press_page, second)
        if era == "2025-11-25":
            await wait_until(pilot, lambda: isinstance(run.app.screen, ConfirmScreen), "retry?")
            await wait_until(pilot, lambda: run.app.screen.query(TourNote), "the dialog's note")
            drawn = [n for n in run.app.screen.query(TourNote) if n.display]
            session = run.app.session  # its note shows through the dialog, and is hidden
            assert session is not None and len(drawn) == 1
            assert not any(note.display for note in session.query(TourNote))
            await pilot.press("y")
        await step_over(run, 8)
        assert ("y to retry" in note_on(run)) is (era == "2025-11-25")
        listing = final_text(run.log, "list_files") or ""
        assert listing.startswith("Files in / of demo-user@example.com:")
        assert browser_calls(opened) == [[url], [second]]

        # 9: the input_required round, on 2026-07-28 only.
        await next_step(run, "space", 9)
        if era == "2025-11-25":
            await step_over(run, 9)
            assert "not on 2025-11-25" in note_on(run)
            assert "--mode 2026-07-28" in note_on(run)
        else:
            for question in ("How would you rate the demo so far?", "May we follow up"):
                form = await next_form(run, question)
                await pilot.press("ctrl+s")
                await gone(run, form)
            await step_over(run, 9)
            assert final_text(run.log, "quick_survey") == "Rating: 4/5.\nFollow-up: no."

        # 10: the end; the keys go on saying so.
        await next_step(run, "space", 10)
        await step_over(run, 10)
        assert "the end" in note_on(run)
        await pilot.press("space")
        assert tour.index == 9
        sent = answers(run, "quick_survey")

    if era == "2026-07-28":  # both answers went back in one call
        rating = accepted({"stars": 4})
        follow = accepted({"may_contact": False})
        assert wire_text(sent) == wire_text([{"rating": rating, "follow_up": follow}])
    else:  # every elicitation/create answered, in the order of the steps
        actions = [next(iter(a.values()))["action"] for a in sent]
        assert actions == ["accept", "accept", "decline", "cancel"] + ["accept"] * 4
