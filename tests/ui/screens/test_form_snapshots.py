"""Snapshots of the elicitation form: each field kind, errors shown, a long form, confirmation.

Update with ``pytest tests/ui/screens/test_form_snapshots.py --snapshot-update`` and look at
the SVGs in
``__snapshots__/`` before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec, Option, TextFormat
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen

SMALL = (80, 24)
LARGE = (120, 40)
SnapCompare = Callable[..., bool]


class Host(App[None]):
    def __init__(self, request: ElicitationRequest, **screen_kw: Any) -> None:
        super().__init__()
        self.request = request
        self.screen_kw = screen_kw

    def on_mount(self) -> None:
        self.push_screen(ElicitationScreen(self.request, **self.screen_kw))


def host(*fields: FieldSpec, message: str = "", notes: tuple[str, ...] = (), **kw: Any) -> Host:
    form = FormSpec(tuple(fields), notes=notes)
    request = ElicitationRequest(
        "weather",
        message or "Where should the forecast be for?",
        "form",
        form=form,
        tool="forecast",
    )
    return Host(request, **kw)


COLORS = (Option("#f00", "Red"), Option("#0f0", "Green"), Option("#00f", "Blue"))
CITIES = tuple(Option(f"c{i}", f"City number {i}") for i in range(10_000))

KINDS: dict[str, FieldSpec] = {
    "text": FieldSpec(
        "name",
        FieldKind.TEXT,
        "Full name",
        "As on your badge",
        required=True,
        min_length=3,
        max_length=20,
    ),
    "email": FieldSpec("email", FieldKind.TEXT, "Email", format=TextFormat.EMAIL),
    "date": FieldSpec("day", FieldKind.TEXT, "Day", format=TextFormat.DATE, required=True),
    "integer": FieldSpec(
        "age", FieldKind.INTEGER, "Age", minimum=0, maximum=150, default=30, has_default=True
    ),
    "number": FieldSpec("ratio", FieldKind.NUMBER, "Ratio", minimum=0, maximum=1),
    "boolean": FieldSpec(
        "subscribe", FieldKind.BOOLEAN, "Subscribe", "Weekly news", default=True, has_default=True
    ),
    "boolean_unset": FieldSpec("maybe", FieldKind.BOOLEAN, "Share my location"),
    "select": FieldSpec(
        "color",
        FieldKind.SELECT,
        "Colour",
        required=True,
        options=COLORS,
        default="#0f0",
        has_default=True,
    ),
    "select_long": FieldSpec("city", FieldKind.SELECT, "City", required=True, options=CITIES),
    "multi": FieldSpec(
        "tags",
        FieldKind.MULTI_SELECT,
        "Tags",
        options=COLORS,
        min_items=1,
        max_items=2,
        default=["#f00"],
        has_default=True,
    ),
    "multi_long": FieldSpec("cities", FieldKind.MULTI_SELECT, "Cities", options=CITIES),
}


async def _steady(pilot: Pilot[None]) -> None:
    """A steady cursor: a blinking one is drawn or not depending on when the shot is taken."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("kind", list(KINDS))
def test_field_kind(snap_compare: SnapCompare, kind: str) -> None:
    assert snap_compare(host(KINDS[kind]), terminal_size=SMALL, run_before=_steady)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_full_form(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    app = host(*KINDS.values(), notes=("`pattern` on Full name is outside the spec",))
    assert snap_compare(app, terminal_size=size, run_before=_steady)


async def _submit_empty(pilot: Pilot[None]) -> None:
    # A steady cursor: a blinking one is drawn or not depending on how long the keys took.
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.press(*"Al", "tab", *"not-an-email", "tab", "ctrl+s")
    await pilot.pause()


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_errors_shown(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    app = host(KINDS["text"], KINDS["email"], KINDS["date"], KINDS["select_long"])
    assert snap_compare(app, terminal_size=size, run_before=_submit_empty)


LONG = tuple(
    FieldSpec(f"f{i}", FieldKind.TEXT, f"Answer {i + 1}", required=i % 7 == 0) for i in range(60)
)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_long_form(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    message = "A survey with many questions.\n" * 3
    assert snap_compare(host(*LONG, message=message), terminal_size=size, run_before=_steady)


async def _to_last_page(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+s")  # the first error is on the last page
    await pilot.pause()
    await pilot.pause()


def test_long_form_last_page_error(snap_compare: SnapCompare) -> None:
    fields = tuple(FieldSpec(f"f{i}", FieldKind.TEXT, f"Answer {i + 1}") for i in range(59))
    fields += (FieldSpec("last", FieldKind.INTEGER, "Last", required=True),)
    assert snap_compare(host(*fields), terminal_size=SMALL, run_before=_to_last_page)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_confirmation(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    app = host(message="Delete the 3 selected files?\nThis cannot be undone.", waiting=2)
    assert snap_compare(app, terminal_size=size)


def test_secret_warning(snap_compare: SnapCompare) -> None:
    app = host(
        FieldSpec("user", FieldKind.TEXT, "User"),
        FieldSpec("api_key", FieldKind.TEXT, "API key", "From your dashboard"),
        message="Connect your account",
    )
    assert snap_compare(app, terminal_size=SMALL)


async def _fill_and_review(pilot: Pilot[None]) -> None:
    await pilot.press(*"Ada Lovelace", "tab", "tab", *"2026-01-31", "ctrl+s")
    await pilot.pause()


def test_review(snap_compare: SnapCompare) -> None:
    app = host(KINDS["text"], KINDS["email"], KINDS["date"], KINDS["integer"], review=True)
    assert snap_compare(app, terminal_size=SMALL, run_before=_fill_and_review)


async def _filter_cities(pilot: Pilot[None]) -> None:
    await pilot.press(*"number 12")
    await pilot.pause()


def test_long_select_filtering(snap_compare: SnapCompare) -> None:
    assert snap_compare(host(KINDS["select_long"]), terminal_size=SMALL, run_before=_filter_cities)


HOSTILE = "[/] [@click=screen.dismiss('accept')]x[/] \x1b]0;title\x07 \u202eevil"


def test_hostile_text(snap_compare: SnapCompare) -> None:
    app = host(
        FieldSpec("[/]", FieldKind.TEXT, HOSTILE, HOSTILE),
        FieldSpec("x", FieldKind.SELECT, HOSTILE, options=(Option("a", HOSTILE),)),
        message=HOSTILE,
    )
    assert snap_compare(app, terminal_size=SMALL)


def _sdk_field(name: str, prop: dict[str, Any], *, required: bool = False) -> FieldSpec:
    from mcp_tui.schema import parse_requested_schema

    schema: dict[str, Any] = {"type": "object", "properties": {name: prop}}
    if required:
        schema["required"] = [name]
    return parse_requested_schema(schema).fields[0]


#: The kinds SDK-generated schemas bring (list editor, number select, fixed value, nullable).
SDK_KINDS: dict[str, FieldSpec] = {
    "list": _sdk_field(
        "tags",
        {
            "type": "array",
            "title": "Tags",
            "items": {"type": "string", "maxLength": 20},
            "minItems": 1,
            "maxItems": 5,
            "default": ["red", "green"],
        },
    ),
    "int_select": _sdk_field(
        "priority",
        {"type": "integer", "enum": [1, 2, 3], "title": "Priority", "default": 2},
        required=True,
    ),
    "const": _sdk_field("version", {"type": "string", "const": "v1", "title": "API version"}),
    "nullable": _sdk_field(
        "nickname",
        {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Nickname"},
    ),
}


@pytest.mark.parametrize("kind", list(SDK_KINDS))
def test_sdk_field_kind(snap_compare: SnapCompare, kind: str) -> None:
    assert snap_compare(host(SDK_KINDS[kind]), terminal_size=SMALL)


async def _edit_list(pilot: Pilot[None]) -> None:
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.press("down", "enter", *"blue", "alt+up")
    await pilot.pause()


def test_sdk_kinds_list_edited(snap_compare: SnapCompare) -> None:
    app = host(*SDK_KINDS.values(), message="Label the issue")
    assert snap_compare(app, terminal_size=SMALL, run_before=_edit_list)


async def _set_null(pilot: Pilot[None]) -> None:
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.press("ctrl+n")
    await pilot.pause()


def test_sdk_nullable_set_to_null(snap_compare: SnapCompare) -> None:
    assert snap_compare(host(SDK_KINDS["nullable"]), terminal_size=SMALL, run_before=_set_null)


async def _fill_every_field(pilot: Pilot[None]) -> None:
    """Every kind in its other state: text typed, numbers changed, booleans flipped, an option
    chosen, items ticked (the untouched form is ``test_full_form``)."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.press(*"Ada Lovelace", "tab", *"ada@example.com", "tab", *"2027-03-06", "tab")
    await pilot.press("backspace", "backspace", *"42", "tab", *"0.5", "tab")
    await pilot.press("space", "tab", "space", "tab")  # yes -> no; not set -> yes
    await pilot.press("enter", "down", "enter", "tab")  # a colour
    await pilot.press(*"number 7", "down", "enter")  # the filtered list (Enter moves on)
    await pilot.press("down", "space", "tab", "down", "enter")  # a second tag, a city
    await pilot.pause(0.3)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_full_form_filled(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    app = host(*KINDS.values(), notes=("`pattern` on Full name is outside the spec",))
    assert snap_compare(app, terminal_size=size, run_before=_fill_every_field)
