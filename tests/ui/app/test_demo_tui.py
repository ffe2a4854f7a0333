"""Every demo flow, end to end through the real TUI on the bundled demo server, on both eras.

The app is built as ``mcp-tui demo --call TOOL --log FILE`` builds it (the demo over stdio from
this Python); Pilot plays the user, key by key. Each test checks three things: what the user saw
(the form, its fields, the transcript), the exact JSON mcp-tui sent (from the ``--log`` traffic
file, with exact JSON types: ``4`` is not ``4.0``, ``false`` is not absent), and what the demo
said it received (its result). The URL flows and the -32042 retry are in
``test_app_url_demo.py``; this file covers the rest:

- ``book_table``: three forms in a row (date and party size; a time slot; dietary needs and a
  note), and a decline at step 2;
- ``delete_project`` (boolean, default false), ``open_project`` (titled single-select),
  ``set_preferences`` (every field kind, untouched), ``quick_survey`` (two forms: one round on
  2026-07-28, with the queue count shown), ``confirm_action`` (empty schema);
- ``long_task`` (progress bar and logs), ``search_issues`` as a nested form, a resource read and
  a prompt get, from the catalog.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import ProgressBar

from mcp_tui.demo.booking import booking_reference, describe_day
from mcp_tui.demo.forms import PREFERENCES_SCHEMA
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.widgets.session.running_calls import RunningCall
from tests.ui.app_testkit import events_shown, open_node
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
    row,
    tool_calls,
    type_text,
    wait_until,
    wire_text,
)

pytestmark = pytest.mark.anyio

ERA = pytest.mark.parametrize("era", list(ERAS))


def a_saturday() -> date:
    """A Saturday two to three weeks ahead: open, in the future, with lunch and dinner slots."""
    day = date.today() + timedelta(days=14)
    return day + timedelta(days=(5 - day.weekday()) % 7)


def accepted(content: dict[str, Any]) -> dict[str, Any]:
    return {"action": "accept", "content": content}


async def arguments_screen(run: DemoRun) -> ArgumentsScreen:
    def showing() -> ArgumentsScreen | None:
        screen = run.app.screen
        return screen if isinstance(screen, ArgumentsScreen) else None

    screen = await wait_until(run.pilot, showing, "the arguments form")
    await run.pilot.pause()
    return screen


async def fill_step_one(run: DemoRun, day: date, party: int) -> ElicitationScreen:
    """Step 1: type the date, Tab, replace the default party size; Ctrl+S."""
    step1 = await next_form(run, "(step 1 of 3)")
    await expect_focus(run, "date")
    await type_text(run, day.isoformat())
    await run.pilot.press("tab")
    await clear_and_type(run, "party_size", str(party))
    await run.pilot.press("ctrl+s")
    await gone(run, step1)
    return step1


# ---- book_table -------------------------------------------------------------------------------


@ERA
async def test_book_table_three_forms_send_exact_answers(tmp_path: Path, era: str) -> None:
    day = a_saturday()
    async with demo_app(tmp_path, era, "book_table") as run:
        step1 = await fill_step_one(run, day, 4)

        step2 = await next_form(
            run, f"Step 2 of 3: choose a time for 4 people on {describe_day(day)}"
        )
        assert step2 is not step1
        [time_field] = step2.form_spec.fields
        titles = [o.label for o in time_field.options]
        assert titles[:5] == [
            "12:00 - lunch",
            "12:30 - lunch",
            "13:00 - lunch",
            "13:30 - lunch",
            "18:00 - early dinner",
        ]  # weekend: lunch first
        await expect_focus(run, "time")
        await run.pilot.press("enter")  # open the drop-down (first row: no choice)
        await run.pilot.press(*["down"] * 7, "enter")  # 12:00 ... 18:30, 19:00
        assert row(step2, "time").get_raw() == "19:00"
        await run.pilot.press("ctrl+s")
        await gone(run, step2)

        step3 = await next_form(run, "Step 3 of 3")
        await expect_focus(run, "dietary")
        await run.pilot.press("space", "down", "down", "space")  # Vegetarian, Gluten-free
        await run.pilot.press("tab")
        await expect_focus(run, "note")
        await type_text(run, "High chair")
        await run.pilot.press("ctrl+s")
        await gone(run, step3)

        people = f"a table for 4 people at Trattoria Demo on {describe_day(day)} at 19:00 - dinner."
        await wait_until(run.pilot, lambda: people in run.transcript(), "the booking confirmation")
        sent = answers(run, "book_table")
        text = final_text(run.log, "book_table")

    visit = accepted({"date": day.isoformat(), "party_size": 4})
    slot = accepted({"time": "19:00"})
    extras = accepted({"dietary": ["vegetarian", "gluten_free"], "note": "High chair"})
    if era == "2025-11-25":
        assert wire_text(sent) == wire_text([{"0": visit}, {"1": slot}, {"2": extras}])
    else:
        assert wire_text(sent) == wire_text([{"visit": visit}, {"slot": slot}, {"extras": extras}])
    booking = {
        "date": day.isoformat(),
        "party": 4,
        "time": "19:00",
        "dietary": ["vegetarian", "gluten_free"],
        "note": "High chair",
    }
    assert text == (
        f"Booked: {people[:-1]}.\n"
        "Dietary needs: Vegetarian, Gluten-free.\n"
        "Note: High chair\n"
        f"Reference: {booking_reference(booking)}"
    )


@ERA
async def test_book_table_decline_at_step_two_ends_politely(tmp_path: Path, era: str) -> None:
    day = a_saturday()
    async with demo_app(tmp_path, era, "book_table") as run:
        await fill_step_one(run, day, 2)
        step2 = await next_form(run, "Step 2 of 3")
        await run.pilot.press("ctrl+r")
        await gone(run, step2)
        done = "No table booked: you declined."
        await wait_until(run.pilot, lambda: done in run.transcript(), "the polite ending")
        await events_shown(run.pilot, run.app)
        assert not isinstance(run.app.screen, ElicitationScreen)  # no step 3
        sent = answers(run, "book_table")
        assert final_text(run.log, "book_table") == done
    visit = accepted({"date": day.isoformat(), "party_size": 2})
    keys = ("0", "1") if era == "2025-11-25" else ("visit", "slot")
    assert wire_text(sent) == wire_text([{keys[0]: visit}, {keys[1]: {"action": "decline"}}])


# ---- single forms -----------------------------------------------------------------------------


@ERA
async def test_delete_project_untouched_sends_false_and_a_tick_sends_true(
    tmp_path: Path, era: str
) -> None:
    async with demo_app(tmp_path, era, "delete_project", {"name": "payments-api"}) as run:
        first = await next_form(run, "Delete the project payments-api (Payments API)?")
        await expect_focus(run, "confirm")
        assert row(first, "confirm").get_raw() is False
        await run.pilot.press("ctrl+s")  # accept, untouched
        kept = "Kept payments-api: the confirmation was not ticked."
        await wait_until(run.pilot, lambda: kept in run.transcript(), "the project kept")

        # Again from the catalog, as a user would: the arguments form (filled in from --call,
        # the values this run started with), then the tick.
        await open_node(run.pilot, run.app, "demo", "delete_project")
        screen = await arguments_screen(run)
        origin = screen.query_one("#arguments-origin").render()
        assert str(origin).startswith("Values from --call")
        await run.pilot.press("ctrl+s")
        second = await next_form(run, "Delete the project payments-api", after=first)
        await expect_focus(run, "confirm")
        await run.pilot.press("space")
        assert row(second, "confirm").get_raw() is True
        await run.pilot.press("ctrl+s")
        await wait_until(run.pilot, lambda: "Deleted payments-api." in run.transcript(), "deleted")
        sent = answers(run, "delete_project")
        calls = [c["params"]["arguments"] for c in tool_calls(run.log, "delete_project")]
    assert calls[0] == calls[-1] == {"name": "payments-api"}
    keys = ("0", "1") if era == "2025-11-25" else ("confirm", "confirm")
    expected = [{keys[0]: accepted({"confirm": False})}, {keys[1]: accepted({"confirm": True})}]
    assert wire_text(sent) == wire_text(expected)


@ERA
async def test_open_project_titled_single_select(tmp_path: Path, era: str) -> None:
    async with demo_app(tmp_path, era, "open_project", {"name": "api"}) as run:
        form = await next_form(run, "3 projects match 'api'. Which one did you mean?")
        [project] = form.form_spec.fields
        assert [(o.value, o.label) for o in project.options] == [
            ("payments-api", "payments-api - REST API for card payments (updated 2 days ago)"),
            ("api-gateway", "api-gateway - Edge routing and rate limits (updated 5 hours ago)"),
            (
                "legacy-api-v1",
                "legacy-api-v1 - Read-only; retired next quarter (updated 8 months ago)",
            ),
        ]
        await run.pilot.press("ctrl+s")  # required and unchosen: nothing is sent
        await wait_until(
            run.pilot,
            lambda: "to fix" in str(form.query_one("#elicitation-status").render()),
            "the form saying what to fix",
        )
        assert run.app.screen is form and answers(run, "open_project") == []
        await expect_focus(run, "project")
        await run.pilot.press("enter", "down", "down", "enter")  # the second project
        assert row(form, "project").get_raw() == "api-gateway"
        await run.pilot.press("ctrl+s")
        opened = (
            "Opened api-gateway (API gateway): Edge routing and rate limits. "
            "2 environments, 311 files, updated 5 hours ago."
        )
        await wait_until(run.pilot, lambda: opened in run.transcript(), "the project opened")
        sent = answers(run, "open_project")
    key = "0" if era == "2025-11-25" else "project"
    assert wire_text(sent) == wire_text([{key: accepted({"project": "api-gateway"})}])


#: Every default of the preferences form, with its exact JSON type.
PREFERENCE_DEFAULTS = {
    name: prop["default"] for name, prop in PREFERENCES_SCHEMA["properties"].items()
}


@ERA
async def test_set_preferences_untouched_sends_every_default_exactly(
    tmp_path: Path, era: str
) -> None:
    # Every field has a default (the demo's schema; the comprehension above would fail first).
    assert len(PREFERENCE_DEFAULTS) >= 13
    async with demo_app(tmp_path, era, "set_preferences") as run:
        form = await next_form(run, "Review your preferences.")
        assert [f.name for f in form.form_spec.fields] == list(PREFERENCE_DEFAULTS)
        await expect_focus(run, "display_name")
        await run.pilot.press("ctrl+s")
        await gone(run, form)
        await wait_until(run.pilot, lambda: final_text(run.log, "set_preferences"), "the result")
        sent = answers(run, "set_preferences")
        received = final_text(run.log, "set_preferences")
    key = "0" if era == "2025-11-25" else "preferences"
    assert wire_text(sent) == wire_text([{key: accepted(PREFERENCE_DEFAULTS)}])
    content = sent[0][key]["content"]
    assert type(content["page_size"]) is int and type(content["volume"]) is float
    assert content["notifications"] is True and content["language"] == "fr"  # enumNames
    assert content["topics"] == ["releases", "security"]  # titled multi-select
    # The demo echoes what it parsed: the same values, the same types.
    assert received is not None
    assert wire_text(json.loads(received)) == wire_text(accepted(PREFERENCE_DEFAULTS))


@ERA
async def test_quick_survey_two_forms(tmp_path: Path, era: str) -> None:
    async with demo_app(tmp_path, era, "quick_survey") as run:
        rating = await next_form(run, "How would you rate the demo so far?")
        if era == "2026-07-28":  # both questions in one input_required result
            await wait_until(run.pilot, lambda: rating.header.waiting == 1, "the queue count")
            assert "(1 more waiting)" in rating.header.content().plain
        else:  # one after the other: nothing else is waiting yet
            assert rating.header.waiting == 0
            assert "more waiting" not in rating.header.content().plain
        await clear_and_type(run, "stars", "5")
        await run.pilot.press("tab")
        await expect_focus(run, "comment")
        await type_text(run, "Nice")
        await run.pilot.press("ctrl+s")
        await gone(run, rating)

        follow_up = await next_form(run, "May we follow up on your answers?", after=rating)
        assert follow_up.header.waiting == 0
        await expect_focus(run, "may_contact")
        await run.pilot.press("space")
        await run.pilot.press("tab")
        await expect_focus(run, "email")
        await type_text(run, "a@b.io")
        await run.pilot.press("ctrl+s")
        summary = "Rating: 5/5.\nComment: Nice\nFollow-up: yes, at a@b.io."
        await wait_until(run.pilot, lambda: summary in run.transcript(), "the survey summary")
        sent = answers(run, "quick_survey")
        calls = tool_calls(run.log, "quick_survey")
    first = accepted({"stars": 5, "comment": "Nice"})
    second = accepted({"may_contact": True, "email": "a@b.io"})
    if era == "2025-11-25":
        assert wire_text(sent) == wire_text([{"0": first}, {"1": second}])
        assert len(calls) == 1
    else:  # one round: the repeated call answers both
        assert wire_text(sent) == wire_text([{"rating": first, "follow_up": second}])
        assert len(calls) == 2


@ERA
async def test_confirm_action_empty_schema_accept_sends_empty_content(
    tmp_path: Path, era: str
) -> None:
    async with demo_app(tmp_path, era, "confirm_action") as run:
        screen = await next_form(run, "Please confirm: restart the build agents.")
        assert screen.form is None and screen.form_spec.is_confirmation
        assert "asks you to confirm" in screen.header.content().plain
        await run.pilot.press("ctrl+s")
        done = "Confirmed: restart the build agents."
        await wait_until(run.pilot, lambda: done in run.transcript(), "the confirmation")
        # The call's card lists what was asked inside it.
        assert "asked: confirm → accepted" in run.transcript()
        # --call waited for the catalog (on 2026-07-28: mode="2026-07-28", E's mode, as well)
        assert "does not offer a tool named 'confirm_action'" not in run.transcript()
        sent = answers(run, "confirm_action")
    key = "0" if era == "2025-11-25" else "confirm"
    assert wire_text(sent) == wire_text([{key: accepted({})}])


# ---- the rest of the catalog ------------------------------------------------------------------


def log_text(run: DemoRun) -> str:
    session = run.app.session
    assert session is not None
    return "\n".join(line.text for line in session.areas.logs.lines)


@ERA
async def test_long_task_shows_progress_and_logs(
    tmp_path: Path, era: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the running call's row shows after each progress notification, recorded as it happens:
    # between two looks a step can pass. The steps take 1.5 s: the row must be on screen before the
    # first one ends, which a loaded machine running the suite in parallel can delay by a second.
    shown: list[tuple[float | None, float | None, str]] = []
    show_progress = RunningCall.show_progress

    def recording(row: RunningCall, event: Any) -> None:
        show_progress(row, event)  # before the row is composed, its on_mount shows the latest
        for label in row.query(".running-message"):
            for bar in row.query(ProgressBar):  # mounted with the first progress
                shown.append((bar.total, bar.progress, str(label.render())))

    monkeypatch.setattr(RunningCall, "show_progress", recording)
    async with demo_app(tmp_path, era) as run:
        await open_node(run.pilot, run.app, "demo", "long_task")
        await arguments_screen(run)
        await clear_and_type(run, "duration", "4.5")
        await run.pilot.press("tab")
        await clear_and_type(run, "steps", "3")
        await run.pilot.press("ctrl+s")

        def moved() -> str | None:
            for total, progress, message in shown:
                if total == 3 and (progress or 0) >= 1:
                    return message
            return None

        message = await wait_until(run.pilot, moved, "the progress bar to move")
        assert message.startswith("Step ") and " of 3: " in message
        done = "Finished 3 steps in 4.5 s."
        await wait_until(run.pilot, lambda: done in run.transcript(), "the result")
        await wait_until(run.pilot, lambda: "Task finished" in log_text(run), "the last log")
        assert not run.app.query(RunningCall)  # the row is gone with the call
        logs = log_text(run)
        for line in (
            "Starting a 4.5 s task in 3 steps",
            "debug: warming up (step 1 of 3)",
            "info: fetching records (step 2 of 3)",
            "notice: crunching numbers (step 3 of 3)",
        ):
            assert line in logs
        [sent] = tool_calls(run.log, "long_task")
    assert wire_text(sent["params"]["arguments"]) == wire_text({"duration": 4.5, "steps": 3})
    assert "progressToken" in sent["params"]["_meta"]


@ERA
async def test_search_issues_resource_and_prompt_from_the_catalog(tmp_path: Path, era: str) -> None:
    async with demo_app(tmp_path, era) as run:
        # search_issues: an optional list and nullable fields, shown as a form (not JSON).
        await open_node(run.pilot, run.app, "demo", "search_issues")
        screen = await arguments_screen(run)
        assert not screen.use_editor
        await expect_focus(run, "query")
        await type_text(run, "forms")
        await run.pilot.press("ctrl+s")
        await gone(run, screen)
        await wait_until(
            run.pilot, lambda: "Multi-select ignores maxItems" in run.transcript(), "the result"
        )
        assert "Form loses focus after validation error" in run.transcript()
        [search] = tool_calls(run.log, "search_issues")
        assert search["params"]["arguments"]["query"] == "forms"

        # A resource: Enter on it reads it.
        await open_node(run.pilot, run.app, "demo", "readme")
        await wait_until(
            run.pilot, lambda: "# The mcp-tui demo server" in run.transcript(), "the readme"
        )

        # A prompt with arguments: its form, then its messages.
        await open_node(run.pilot, run.app, "demo", "release_notes")
        prompt = await arguments_screen(run)
        assert prompt is not screen and not prompt.use_editor
        await expect_focus(run, "project")
        await type_text(run, "web")
        await run.pilot.press("tab")
        await expect_focus(run, "version")
        await type_text(run, "2.4")
        await run.pilot.press("ctrl+s")
        text = "Write release notes for web 2.4 in a friendly tone."
        await wait_until(run.pilot, lambda: text in run.transcript(), "the prompt's messages")
        out = [m for m in run.wire() if m.get("dir") == "out"]
        methods = [m["message"].get("method") for m in out]
        [got] = [m["message"] for m in out if m["message"].get("method") == "prompts/get"]
    assert "resources/read" in methods
    assert got["params"]["name"] == "release_notes"
    assert got["params"]["arguments"] == {"project": "web", "version": "2.4"}


# ---- an explicit mode="2026-07-28" (what E switches to) ---------------------------------------


async def test_explicit_2026_mode_flow_from_the_catalog(tmp_path: Path) -> None:
    async with demo_app(tmp_path, "explicit-2026") as run:
        await open_node(run.pilot, run.app, "demo", "confirm_action")
        await arguments_screen(run)
        await run.pilot.press("ctrl+s")  # the default action
        screen = await next_form(run, "Please confirm: restart the build agents.")
        await run.pilot.press("ctrl+s")
        await gone(run, screen)
        done = "Confirmed: restart the build agents."
        await wait_until(run.pilot, lambda: done in run.transcript(), "the confirmation")
        assert answers(run, "confirm_action") == [{"confirm": accepted({})}]
