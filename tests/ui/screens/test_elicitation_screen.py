"""Pilot tests of the elicitation form: every field kind driven by keys, exact typed content.

A tiny host app pushes one :class:`ElicitationScreen` and records the outcome it dismisses with.
Forms are built from ``FieldSpec`` directly so these tests pin the UI, not the schema parser (the
end-to-end test through a real server is in ``test_elicitation_e2e.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input, OptionList, Select, SelectionList, Static

from mcp_tui.schema.fields import (
    ContentValue,
    FieldKind,
    FieldSpec,
    FormSpec,
    Option,
    TextFormat,
)
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.form.form_fields import ChoiceFilter, TriStateControl, looks_secret
from mcp_tui.ui.widgets.form.schema_form import SchemaForm
from tests.waits import wait_until

SIZE = (100, 40)


class Host(App[None]):
    """Pushes one elicitation screen and keeps what it was dismissed with."""

    def __init__(self, request: ElicitationRequest, **screen_kw: Any) -> None:
        super().__init__()
        self.request = request
        self.screen_kw = screen_kw
        self.outcomes: list[ElicitationOutcome | None] = []

    def on_mount(self) -> None:
        self.push_screen(
            ElicitationScreen(self.request, **self.screen_kw), callback=self.outcomes.append
        )


def request_for(
    *fields: FieldSpec, message: str = "Tell me things", **kw: Any
) -> ElicitationRequest:
    return ElicitationRequest(
        server="local", message=message, mode="form", form=FormSpec(tuple(fields)), **kw
    )


def opts(*values: str) -> tuple[Option, ...]:
    return tuple(Option(v, v.upper()) for v in values)


def form_screen(app: App[Any]) -> ElicitationScreen:
    screen = app.screen
    assert isinstance(screen, ElicitationScreen)
    return screen


def focused_row(app: App[Any]) -> FieldRow | None:
    node = app.focused
    while node is not None and not isinstance(node, FieldRow):
        node = node.parent  # type: ignore[assignment]
    return node


ALL_KINDS = (
    FieldSpec("name", FieldKind.TEXT, "Name", required=True, min_length=2),
    FieldSpec("email", FieldKind.TEXT, "Email", format=TextFormat.EMAIL),
    FieldSpec("age", FieldKind.INTEGER, "Age", required=True, minimum=0, maximum=150),
    FieldSpec("ratio", FieldKind.NUMBER, "Ratio", minimum=0, maximum=1),
    FieldSpec("subscribe", FieldKind.BOOLEAN, "Subscribe", default=True, has_default=True),
    FieldSpec("maybe", FieldKind.BOOLEAN, "Maybe"),
    FieldSpec("color", FieldKind.SELECT, "Color", required=True, options=opts("red", "green")),
    FieldSpec("tags", FieldKind.MULTI_SELECT, "Tags", options=opts("a", "b", "c")),
    FieldSpec(
        "city",
        FieldKind.SELECT,
        "City",
        options=tuple(Option(f"c{i}", f"City {i}") for i in range(5000)),
    ),
)


@pytest.mark.anyio
async def test_every_field_kind_by_keys_gives_exact_typed_content() -> None:
    app = Host(request_for(*ALL_KINDS))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "field-0-control"
        await pilot.press(*"Ada", "enter")  # Enter moves on
        await pilot.press(*"ada@example.com", "enter")
        await pilot.press(*"30", "enter")
        await pilot.press(*"0.25", "enter")
        await pilot.press("space", "enter")  # subscribe: default true -> false
        await pilot.press("space", "enter")  # maybe: not set -> yes
        assert isinstance(app.focused, Select)
        await pilot.press("enter")  # open the drop-down
        await pilot.press("down", "down", "enter")  # blank, RED, GREEN
        await pilot.pause()
        await pilot.press("tab")
        assert isinstance(app.focused, SelectionList)
        await pilot.press("space", "down", "down", "space")  # a and c
        await pilot.press("tab")
        assert isinstance(app.focused, Input) and app.focused.id == "field-8-control-filter"
        await pilot.press(*"city 4321")
        await pilot.press("enter")  # picks the highlighted match and moves on
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.outcomes == [
        ElicitationOutcome(
            "accept",
            {
                "name": "Ada",
                "email": "ada@example.com",
                "age": 30,
                "ratio": 0.25,
                "subscribe": False,
                "maybe": True,
                "color": "green",
                "tags": ["a", "c"],
                "city": "c4321",
            },
        )
    ]
    outcome = app.outcomes[0]
    assert outcome is not None and outcome.content is not None
    assert type(outcome.content["age"]) is int
    assert type(outcome.content["ratio"]) is float


@pytest.mark.anyio
async def test_untouched_defaults_are_sent_and_empty_optionals_omitted() -> None:
    fields = (
        FieldSpec("n", FieldKind.INTEGER, "N", default=30, has_default=True),
        FieldSpec("x", FieldKind.NUMBER, "X", default=1.5, has_default=True),
        FieldSpec("s", FieldKind.TEXT, "S", default="hi", has_default=True),
        FieldSpec("b", FieldKind.BOOLEAN, "B", default=False, has_default=True),
        FieldSpec(
            "pick", FieldKind.SELECT, "Pick", options=opts("p", "q"), default="q", has_default=True
        ),
        FieldSpec(
            "many",
            FieldKind.MULTI_SELECT,
            "Many",
            options=opts("p", "q"),
            default=["p"],
            has_default=True,
        ),
        FieldSpec("opt_text", FieldKind.TEXT, "Optional"),
        FieldSpec("opt_bool", FieldKind.BOOLEAN, "Optional boolean"),
        FieldSpec("opt_pick", FieldKind.SELECT, "Optional pick", options=opts("p")),
    )
    app = Host(request_for(*fields))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.outcomes == [
        ElicitationOutcome(
            "accept", {"n": 30, "x": 1.5, "s": "hi", "b": False, "pick": "q", "many": ["p"]}
        )
    ]
    outcome = app.outcomes[0]
    assert outcome is not None and outcome.content is not None
    assert type(outcome.content["n"]) is int


@pytest.mark.anyio
@pytest.mark.parametrize(("key", "action"), [("ctrl+r", "decline"), ("escape", "cancel")])
async def test_decline_and_cancel_keys(key: str, action: str) -> None:
    app = Host(request_for(*ALL_KINDS))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"typed")
        await pilot.press(key)
        await pilot.pause()
        if key == "escape":  # something was typed: Escape asks first (test_form_escape.py)
            await pilot.press("y")
            await pilot.pause()
    assert app.outcomes == [ElicitationOutcome(action)]  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_buttons_answer_too() -> None:
    app = Host(request_for(FieldSpec("a", FieldKind.TEXT, "A")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.click("#elicitation-decline")
        await pilot.pause()
    assert app.outcomes == [ElicitationOutcome("decline")]


@pytest.mark.anyio
async def test_invalid_form_sends_nothing_and_focuses_first_error() -> None:
    fields = (
        FieldSpec("ok", FieldKind.TEXT, "Fine"),
        FieldSpec("name", FieldKind.TEXT, "Name", required=True, min_length=3),
        FieldSpec("age", FieldKind.INTEGER, "Age", required=True, minimum=0, maximum=10),
    )
    app = Host(request_for(*fields))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"fine", "tab", "tab")
        await pilot.press(*"99")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.outcomes == []
        row = focused_row(app)
        assert row is not None and row.field.name == "name"
        screen = form_screen(app)
        assert screen.form is not None
        assert set(screen.form.errors) == {"name", "age"}
        assert row.error_shown
        status = screen.query_one("#elicitation-status", Static)
        assert "2 fields to fix" in str(status.render())
        # Fixing the fields clears the errors and the form goes out.
        await pilot.press(*"Ada", "tab")
        await pilot.press("backspace", "backspace", "5")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.outcomes == [ElicitationOutcome("accept", {"ok": "fine", "name": "Ada", "age": 5})]


@pytest.mark.anyio
async def test_inline_error_when_leaving_an_edited_field() -> None:
    fields = (
        FieldSpec("name", FieldKind.TEXT, "Name", min_length=3),
        FieldSpec("other", FieldKind.TEXT, "Other", required=True),
    )
    app = Host(request_for(*fields))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        form = form_screen(app).form
        assert form is not None
        await pilot.press("tab")  # leaving an untouched field does not nag
        await pilot.pause()
        assert form.errors == {}
        await pilot.press("shift+tab", *"ab", "tab")
        await pilot.pause()
        assert list(form.errors) == ["name"]
        row = form.row_named("name")
        assert row is not None and row.error_shown
        await pilot.press("shift+tab", "end", "c")  # fixed while the error shows: cleared live
        await pilot.pause()
        assert form.errors == {}
        assert not row.error_shown


@pytest.mark.anyio
async def test_enter_moves_to_next_field_and_never_submits() -> None:
    fields = tuple(FieldSpec(f"f{i}", FieldKind.TEXT, f"F{i}", required=True) for i in range(3))
    app = Host(request_for(*fields))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for i in range(3):
            assert app.focused is not None and app.focused.id == f"field-{i}-control"
            await pilot.press("x", "enter")
        await pilot.pause()
        assert app.outcomes == []
        assert app.focused is not None and app.focused.id == "elicitation-accept"


@pytest.mark.anyio
async def test_tab_goes_through_fields_in_schema_order_then_buttons() -> None:
    app = Host(request_for(*ALL_KINDS))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen: list[str | None] = []
        for _ in range(len(ALL_KINDS) + 3):
            assert app.focused is not None
            seen.append(app.focused.id)
            await pilot.press("tab")
        expected = [f"field-{i}-control" for i in range(len(ALL_KINDS) - 1)]
        expected.append("field-8-control-filter")
        expected += ["elicitation-accept", "elicitation-decline", "elicitation-cancel"]
        assert seen == expected


@pytest.mark.anyio
async def test_optional_boolean_without_default_can_stay_unset() -> None:
    field = FieldSpec("flag", FieldKind.BOOLEAN, "Flag")
    cases: list[tuple[tuple[str, ...], dict[str, ContentValue]]] = [
        ((), {}),
        (("space",), {"flag": True}),
        (("space", "space"), {"flag": False}),
        (("space", "space", "space"), {}),
    ]
    for presses, expected in cases:
        app = Host(request_for(field))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.focused, TriStateControl)
            await pilot.press(*presses, "ctrl+s")
            await pilot.pause()
        assert app.outcomes == [ElicitationOutcome("accept", expected)], presses


@pytest.mark.anyio
async def test_confirmation_dialog_for_empty_properties() -> None:
    app = Host(request_for(message="Delete everything?"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = form_screen(app)
        assert screen.form is None
        assert not screen.query(SchemaForm)
        # Nothing is focused, so a stray Enter cannot accept.
        await pilot.press("enter")
        await pilot.pause()
        assert app.outcomes == []
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.outcomes == [ElicitationOutcome("accept", {})]


@pytest.mark.anyio
async def test_review_step_shows_content_before_sending() -> None:
    app = Host(request_for(FieldSpec("n", FieldKind.INTEGER, "Count")), review=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("4", "2", "ctrl+s")
        await pilot.pause()
        assert app.outcomes == []
        screen = form_screen(app)
        review = str(screen.query_one("#elicitation-review", Static).render())
        assert "Count: 42" in review
        await pilot.click("#elicitation-back")  # back to the form, change it
        await pilot.pause()
        await pilot.press("backspace", "7", "ctrl+s", "ctrl+s")
        await pilot.pause()
    assert app.outcomes == [ElicitationOutcome("accept", {"n": 47})]


HOSTILE = (
    "[/] [@click=screen.dismiss('accept')]click me[/] [link='https://x.example']l[/] \x1b]0;t\x07"
)


@pytest.mark.anyio
async def test_hostile_strings_render_literally_and_do_nothing() -> None:
    fields = (
        FieldSpec("my field", FieldKind.TEXT, HOSTILE, description=HOSTILE, required=True),
        FieldSpec(
            "1st",
            FieldKind.SELECT,
            "[b]",
            options=(Option("[/]", HOSTILE), Option("x", "[")),
            default="[/]",
            has_default=True,
        ),
        FieldSpec("a.b", FieldKind.MULTI_SELECT, "[/]", options=(Option("[/]", HOSTILE),)),
        FieldSpec("[/]", FieldKind.BOOLEAN, HOSTILE, default=True, has_default=True),
        FieldSpec(
            "x" * 300,
            FieldKind.SELECT,
            "long",
            options=tuple(Option(f"{HOSTILE}{i}", f"{HOSTILE}{i}") for i in range(30)),
        ),
    )
    app = Host(request_for(*fields, message=HOSTILE, tool=HOSTILE))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = form_screen(app)
        message = str(screen.query_one("#elicitation-message", Static).render())
        assert "[@click=screen.dismiss('accept')]click me[/]" in message
        assert "\x1b" not in message and "\\e]0;t\\x07" in message
        header = str(screen.query_one("#elicitation-header", Static).render())
        assert "\x1b" not in header and "[/]" in header
        row = screen.query_one("#field-0", FieldRow)
        labels = " ".join(str(s.render()) for s in row.query(Static))
        assert "[@click=screen.dismiss('accept')]" in labels
        # Clicking the "link" text must not run the action.
        await pilot.click("#elicitation-message")
        await pilot.click("#field-0 .field-label", offset=(0, 1))  # the description line
        await pilot.pause()
        assert app.outcomes == []
        await pilot.press(*"v", "ctrl+s")
        await pilot.pause()
    assert app.outcomes == [
        ElicitationOutcome("accept", {"my field": "v", "1st": "[/]", "[/]": True})
    ]


@pytest.mark.anyio
async def test_odd_property_names_get_generated_ids() -> None:
    names = ["my field", "1st", "a.b", "#x", "", "field-0", "é"]
    fields = tuple(FieldSpec(n, FieldKind.TEXT, n or "empty") for n in names)
    app = Host(request_for(*fields))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rows = form_screen(app).query(FieldRow)
        assert [r.id for r in rows] == [f"field-{i}" for i in range(len(names))]
        for _ in names:
            await pilot.press("z", "enter")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.outcomes == [ElicitationOutcome("accept", {n: "z" for n in names})]


@pytest.mark.anyio
async def test_default_that_is_not_an_option_is_not_preselected() -> None:
    fields = (
        FieldSpec(
            "pick", FieldKind.SELECT, "Pick", options=opts("p", "q"), default="zz", has_default=True
        ),
        FieldSpec(
            "many",
            FieldKind.MULTI_SELECT,
            "Many",
            options=opts("p"),
            default=["zz"],
            has_default=True,
        ),
    )
    app = Host(request_for(*fields))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        form = form_screen(app).form
        assert form is not None
        raws = form.raw_values()
        assert raws["pick"] is None and raws["many"] == []


@pytest.mark.anyio
async def test_secret_looking_fields_carry_a_warning() -> None:
    app = Host(
        request_for(
            FieldSpec("apiKey", FieldKind.TEXT, "Key"), FieldSpec("name", FieldKind.TEXT, "Name")
        )
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = form_screen(app)
        warning = str(screen.query_one("#elicitation-secret", Static).render())
        assert "Key" in warning and "forbids" in warning
        assert "looks like a secret" in str(
            screen.query_one("#field-0 .field-label", Static).render()
        )
        assert "looks like a secret" not in str(
            screen.query_one("#field-1 .field-label", Static).render()
        )


@pytest.mark.anyio
async def test_a_secret_asked_for_in_a_description_or_the_message_carries_the_warning() -> None:
    # A phishing form picks a neutral key and title and asks in the description (issue 25).
    phishing = FieldSpec(
        "access", FieldKind.TEXT, "Access", description="Paste your GitHub personal access token"
    )
    warned = FieldSpec(
        "note",
        FieldKind.TEXT,
        "Note",
        description="Never share your password or API keys in this note",
    )
    app = Host(request_for(warned, phishing, message="Almost done"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = form_screen(app)
        warning = str(screen.query_one("#elicitation-secret", Static).render())
        assert "Access" in warning and "Note" not in warning
        assert "looks like a secret" in str(
            screen.query_one("#field-1 .field-label", Static).render()
        )
        assert "looks like a secret" not in str(
            screen.query_one("#field-0 .field-label", Static).render()
        )
    # The same request in the message, over a field called "Value".
    plain = FieldSpec("value", FieldKind.TEXT, "Value")
    app = Host(request_for(plain, message="Please paste your Stripe secret key below."))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        warning = str(form_screen(app).query_one("#elicitation-secret", Static).render())
        assert "the message" in warning and "forbids" in warning
    app = Host(request_for(plain, message="We will never ask for your password."))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not form_screen(app).query("#elicitation-secret")


@pytest.mark.parametrize(
    ("name", "title", "description", "secret"),
    [
        ("password", "", None, True),
        ("apiKey", "", None, True),
        ("x", "API key", None, True),
        ("x", "Access token", None, True),
        ("cardNumber", "", None, True),
        ("x", "CVV", None, True),
        ("ssn", "", None, True),
        ("x", "Client secret", "From the dashboard", True),
        # A description that asks for a secret counts; one that warns against giving one not.
        ("x", "y", "Your client secret from the dashboard", True),
        (
            "integer",
            "Integer",
            "Your favorite integer (do not give us your phone number, pin, or other "
            "sensitive info)",
            False,
        ),
        ("pin", "PIN", None, True),
        ("name", "Name", "Your full name", False),
        ("tokenizer", "Tokenizer", "Which tokenizer to use", False),
        # A count of a model's tokens is no secret (server-everything's sampling tool).
        ("maxTokens", "", None, False),
        ("max_tokens", "Max tokens", None, False),
        ("x", "Token limit", None, False),
        ("tokenCount", "", None, False),
        ("x", "Number of tokens", None, False),
        ("tokensUsed", "", None, False),
        # ... but a token "used for" or "used to" something is the credential itself.
        ("session", "Token used for this session", None, True),
        ("x", "Tokens used to sign in", None, True),
        ("authToken", "", None, True),
        ("token", "Token", None, True),
        ("passage", "Passage", None, False),
        ("email", "Email", None, False),
    ],
)
def test_looks_secret(name: str, title: str, description: str | None, secret: bool) -> None:
    field = FieldSpec(name, FieldKind.TEXT, title or name, description=description)
    assert looks_secret(field) is secret


@pytest.mark.anyio
async def test_schema_notes_are_shown() -> None:
    form = FormSpec(
        (FieldSpec("a", FieldKind.TEXT, "A", notes=("default dropped: too long",)),),
        notes=("keyword `pattern` is outside the spec",),
    )
    request = ElicitationRequest("local", "m", "form", form=form)
    app = Host(request)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        notes = str(form_screen(app).query_one("#elicitation-notes", Static).render())
        assert "pattern" in notes and "A: default dropped" in notes
        assert notes.endswith("Ctrl+P › Check this server")  # where other clients' view is


@pytest.mark.anyio
async def test_a_form_without_notes_has_no_check_hint() -> None:
    app = Host(request_for(FieldSpec("a", FieldKind.TEXT, "A")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not form_screen(app).query("#elicitation-notes")


@pytest.mark.anyio
async def test_waiting_count_is_visible_and_updates() -> None:
    app = Host(request_for(FieldSpec("a", FieldKind.TEXT, "A")), waiting=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = form_screen(app)
        header = screen.query_one("#elicitation-header", Static)
        assert "2 more waiting" in str(header.render())
        screen.header.set_waiting(0)
        await pilot.pause()
        assert "waiting" not in str(header.render())


@pytest.mark.anyio
async def test_long_form_is_paginated_and_errors_switch_page() -> None:
    fields = tuple(FieldSpec(f"f{i}", FieldKind.TEXT, f"Field {i}") for i in range(59))
    fields += (FieldSpec("last", FieldKind.INTEGER, "Last", required=True),)
    app = Host(request_for(*fields))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = form_screen(app).form
        assert form is not None
        assert form.page_count == 3
        # The page's rows mount a few per frame after the first ones (form_pages.py).
        await wait_until(lambda: form.rows_pending == 0, pilot=pilot, message="the whole page")
        assert len(form.rows()) == SchemaForm.PAGE_SIZE
        await pilot.press(*"kept")  # on page 1, kept when the page changes
        await pilot.press("ctrl+s")

        def on_last() -> bool:
            row = focused_row(app)
            return form.page == 2 and row is not None and row.field.name == "last"

        await wait_until(on_last, pilot=pilot, message="the page of the field in error")
        assert app.outcomes == []
        await pilot.press(*"7", "ctrl+s")
        await wait_until(lambda: app.outcomes, pilot=pilot, message="the answer")
    assert app.outcomes == [ElicitationOutcome("accept", {"f0": "kept", "last": 7})]


@pytest.mark.anyio
async def test_long_option_list_filters_without_building_every_option() -> None:
    options = tuple(Option(f"v{i}", f"Option {i}") for i in range(10_000))
    field = FieldSpec("many", FieldKind.MULTI_SELECT, "Many", options=options)
    app = Host(request_for(field))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        control = form_screen(app).query_one(ChoiceFilter)
        option_list = control.query_one(OptionList)
        assert option_list.option_count <= 51
        await pilot.press(*"option 999")  # 999, 9990..9999
        await pilot.pause()
        assert option_list.option_count == 11
        await pilot.press("enter", "down", "enter")  # toggle the first two matches
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.outcomes == [ElicitationOutcome("accept", {"many": ["v999", "v9990"]})]


@pytest.mark.anyio
async def test_raw_text_keeps_what_was_typed() -> None:
    app = Host(request_for(*ALL_KINDS))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"Ad", "enter", *"not an email")
        await pilot.pause()
        assert form_screen(app).raw_text() == {
            "name": "Ad",
            "email": "not an email",
            "subscribe": "true",
        }
