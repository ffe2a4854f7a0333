"""The booking wizard end to end on both eras: three forms, options that depend on earlier
answers, re-asking for an impossible day, ending politely at any step, and rejecting content
that does not match the schema."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from mcp_tui.demo.booking import EXTRAS_SCHEMA, VISIT_SCHEMA, time_slots
from tests.demo.demo_testkit import (
    MODES,
    accept,
    cancel,
    decline,
    demo_client,
    next_weekday,
    script,
    spelled,
    text_of,
)

SATURDAY, WEDNESDAY, MONDAY = 5, 2, 0

WEEKEND_SMALL = [
    *("12:00", "12:30", "13:00", "13:30"),
    *("18:00", "18:30", "19:00", "19:30", "20:00", "20:30", "21:00", "21:30"),
]


def slot_consts(schema: dict[str, object]) -> list[str]:
    time = schema["properties"]["time"]  # type: ignore[index]
    return [option["const"] for option in time["oneOf"]]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_three_forms_in_a_row_end_in_a_confirmation(mode: str) -> None:
    day = next_weekday(SATURDAY)
    answers = script(
        accept(date=day.isoformat(), party_size=4),
        accept(time="19:30"),
        accept(dietary=["vegetarian", "gluten_free"], note="Window seat, please"),
    )
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("book_table", {})
    answers.assert_done()

    first, second, third = (asked.form for asked in answers.asked)
    assert first.message.startswith("Book a table at Trattoria Demo (step 1 of 3)")
    assert first.requested_schema == VISIT_SCHEMA
    assert first.requested_schema["properties"]["date"]["format"] == "date"
    assert first.requested_schema["properties"]["party_size"] == {
        "type": "integer",
        "title": "Party size",
        "description": "How many people, including you.",
        "minimum": 1,
        "maximum": 12,
        "default": 2,
    }

    assert second.message == f"Step 2 of 3: choose a time for 4 people on {spelled(day)}."
    assert slot_consts(second.requested_schema) == WEEKEND_SMALL
    time_property = second.requested_schema["properties"]["time"]
    assert {"const": "19:30", "title": "19:30 - dinner"} in time_property["oneOf"]
    assert {"const": "12:00", "title": "12:00 - lunch"} in time_property["oneOf"]
    assert second.requested_schema["required"] == ["time"]

    assert third.requested_schema == EXTRAS_SCHEMA
    dietary = third.requested_schema["properties"]["dietary"]
    assert dietary["type"] == "array"
    assert {"const": "gluten_free", "title": "Gluten-free"} in dietary["items"]["anyOf"]
    assert third.requested_schema["properties"]["note"]["maxLength"] == 200

    assert not result.is_error
    text = text_of(result)
    lines = text.splitlines()
    assert lines[:3] == [
        f"Booked: a table for 4 people at Trattoria Demo on {spelled(day)} at 19:30 - dinner.",
        "Dietary needs: Vegetarian, Gluten-free.",
        "Note: Window seat, please",
    ]
    assert re.fullmatch(r"Reference: TD-[0-9A-F]{6}", lines[3])
    assert len(lines) == 4


@pytest.mark.anyio
async def test_both_eras_book_the_same_table_for_the_same_answers() -> None:
    day = next_weekday(WEDNESDAY)
    texts = []
    for mode in MODES:
        answers = script(
            accept(date=day.isoformat(), party_size=1),
            accept(time="18:00"),
            accept(dietary=[]),
        )
        async with demo_client(mode, answers) as client:
            texts.append(text_of(await client.call_tool("book_table", {})))
        answers.assert_done()
    assert texts[0] == texts[1]
    assert texts[0].startswith(f"Booked: a table for 1 person at Trattoria Demo on {spelled(day)}")
    assert "Dietary needs: none." in texts[0]
    assert "Note:" not in texts[0]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_large_weekday_party_is_offered_only_the_fixed_seatings(mode: str) -> None:
    day = next_weekday(WEDNESDAY)
    answers = script(accept(date=day.isoformat(), party_size=8), cancel())
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("book_table", {})
    answers.assert_done()
    slot_form = answers.asked[1].form
    assert slot_consts(slot_form.requested_schema) == ["18:00", "20:30"]
    assert slot_form.message.endswith("Parties over six have fixed seatings.")
    assert text_of(result) == "No table booked: the request was cancelled."


def test_time_slots_follow_the_day_and_the_party_size() -> None:
    saturday, wednesday = next_weekday(SATURDAY), next_weekday(WEDNESDAY)
    assert [c for c, _ in time_slots(saturday, 2)] == WEEKEND_SMALL
    assert [c for c, _ in time_slots(saturday, 7)] == ["12:00", "18:00", "20:30"]
    assert [c for c, _ in time_slots(wednesday, 6)] == [
        *("18:00", "18:30", "19:00", "19:30", "20:00", "20:30", "21:00"),
    ]
    assert [c for c, _ in time_slots(wednesday, 12)] == ["18:00", "20:30"]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_an_impossible_day_is_asked_again_with_the_reason(mode: str) -> None:
    past = date.today() - timedelta(days=3)
    monday = next_weekday(MONDAY)
    answers = script(
        accept(date=past.isoformat(), party_size=2),
        accept(date=monday.isoformat(), party_size=2),
        accept(date=monday.isoformat(), party_size=3),
    )
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("book_table", {})
    answers.assert_done()
    messages = [asked.form.message for asked in answers.asked]
    assert messages[0].startswith("Book a table")
    assert messages[1].startswith(f"{spelled(past)} is in the past. Please choose another day.")
    assert messages[2].startswith(
        f"{spelled(monday)} is a Monday, and we are closed on Mondays. Please choose another day."
    )
    if mode == "auto":  # each attempt is its own inputRequests key on 2026-07-28
        assert [asked.key for asked in answers.asked] == ["visit", "visit_2", "visit_3"]
    assert text_of(result) == (
        f"No table booked: {spelled(monday)} is a Monday, and we are closed on Mondays. "
        "(asked 3 times)."
    )


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("step", [1, 2, 3])
@pytest.mark.parametrize(("answer", "ending"), [(decline, "declined"), (cancel, "cancelled")])
async def test_declining_or_cancelling_any_step_books_nothing(
    mode: str, step: int, answer: object, ending: str
) -> None:
    day = next_weekday(SATURDAY)
    steps = [accept(date=day.isoformat(), party_size=2), accept(time="12:30"), accept()]
    steps[step - 1] = answer()  # type: ignore[operator]
    answers = script(*steps[:step])
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("book_table", {})
    answers.assert_done()
    assert len(answers.asked) == step
    assert not result.is_error
    said = "you declined" if ending == "declined" else "the request was cancelled"
    assert text_of(result) == f"No table booked: {said}."


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("bad_visit", "complaint"),
    [
        ({"date": "soon", "party_size": 2}, "date: 'soon' is not a 'date'"),
        ({"date": "2031-05-17", "party_size": 4.0}, "party_size: 4.0 is not of type 'integer'"),
        ({"date": "2031-05-17", "party_size": 13}, "party_size: 13 is greater than the maximum"),
        ({"party_size": 2}, "'date' is a required property"),
    ],
)
async def test_content_that_breaks_the_schema_is_a_tool_error(
    mode: str, bad_visit: dict[str, object], complaint: str
) -> None:
    answers = script(accept(**bad_visit))
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("book_table", {})
    answers.assert_done()
    assert result.is_error
    assert "does not match the schema the demo asked with" in text_of(result)
    assert complaint in text_of(result)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_time_that_was_not_offered_is_rejected(mode: str) -> None:
    day = next_weekday(WEDNESDAY)
    answers = script(accept(date=day.isoformat(), party_size=2), accept(time="12:00"))
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("book_table", {})
    assert result.is_error
    assert "time:" in text_of(result)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_note_over_its_max_length_is_rejected(mode: str) -> None:
    day = next_weekday(SATURDAY)
    answers = script(
        accept(date=day.isoformat(), party_size=2), accept(time="13:00"), accept(note="x" * 201)
    )
    async with demo_client(mode, answers) as client:
        result = await client.call_tool("book_table", {})
    assert result.is_error
    assert "note: " in text_of(result) and "is too long" in text_of(result)
