"""Keys that arrive together are not lost: each field kind, exact content, Ctrl+S last in the burst.

Keys are queued on the driver before the app handles the first, as one terminal read delivers
them (``burst_keys.burst``); every burst test is also run through ``Pilot.press``
(``burst_keys.DELIVERIES``) so both paths give the same content.

The bug these pin: on the booking form (a multi-select, then a text field) ``Space Tab c a k e
Ctrl+S`` in one burst sent ``content: {}``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual import events
from textual.app import App

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec, Option
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.widgets.form.schema_form import SchemaForm
from tests.ui.burst_keys import DELIVERIES, Delivery, burst, send_burst, settle

SIZE = (80, 24)


class Host(App[None]):
    """Pushes one elicitation screen (at start, or when the test says) and keeps the outcome."""

    def __init__(self, request: ElicitationRequest, *, push: bool = True, **kw: Any) -> None:
        super().__init__()
        self.request = request
        self.push = push
        self.kw = kw
        self.outcomes: list[ElicitationOutcome | None] = []

    def on_mount(self) -> None:
        if self.push:
            self.open_form()

    def open_form(self) -> None:
        self.push_screen(ElicitationScreen(self.request, **self.kw), callback=self.outcomes.append)

    def answered(self) -> bool:
        return bool(self.outcomes)


def request_for(*fields: FieldSpec) -> ElicitationRequest:
    return ElicitationRequest(server="local", message="", mode="form", form=FormSpec(fields))


def opts(*values: str) -> tuple[Option, ...]:
    return tuple(Option(v, v.title()) for v in values)


async def answer(fields: tuple[FieldSpec, ...], keys: tuple[str, ...], deliver: Delivery) -> Any:
    app = Host(request_for(*fields))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await deliver(pilot, app, keys)
    assert len(app.outcomes) == 1, app.outcomes
    outcome = app.outcomes[0]
    assert outcome is not None
    return outcome


def wire(content: Any) -> str:
    """JSON text, so ``7`` and ``7.0`` or ``True`` and ``1`` differ as they do on the wire."""
    return json.dumps(content)


COLORS = opts("red", "green", "blue")
CITIES = tuple(Option(f"c{i}", f"City {i}") for i in range(30))
NOTE = FieldSpec("note", FieldKind.TEXT, "Note")
FIRST = FieldSpec("first", FieldKind.TEXT, "First")
SECOND = FieldSpec("second", FieldKind.TEXT, "Second")
DIETARY = FieldSpec(
    "dietary",
    FieldKind.MULTI_SELECT,
    "Dietary needs",
    options=opts("vegetarian", "vegan", "gluten-free"),
    default=[],
    has_default=True,
)

#: (fields, keys ending in Ctrl+S, exact content on the wire)
CASES: dict[str, tuple[tuple[FieldSpec, ...], tuple[str, ...], dict[str, Any]]] = {
    "booking step 3": (
        (DIETARY, NOTE),
        ("space", "tab", "c", "a", "k", "e", "ctrl+s"),
        {"dietary": ["vegetarian"], "note": "cake"},
    ),
    "text": ((FIRST,), ("A", "d", "a", "ctrl+s"), {"first": "Ada"}),
    "text, backspace, tab": (
        (FIRST, SECOND),
        ("a", "b", "x", "backspace", "tab", "c", "ctrl+s"),
        {"first": "ab", "second": "c"},
    ),
    "enter moves on": (
        (FIRST, SECOND),
        ("a", "enter", "b", "ctrl+s"),
        {"first": "a", "second": "b"},
    ),
    "shift+tab goes back": (
        (FIRST, SECOND),
        ("a", "tab", "b", "shift+tab", "c", "ctrl+s"),
        {"first": "ac", "second": "b"},
    ),
    "back from the buttons": (
        (FIRST, SECOND),
        ("a", "tab", "tab", "shift+tab", "shift+tab", "b", "ctrl+s"),
        {"first": "ab"},
    ),
    "enter on the accept button": ((FIRST,), ("x", "tab", "enter"), {"first": "x"}),
    "number then integer": (
        (
            FieldSpec("ratio", FieldKind.NUMBER, "Ratio"),
            FieldSpec("count", FieldKind.INTEGER, "Count"),
        ),
        ("0", ".", "2", "5", "tab", "7", "ctrl+s"),
        {"ratio": 0.25, "count": 7},
    ),
    "integer with backspace": (
        (FieldSpec("count", FieldKind.INTEGER, "Count"),),
        ("4", "3", "backspace", "2", "ctrl+s"),
        {"count": 42},
    ),
    "boolean": (
        (FieldSpec("flag", FieldKind.BOOLEAN, "Flag", default=True, has_default=True), NOTE),
        ("space", "tab", "x", "ctrl+s"),
        {"flag": False, "note": "x"},
    ),
    "boolean not set by default": (
        (FieldSpec("maybe", FieldKind.BOOLEAN, "Maybe"), NOTE),
        ("space", "enter", "x", "ctrl+s"),
        {"maybe": True, "note": "x"},
    ),
    "boolean set with n": (
        (FieldSpec("maybe", FieldKind.BOOLEAN, "Maybe"), NOTE),
        ("n", "tab", "y", "ctrl+s"),
        {"maybe": False, "note": "y"},
    ),
    "select": (
        (FieldSpec("color", FieldKind.SELECT, "Colour", options=COLORS), NOTE),
        ("enter", "down", "down", "enter", "tab", "x", "ctrl+s"),
        {"color": "green", "note": "x"},
    ),
    "select by typing": (
        (FieldSpec("color", FieldKind.SELECT, "Colour", options=COLORS),),
        ("enter", "b", "l", "enter", "ctrl+s"),
        {"color": "blue"},
    ),
    "multi-select, enter moves on": (
        (FieldSpec("tags", FieldKind.MULTI_SELECT, "Tags", options=COLORS), NOTE),
        ("down", "space", "enter", "x", "ctrl+s"),
        {"tags": ["green"], "note": "x"},
    ),
    "multi-select": (
        (FieldSpec("tags", FieldKind.MULTI_SELECT, "Tags", options=COLORS),),
        ("space", "down", "down", "space", "ctrl+s"),
        {"tags": ["red", "blue"]},
    ),
    "long list, one choice": (
        (FieldSpec("city", FieldKind.SELECT, "City", options=CITIES), NOTE),
        ("2", "7", "enter", "x", "ctrl+s"),
        {"city": "c27", "note": "x"},
    ),
    "long list, several choices": (
        (FieldSpec("cities", FieldKind.MULTI_SELECT, "Cities", options=CITIES), NOTE),
        ("1", "2", "enter", "tab", "x", "ctrl+s"),
        {"cities": ["c12"], "note": "x"},
    ),
}


@DELIVERIES
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.anyio
async def test_keys_in_one_burst_give_exact_content(case: str, deliver: Delivery) -> None:
    fields, keys, content = CASES[case]
    outcome = await answer(fields, keys, deliver)
    assert outcome.action == "accept"
    assert wire(outcome.content) == wire(content)


@pytest.mark.parametrize(
    ("keys", "action"), [(("tab", "escape"), "cancel"), (("a", "tab", "ctrl+r"), "decline")]
)
@pytest.mark.anyio
async def test_decline_and_cancel_in_a_burst(keys: tuple[str, ...], action: str) -> None:
    outcome = await answer((FIRST, SECOND), keys, send_burst)
    assert outcome == ElicitationOutcome(action)  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_review_then_send_in_one_burst() -> None:
    app = Host(request_for(FieldSpec("n", FieldKind.INTEGER, "Count")), review=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await send_burst(pilot, app, ("4", "2", "ctrl+s", "ctrl+s"))
    assert app.outcomes == [ElicitationOutcome("accept", {"n": 42})]


@pytest.mark.anyio
async def test_invalid_burst_sends_nothing_and_later_keys_go_to_the_first_error() -> None:
    required = FieldSpec("name", FieldKind.TEXT, "Name", required=True, min_length=2)
    app = Host(request_for(required, NOTE))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await send_burst(pilot, app, ("tab", "x", "ctrl+s", "A", "l"))
        assert app.outcomes == []
        form = app.screen.query_one(SchemaForm)
        assert form.raw_values() == {"name": "Al", "note": "x"}
        await send_burst(pilot, app, ("ctrl+s",))
    assert app.outcomes == [ElicitationOutcome("accept", {"name": "Al", "note": "x"})]


@pytest.mark.anyio
async def test_paste_lands_after_the_keys_typed_before_it() -> None:
    app = Host(request_for(FIRST, SECOND))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "a", "tab", "b")
        assert app._driver is not None
        app._driver.send_message(events.Paste("pasted"))  # as the terminal delivers it
        burst(app, "ctrl+s")
        await settle(pilot, app)
    assert app.outcomes == [ElicitationOutcome("accept", {"first": "a", "second": "bpasted"})]


BIG = tuple(FieldSpec(f"f{i}", FieldKind.TEXT, f"Answer {i + 1}") for i in range(20))


@pytest.mark.anyio
async def test_typing_as_a_big_form_opens_reaches_every_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Keys queued before the screen has mounted (let alone focused its first field), with Tabs
    past rows that are still waiting to be mounted: each letter lands in its own field."""
    monkeypatch.setattr(SchemaForm, "EAGER_ROWS", 2)  # many chunks still to come
    letters = [chr(ord("a") + i) for i in range(len(BIG))]
    keys: list[str] = []
    for letter in letters:
        keys += [letter, "tab"]
    keys[-1] = "ctrl+s"
    app = Host(request_for(*BIG), push=False)
    async with app.run_test(size=SIZE) as pilot:
        app.open_form()
        burst(app, *keys)  # no await in between: the screen is not even mounted yet
        await settle(pilot, app)
    assert app.outcomes == [
        ElicitationOutcome(
            "accept", {f.name: letter for f, letter in zip(BIG, letters, strict=True)}
        )
    ]


def test_the_textual_internals_key_order_relies_on_are_there() -> None:
    """``key_order`` hooks the App's routing of keys; an upgrade that renames these must fail
    here, by name, rather than quietly bring back lost keys."""
    from textual.app import App as TextualApp
    from textual.message import Message
    from textual.widget import Widget
    from textual.widgets import Select, SelectionList

    assert callable(getattr(Widget, "_forward_event", None))
    assert callable(getattr(TextualApp, "_check_bindings", None))
    assert "_stop_propagation" in Message.__slots__
    assert "_sender" in Message.__slots__
    assert isinstance(Select([("a", 1)])._options, list)
    assert callable(getattr(SelectionList, "_toggle_highlighted_selection", None))


@pytest.mark.parametrize(("count", "first"), [(1, 1), (6, 6), (7, 2), (20, 2)])
def test_a_short_page_mounts_whole_and_a_long_one_two_rows_first(count: int, first: int) -> None:
    """Up to EAGER_ROWS rows are mounted before the first frame (a short arguments dialog is
    sized once, at its final height); a longer page starts with FIRST_ROWS."""
    fields = tuple(FieldSpec(f"f{i}", FieldKind.TEXT, f"F{i}") for i in range(count))
    form = SchemaForm(FormSpec(fields))
    mounted_first = form._start_page(0)
    assert len(mounted_first) == first
    assert form.rows_pending == count - first
