"""A server's value in a widget never reaches the terminal as control characters.

Labels went through the untrusted-text helper, but the *value* of a field did not: a string
default ``x\\e]0;TITLE\\a…`` renamed the window and ``\\e]52;…`` wrote the clipboard as soon as the
form was drawn, ``\\e[2J`` cleared the screen, and a multi-line default drew its newlines at column
0 over the form. Each test here runs a screen with a server value in a widget (an elicitation
form's default, a tool form's default, list items and map keys, a remembered argument, an enum
option, a completion, a sampling request, the JSON editor), records every byte the app writes to
the terminal (``written_bytes``) and finds none of the server's control characters in it, only
their visible stand-ins (``␛`` for ESC, ``␊`` for a newline in a one-line field). And the value
itself is untouched: a form accepted as it came sends the server's exact string back.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, TextArea
from textual.widgets.text_area import Selection

import mcp_tui.ui
from mcp_tui.schema.arguments.last_sent import Prefill
from mcp_tui.schema.parse import parse_requested_schema
from mcp_tui.session.completions import Completion
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.sampling import SamplingMessage, SamplingPart, SamplingRequest
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.sampling_review import SamplingScreen
from mcp_tui.ui.widgets.text.inert import InertInput
from mcp_tui.ui.widgets.text.inert_area import InertTextArea
from tests.ui.app_testkit import ArgumentsHost
from tests.ui.written_bytes import leaked_controls, recording, shown_text, written
from tests.waits import wait_until

pytestmark = pytest.mark.anyio
SIZE = (100, 40)

#: OSC 0 (window title), OSC 52 (clipboard), CSI clear screen and home, a C1 CSI.
HOSTILE = "x\x1b]0;TITLE\x07y\x1b]52;c;aGk=\x07z\x1b[2J\x1b[Hq\x9b31m"
#: How HOSTILE reads on screen: one visible character for each control character.
HOSTILE_SHOWN = "x␛]0;TITLE␇y␛]52;c;aGk=␇z␛[2J␛[Hq\ufffd31m"
#: A default with line breaks, for a one-line field (fast-agent's forms demo has one).
MULTILINE = "first line\nsecond line\r\nthird"
MULTILINE_SHOWN = "first line␊second line␍␊third"


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Any:
    with recording(monkeypatch):
        yield


async def settled(pilot: Pilot[None]) -> None:
    """Let the app draw what it has (every refresh is written to the recorder)."""
    await pilot.pause()
    await pilot.pause()


def assert_inert(app: App[Any], *shown: str) -> None:
    output = written(app)
    assert leaked_controls(output) == []
    text = shown_text(output)
    for piece in shown:
        assert piece in text, f"{piece!r} not drawn"


# --- elicitation forms ----------------------------------------------------------------------


class FormHost(App[None]):
    def __init__(self, request: ElicitationRequest) -> None:
        super().__init__()
        self.request = request
        self.outcomes: list[ElicitationOutcome | None] = []

    def on_mount(self) -> None:
        self.push_screen(ElicitationScreen(self.request), callback=self.outcomes.append)


def form_request(properties: dict[str, Any]) -> ElicitationRequest:
    schema = {"type": "object", "properties": properties}
    return ElicitationRequest(
        server="evil", message="Fill in", mode="form", form=parse_requested_schema(schema)
    )


async def test_an_elicitation_default_is_drawn_inert_and_sent_exactly(recorded: None) -> None:
    request = form_request(
        {
            "title": {"type": "string", "title": "Pay\u00adPal name", "default": HOSTILE},
            "notes": {"type": "string", "default": MULTILINE},
            "tags": {"type": "array", "items": {"type": "string"}, "default": [HOSTILE]},
        }
    )
    app = FormHost(request)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: isinstance(app.screen, ElicitationScreen), pilot=pilot)
        await wait_until(lambda: len(app.screen.query(Input)) >= 3, pilot=pilot)
        await settled(pilot)
        assert_inert(app, HOSTILE_SHOWN, MULTILINE_SHOWN, "Pay\\xadPal name")
        assert "\xad" not in written(app)  # a soft hyphen: "PayPal" or "Pay-Pal" by terminal
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.outcomes, pilot=pilot, message="the answer")
    assert app.outcomes == [
        ElicitationOutcome("accept", {"title": HOSTILE, "notes": MULTILINE, "tags": [HOSTILE]})
    ]


async def test_enum_options_are_drawn_inert(recorded: None) -> None:
    many = [f"{HOSTILE}{i}" for i in range(25)]  # a long list: the filter box
    request = form_request(
        {
            "pick": {"type": "string", "enum": [HOSTILE, "plain"], "default": HOSTILE},
            "some": {
                "type": "array",
                "items": {"type": "string", "enum": [HOSTILE, "plain"]},
                "default": [HOSTILE],
            },
            "long": {"type": "string", "enum": many},
        }
    )
    app = FormHost(request)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: isinstance(app.screen, ElicitationScreen), pilot=pilot)
        await settled(pilot)
        await pilot.press("enter")  # the first field, the select: open its drop-down
        await settled(pilot)
        # Labels, as ever: escapes (the option's value is never a widget's value).
        assert_inert(app, "y\\e]52;c;aGk=\\x07z")
        await pilot.press("escape")
        await settled(pilot)


# --- tool arguments -------------------------------------------------------------------------

FLAT = {
    "type": "object",
    "properties": {
        "note": {"type": "string", "default": HOSTILE, "examples": [HOSTILE]},
        "body": {"type": "string", "default": MULTILINE},
        "empty": {"type": "string", "examples": [HOSTILE]},
    },
}

TREE = {
    "type": "object",
    "properties": {
        "items": {"type": "array", "items": {"type": "string"}, "default": [HOSTILE, MULTILINE]},
        "labels": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "default": {HOSTILE: MULTILINE},
        },
    },
}


async def test_a_tool_argument_default_is_drawn_inert_and_sent_exactly(recorded: None) -> None:
    app = ArgumentsHost(FLAT)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: len(app.screen.query(Input)) >= 3, pilot=pilot)
        await settled(pilot)
        assert_inert(app, HOSTILE_SHOWN, MULTILINE_SHOWN)
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.results, pilot=pilot, message="the call")
    assert app.results == [{"note": HOSTILE, "body": MULTILINE}]


async def test_tree_form_items_and_map_keys_are_drawn_inert(recorded: None) -> None:
    app = ArgumentsHost(TREE)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: len(app.screen.query(Input)) >= 4, pilot=pilot)
        await settled(pilot)
        assert_inert(app, HOSTILE_SHOWN, MULTILINE_SHOWN)
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.results, pilot=pilot, message="the call")
    assert app.results == [{"items": [HOSTILE, MULTILINE], "labels": {HOSTILE: MULTILINE}}]


async def test_a_remembered_value_is_drawn_inert_and_sent_exactly(recorded: None) -> None:
    sent = {"note": HOSTILE, "body": MULTILINE, "empty": "\x1b]8;;https://evil\x1b\\"}
    app = ArgumentsHost(FLAT, prefill=Prefill(sent, "last sent 12:03:04"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: len(app.screen.query(Input)) >= 3, pilot=pilot)
        await settled(pilot)
        assert_inert(app, HOSTILE_SHOWN, MULTILINE_SHOWN, "␛]8;;https://evil␛\\")
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.results, pilot=pilot, message="the call")
    assert app.results == [sent]


async def test_the_json_editor_is_drawn_inert_and_sends_exactly(recorded: None) -> None:
    # JSON escapes C0 characters itself; C1, DEL and bidi controls it writes as they are.
    value = "a\x9b2Jb\x7fc\u202ed\x85e"
    schema = {"type": "object", "properties": {"v": {"type": "string", "default": value}}}
    app = ArgumentsHost(schema)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: len(app.screen.query(Input)) >= 1, pilot=pilot)
        await pilot.press("f2")
        await wait_until(lambda: app.screen.query("#arguments-json"), pilot=pilot)
        editor = app.screen.query_one("#arguments-json", TextArea)
        assert json.loads(editor.text) == {"v": value}
        await settled(pilot)
        assert_inert(app)
        assert value not in shown_text(written(app))
        await pilot.press("ctrl+s")
        await wait_until(lambda: app.results, pilot=pilot, message="the call")
    assert app.results == [{"v": value}]


# --- completions ----------------------------------------------------------------------------


class Completer:
    def __init__(self, values: tuple[str, ...]) -> None:
        self.values = values

    async def __call__(self, argument: str, value: str, context: Mapping[str, str]) -> Completion:
        return Completion(tuple(v for v in self.values if v.startswith(value)))


class CompletionHost(App[None]):
    def __init__(self, completer: Completer) -> None:
        super().__init__()
        self.completer = completer

    def on_mount(self) -> None:
        schema = {"type": "object", "properties": {"city": {"type": "string"}}}
        self.push_screen(ArgumentsScreen("t", schema, verb="Get", completer=self.completer))


async def test_a_completion_is_drawn_inert_and_accepted_exactly(recorded: None) -> None:
    app = CompletionHost(Completer((HOSTILE,)))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: isinstance(app.focused, Input), pilot=pilot, message="focus")
        field = app.focused
        assert isinstance(field, Input)
        await pilot.press("x")  # Textual shows a suggestion after what was typed, not alone
        await wait_until(lambda: field._suggestion == HOSTILE, pilot=pilot, message="suggested")
        await settled(pilot)
        assert_inert(app, HOSTILE_SHOWN[1:])  # the dim rest of the suggestion
        await pilot.press("right")  # takes the suggestion
        await wait_until(lambda: field.value == HOSTILE, pilot=pilot, message="accepted")
        await settled(pilot)
        assert_inert(app, HOSTILE_SHOWN)


# --- sampling -------------------------------------------------------------------------------


class SamplingHost(App[None]):
    def __init__(self, request: SamplingRequest) -> None:
        super().__init__()
        self.request = request

    def on_mount(self) -> None:
        self.push_screen(SamplingScreen(self.request))


async def test_a_sampling_request_and_the_reply_box_are_drawn_inert(recorded: None) -> None:
    request = SamplingRequest(
        server="evil",
        messages=(SamplingMessage("user", (SamplingPart("text", HOSTILE + "\n" + MULTILINE),)),),
        max_tokens=100,
        system_prompt=HOSTILE,
        stop_sequences=(HOSTILE,),
        model_hints=(HOSTILE,),
    )
    app = SamplingHost(request)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: isinstance(app.screen, SamplingScreen), pilot=pilot)
        reply = app.screen.query_one("#sampling-reply", TextArea)
        await wait_until(lambda: reply.is_mounted, pilot=pilot)
        # What the chat model answers lands in the reply box (``sampling_model``): as untrusted
        # as the request that asked for it.
        answer = f"{HOSTILE}\n{HOSTILE}\ttail"
        reply.load_text(answer)
        await settled(pilot)
        assert_inert(app, "\\e]0;TITLE", HOSTILE_SHOWN)
        assert reply.text == answer


# --- editing still works, and every input is an inert one -----------------------------------


class OneInput(App[None]):
    def __init__(self, value: str) -> None:
        super().__init__()
        self.value = value

    def compose(self) -> Any:
        yield InertInput(self.value, id="field", compact=True)


async def test_the_cursor_stays_on_the_character_it_is_drawn_on(recorded: None) -> None:
    """One picture per character: the cursor, a click and typing land where they are drawn."""
    app = OneInput("a\x1bb\x07c\u202ed")
    async with app.run_test(size=(40, 3)) as pilot:
        field = app.query_one(InertInput)
        field.focus()
        await pilot.press("home", "right", "right")
        assert field.cursor_position == 2
        assert field._position_to_cell(2) == 2  # Textual counts ESC as no cell at all
        await pilot.press("Z")
        assert field.value == "a\x1bZb\x07c\u202ed"
        await pilot.press("end", "left", "backspace")  # the bidi override goes
        assert field.value == "a\x1bZb\x07cd"
        await pilot.click(field, offset=(5, 0))  # on "c": a, ␛, Z, b, ␇, c
        assert field.cursor_position == 5
        await settled(pilot)
        assert_inert(app, "a␛Zb␇cd")


class OneEditor(App[None]):
    CSS = "InertTextArea { width: 24; height: 6; }"

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> Any:
        yield InertTextArea(self.text, soft_wrap=True, show_line_numbers=False)


async def test_an_editor_lays_out_and_edits_what_it_draws(recorded: None) -> None:
    """Textual measures an ESC as no cell: drawn as ␛, a wrapped line lost as many characters at
    its end. Measured as drawn, nothing is lost, and editing works on the real text."""
    text = "\x1b" * 12 + "abcdefghijklmnopqrstuvwxyz\n\x9bend"
    app = OneEditor(text)
    async with app.run_test(size=(40, 8)) as pilot:
        area = app.query_one(InertTextArea)
        area.focus()
        await settled(pilot)
        assert_inert(app, "␛" * 12 + "abcdefg", "hijklmnopqrstuvwxyz", "\ufffdend")
        area.move_cursor((0, 12))
        await pilot.press("Z")
        assert area.text == "\x1b" * 12 + "Zabcdefghijklmnopqrstuvwxyz\n\x9bend"
        area.selection = Selection((0, 10), (1, 1))
        assert area.selected_text == "\x1b\x1bZabcdefghijklmnopqrstuvwxyz\n\x9b"
        await pilot.press("down", "end", "backspace", "backspace", "backspace")
        assert area.text.endswith("\n\x9b")


def test_every_input_and_editor_of_the_ui_is_an_inert_one() -> None:
    """A plain ``Input`` or ``TextArea`` draws a server's value raw: none is made or subclassed
    anywhere in ``mcp_tui.ui`` but in the two modules that make them inert."""
    root = Path(mcp_tui.ui.__file__).parent
    plain = {"Input", "TextArea"}
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        if path.name in ("inert.py", "inert_area.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[ast.expr] = []
            if isinstance(node, ast.Call):
                names = [node.func]
            elif isinstance(node, ast.ClassDef):
                names = list(node.bases)
            for name in names:
                if isinstance(name, ast.Name) and name.id in plain:
                    found.append(f"{path.relative_to(root)}:{node.lineno}: {name.id}")
                elif isinstance(name, ast.Attribute) and name.attr in plain:
                    found.append(f"{path.relative_to(root)}:{node.lineno}: {name.attr}")
    assert found == []
