"""What the arguments screen shows between its title and its buttons: one of three bodies.

A flat ``inputSchema`` gets the elicitation forms' ``SchemaForm`` (:class:`FlatBody`), anything
richer the tree form of ``widgets.arguments.arguments_form`` (:class:`TreeBody`), and a schema
neither can show, or F2, the JSON editor (:class:`EditorBody`). Each body answers the same few
questions (show yourself, what are the arguments or else the errors, where is the first error, was
anything typed, what is filled in so far as JSON), so the screen's keys (Ctrl+S, F2, Escape) are
written once, not as three branches each. A body lives as long as the screen: what F2 carries over
(the JSON put into a form, the form's values put into the editor) waits in it while it is hidden.

The form widgets are imported when a body is first shown, like the screen itself (importing them
costs tens of milliseconds that a session which never opens this screen should not pay).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from mcp_tui.schema.arguments.build import build_arguments
from mcp_tui.schema.arguments.nodes import ObjectNode
from mcp_tui.schema.arguments.state import ObjectState, state_for
from mcp_tui.schema.fields import FormSpec
from mcp_tui.ui.json_args import check_arguments, starter_text
from mcp_tui.ui.key_order import OrderedKeys
from mcp_tui.ui.literal import literal
from mcp_tui.ui.widgets.text.inert_area import InertTextArea
from mcp_tui.untrusted import json_text

if TYPE_CHECKING:
    from mcp_tui.ui.widgets.arguments.arguments_form import ArgumentsForm
    from mcp_tui.ui.widgets.form.schema_form import SchemaForm

#: The screen's answer when a form has fields in error.
FIX_FIELDS = "Please fix the fields marked in red."

#: What :meth:`collect` gives back: the arguments, or ``None`` and the errors to show (none: keep
#: what is shown).
Collected = tuple[dict[str, Any] | None, list[str]]


def classify(schema: dict[str, Any]) -> tuple[FormSpec | None, str | None]:
    """``(form, None)`` when the schema fits a form, else ``(None, why the JSON editor)``."""
    from mcp_tui.schema.parse import classify_input_schema

    try:
        result = classify_input_schema(schema)
    except Exception as error:  # a schema engine bug must not take the screen down
        return None, f"the schema could not be read as a form ({type(error).__name__})"
    if isinstance(result, FormSpec):
        return result, None
    return None, result.reason


class JsonEditor(OrderedKeys, InertTextArea):
    """The JSON editor: each key takes effect before the next, so Ctrl+S sees all of them.

    Made with ``tab_behavior="focus"``: Tab leaves it, as it leaves every field of the form, and
    Escape reaches the screen and cancels, as the footer says. With Textual's ``"indent"``
    Escape only moved the focus on, to the Send button, where the next Enter sent the call.
    JSON needs no indentation, so Tab is not missed.
    """


class _FormBody:
    """What the two form bodies share: the form widget once shown, its first error, its edits."""

    form: SchemaForm | ArgumentsForm | None

    async def focus_first_error(self) -> None:
        if self.form is not None:
            await self.form.focus_first_error()

    @property
    def changed(self) -> bool:
        return self.form is not None and self.form.is_attached and self.form.touched


class FlatBody(_FormBody):
    """The flat form (``SchemaForm``), or "No arguments." for a tool that takes none."""

    def __init__(self, spec: FormSpec, schema: dict[str, Any]) -> None:
        self.spec = spec
        self.schema = schema
        #: The values the JSON editor gave back (F2), as the form's raw values.
        self.raws: dict[str, Any] | None = None
        self.form: SchemaForm | None = None

    @property
    def sized_to_content(self) -> bool:
        """A form the dialog may fit to its content (see ``ArgumentsScreen.short``)."""
        return not self.spec.is_confirmation

    async def show(self, holder: Vertical) -> bool:
        """Mount into ``holder``; whether a field took focus (else the screen focuses Send)."""
        self.form = None
        if self.spec.is_confirmation:
            await holder.mount(Static(Content("No arguments."), classes="arguments-note"))
            return False
        from mcp_tui.ui.widgets.form.schema_form import SchemaForm

        self.form = SchemaForm(self.spec, id="arguments-form", raws=self.raws)
        await holder.mount(VerticalScroll(self.form, id="arguments-scroll"))
        return self.form.focus_first()

    def collect(self, *, focus: bool) -> Collected:
        if self.spec.is_confirmation:
            return {}, []
        if self.form is None:  # not shown yet
            return None, []
        result = self.form.submit(focus=focus)
        if result.ok and result.content is not None:
            return dict(result.content), []
        return None, [FIX_FIELDS]

    def values(self) -> dict[str, Any] | None:
        """What is filled in, as JSON for the editor: the form's answer when it is valid, else
        each field read as far as it goes."""
        if self.spec.is_confirmation or self.form is None:
            return None
        # Without focus: the form is about to go, and a field focused now would be gone by the
        # time it scrolls into view.
        result = self.form.submit(focus=False)
        if result.content is not None:
            return dict(result.content)
        from mcp_tui.schema.arguments.answer import partial

        flat = build_arguments(self.schema)
        if isinstance(flat, ObjectNode):
            state = state_for(flat)
            assert isinstance(state, ObjectState)
            for name, raw in self.form.raw_values().items():
                leaf = state.children.get(name)
                if leaf is not None and hasattr(leaf, "raw"):
                    leaf.raw = raw
            return partial(flat, state)
        return None

    def load(self, value: dict[str, Any]) -> None:
        """The editor's JSON as the form's starting values."""
        flat = build_arguments(self.schema)
        if isinstance(flat, ObjectNode):
            state = state_for(flat, value)
            assert isinstance(state, ObjectState)
            self.raws = {name: getattr(leaf, "raw", None) for name, leaf in state.children.items()}

    def reset(self) -> None:
        """Start again from the schema's defaults."""
        self.raws = None


class TreeBody(_FormBody):
    """The tree form (``ArgumentsForm``) of nested objects, lists, variants and maps."""

    #: Never fitted to its content: a tree grows as items are added and sections unfold.
    sized_to_content = False

    def __init__(self, model: ObjectNode, schema: dict[str, Any]) -> None:
        self.model = model
        self.schema = schema
        #: The values the JSON editor gave back (F2), as the tree's state.
        self.state: ObjectState | None = None
        self.form: ArgumentsForm | None = None

    async def show(self, holder: Vertical) -> bool:
        from mcp_tui.ui.widgets.arguments.arguments_form import ArgumentsForm

        self.form = ArgumentsForm(self.model, self.schema, state=self.state, id="arguments-form")
        await holder.mount(VerticalScroll(self.form, id="arguments-scroll"))
        return self.form.focus_first()

    def collect(self, *, focus: bool) -> Collected:
        if self.form is None:  # not shown yet
            return None, []
        arguments = self.form.submit()
        if arguments is not None:
            return arguments, []
        return None, [FIX_FIELDS, *self.form.form_errors]

    def values(self) -> dict[str, Any] | None:
        return None if self.form is None else self.form.partial()

    def load(self, value: dict[str, Any]) -> None:
        state = state_for(self.model, value)
        assert isinstance(state, ObjectState)
        state.present = True
        self.state = state

    def reset(self) -> None:
        """Start again from the schema's defaults."""
        self.state = None


class EditorBody:
    """The JSON editor, with a note on why it is shown; the arguments are checked against the
    schema before they are sent."""

    sized_to_content = False

    def __init__(
        self, schema: dict[str, Any], initial: dict[str, Any] | None, reason: str | None
    ) -> None:
        self.schema = schema
        #: The text to start from, as JSON (given, or the form's values on F2); else a starter.
        self.initial = initial
        #: Why the editor and not a form (a schema the forms cannot show).
        self.reason = reason
        #: Set after a Ctrl+S on a schema we cannot check: the next Ctrl+S sends unchecked.
        self.unchecked_ok = False
        #: The text when it was shown (Escape asks when it changed).
        self._start: str | None = None
        self.editor: JsonEditor | None = None

    async def show(self, holder: Vertical) -> bool:
        note = "Arguments as a JSON object, checked against the schema before sending."
        if self.reason:
            note += f"\n{self.reason}"
        text = (
            json_text(self.initial, indent=2)
            if self.initial is not None
            else starter_text(self.schema)
        )
        self.editor = JsonEditor(
            text,
            soft_wrap=True,
            show_line_numbers=True,
            tab_behavior="focus",
            id="arguments-json",
        )
        self._start = text
        await holder.mount(Static(literal(note, limit=600), classes="arguments-note"), self.editor)
        # At once, not after the App's queue (``Widget.focus``): the next key must reach it.
        holder.screen.set_focus(self.editor)
        return True

    @property
    def text(self) -> str:
        return "" if self.editor is None else self.editor.text

    def collect(self, *, focus: bool) -> Collected:
        check = check_arguments(self.text, self.schema)
        if check.ok:
            return check.arguments, []
        if check.errors:
            self.unchecked_ok = False
            return None, list(check.errors)
        if check.schema_problem and check.arguments is not None:
            if self.unchecked_ok:
                return check.arguments, []
            self.unchecked_ok = True
            return None, [check.schema_problem, "Press Ctrl+S again to send without checking."]
        return None, []

    async def focus_first_error(self) -> None:
        """The errors are listed under the editor; the cursor stays where it is."""

    @property
    def changed(self) -> bool:
        editor = self.editor
        return (
            editor is not None
            and editor.is_attached
            and self._start is not None
            and editor.text != self._start
        )


#: The body on screen.
Body = FlatBody | TreeBody | EditorBody
