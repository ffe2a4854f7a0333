"""The table-booking wizard: several forms in a row, each shaped by the answers before it.

1. the day (a `date` string) and party size (an integer 1-12); a past day or a Monday (closed)
   asks again, with the reason in the message, up to three times;
2. a time slot from titled options that depend on step 1 (lunch only at weekends, fixed
   seatings for parties over six);
3. dietary needs (a titled multi-select) and an optional note (a string with `maxLength`).

A decline or cancel at any step ends politely with nothing booked.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date
from typing import Any, Final

import mcp_types as types
from mcp.server.mcpserver import MCPServer

from mcp_tui.demo.asking import Asker, DemoContext, Schema, declined_text, run_flow

RESTAURANT: Final = "Trattoria Demo"
MAX_DAY_ATTEMPTS: Final = 3
LARGE_PARTY: Final = 6
"""Parties larger than this get the fixed large-table seatings only."""
NOTE_MAX_LENGTH: Final = 200

VISIT_SCHEMA: Final[Schema] = {
    "type": "object",
    "properties": {
        "date": {
            "type": "string",
            "format": "date",
            "title": "Date",
            "description": "The day of your visit (YYYY-MM-DD). Closed on Mondays.",
        },
        "party_size": {
            "type": "integer",
            "title": "Party size",
            "description": "How many people, including you.",
            "minimum": 1,
            "maximum": 12,
            "default": 2,
        },
    },
    "required": ["date", "party_size"],
}

DIETARY_OPTIONS: Final = (
    ("vegetarian", "Vegetarian"),
    ("vegan", "Vegan"),
    ("gluten_free", "Gluten-free"),
    ("nut_allergy", "Nut allergy"),
    ("lactose_free", "Lactose-free"),
    ("halal", "Halal"),
)

EXTRAS_SCHEMA: Final[Schema] = {
    "type": "object",
    "properties": {
        "dietary": {
            "type": "array",
            "title": "Dietary needs",
            "description": "Everything that applies to anyone in your party.",
            "items": {"anyOf": [{"const": c, "title": t} for c, t in DIETARY_OPTIONS]},
            "default": [],
        },
        "note": {
            "type": "string",
            "title": "Note for the restaurant",
            "description": "Optional: a birthday, a high chair, a step-free table...",
            "maxLength": NOTE_MAX_LENGTH,
        },
    },
    "required": [],
}

_LUNCH: Final = ("12:00", "12:30", "13:00", "13:30")
_DINNER: Final = ("18:00", "18:30", "19:00", "19:30", "20:00", "20:30", "21:00")


def describe_day(day: date) -> str:
    """`Saturday 17 May 2031`: spelled out, so a misread date is obvious to the user."""
    return f"{day:%A} {day.day} {day:%B %Y}"


def day_problem(day: date, today: date) -> str | None:
    """Why the restaurant cannot take a booking on `day`, or None."""
    if day < today:
        return f"{describe_day(day)} is in the past."
    if day.weekday() == 0:
        return f"{describe_day(day)} is a Monday, and we are closed on Mondays."
    return None


def time_slots(day: date, party_size: int) -> list[tuple[str, str]]:
    """The `(const, title)` slots on offer for this day and party: the step-2 options."""
    weekend = day.weekday() >= 5
    if party_size > LARGE_PARTY:
        slots = [("12:00", "12:00 - lunch, large-table seating")] if weekend else []
        slots += [
            ("18:00", "18:00 - early large-table seating (until 20:15)"),
            ("20:30", "20:30 - late large-table seating"),
        ]
        return slots
    lunch = [(t, f"{t} - lunch") for t in _LUNCH] if weekend else []
    dinner_times = _DINNER + (("21:30",) if weekend else ())
    dinner = [(t, f"{t} - dinner" if t >= "19:00" else f"{t} - early dinner") for t in dinner_times]
    return lunch + dinner


def slot_schema(slots: list[tuple[str, str]]) -> Schema:
    """Step 2: one required titled single-select (`oneOf` of `const`/`title`)."""
    return {
        "type": "object",
        "properties": {
            "time": {
                "type": "string",
                "title": "Time",
                "description": "Tables are held for 15 minutes.",
                "oneOf": [{"const": const, "title": title} for const, title in slots],
            }
        },
        "required": ["time"],
    }


def booking_reference(booking: dict[str, Any]) -> str:
    """A stable reference derived from the booking, so the same answers give the same text."""
    digest = hashlib.sha256(json.dumps(booking, sort_keys=True).encode()).hexdigest()
    return f"TD-{digest[:6].upper()}"


async def book_table_flow(asker: Asker) -> str:
    """The whole wizard, written once for both protocol eras."""
    today = date.today()
    problem: str | None = None
    day, party = today, 0
    for attempt in range(1, MAX_DAY_ATTEMPTS + 1):
        key = "visit" if attempt == 1 else f"visit_{attempt}"
        message = f"Book a table at {RESTAURANT} (step 1 of 3): which day, and for how many?"
        if problem:
            message = f"{problem} Please choose another day.\n\n{message}"
        answer = await asker.form(key, message, VISIT_SCHEMA)
        if answer.action != "accept" or answer.content is None:
            return declined_text(answer, "No table booked")
        day = date.fromisoformat(str(answer.content["date"]))
        party = int(answer.content["party_size"])  # type: ignore[arg-type]
        problem = day_problem(day, today)
        if problem is None:
            break
    else:
        return f"No table booked: {problem} (asked {MAX_DAY_ATTEMPTS} times)."

    slots = time_slots(day, party)
    people = "1 person" if party == 1 else f"{party} people"
    answer = await asker.form(
        "slot",
        f"Step 2 of 3: choose a time for {people} on {describe_day(day)}."
        + (" Parties over six have fixed seatings." if party > LARGE_PARTY else ""),
        slot_schema(slots),
    )
    if answer.action != "accept" or answer.content is None:
        return declined_text(answer, "No table booked")
    time = str(answer.content["time"])
    slot_title = dict(slots)[time]

    answer = await asker.form(
        "extras",
        "Step 3 of 3: anything the kitchen should know? Both fields are optional.",
        EXTRAS_SCHEMA,
    )
    if answer.action != "accept" or answer.content is None:
        return declined_text(answer, "No table booked")
    dietary = [str(v) for v in answer.content.get("dietary") or []]  # type: ignore[union-attr]
    note = str(answer.content.get("note") or "").strip()

    booking = {
        "date": day.isoformat(),
        "party": party,
        "time": time,
        "dietary": dietary,
        "note": note,
    }
    titles = dict(DIETARY_OPTIONS)
    lines = [
        f"Booked: a table for {people} at {RESTAURANT} on {describe_day(day)} at {slot_title}.",
        "Dietary needs: " + (", ".join(titles[d] for d in dietary) if dietary else "none") + ".",
    ]
    if note:
        lines.append(f"Note: {note}")
    lines.append(f"Reference: {booking_reference(booking)}")
    return "\n".join(lines)


def register(server: MCPServer[Any]) -> None:
    """Add the `book_table` tool."""

    @server.tool(
        structured_output=False,
        title="Book a table",
        description=(
            "Demonstrates a multi-step elicitation wizard: three forms in a row (a date and an "
            "integer party size; then a time from titled options that depend on the first "
            "answer; then a titled multi-select and an optional free-text note), ending in a "
            "booking confirmation. Decline or cancel at any step to stop."
        ),
        annotations=types.ToolAnnotations(read_only_hint=False, open_world_hint=False),
    )
    async def book_table(ctx: DemoContext) -> str | types.InputRequiredResult:
        return await run_flow(ctx, book_table_flow)
