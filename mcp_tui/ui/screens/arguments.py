"""Fill in the arguments of a tool call, a prompt or a resource template, then send with Ctrl+S.

A flat ``inputSchema`` becomes the elicitation forms' ``SchemaForm``; anything richer (nested
objects, lists, variants, maps, ``$ref`` s) the tree form of ``widgets.arguments_form``. Only a
schema neither can show (its root is not an object) opens the JSON editor first, with the reason;
F2 switches between form and JSON both ways, keeping the values. Either way the arguments are
checked against the tool's own schema before they are sent (:mod:`mcp_tui.ui.json_args`). The
screen returns the arguments, or ``None`` when cancelled. Names, descriptions and the schema are
the server's: shown only as literal text.

Keys typed in a burst (a fast typist, a macro, ``tmux send-keys``) take effect in order, on the
field focused once the keys before them have, and Ctrl+S sends only after all of them
(:mod:`mcp_tui.ui.widgets.key_order`): ``payments-api`` then Ctrl+S sends ``payments-api``, in the
form and in the JSON editor alike.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, Static, TextArea

from mcp_tui.schema.arguments.build import build_arguments
from mcp_tui.schema.arguments.nodes import ObjectNode
from mcp_tui.schema.arguments.state import ObjectState, state_for
from mcp_tui.schema.fields import FormSpec
from mcp_tui.ui.json_args import check_arguments, parse_arguments, starter_text
from mcp_tui.ui.render import clip
from mcp_tui.ui.screens.styled_once import StyledOnce
from mcp_tui.ui.text import literal, literal_line
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.key_order import OrderedButton, OrderedKeys, SequencedScreen, after_keys

if TYPE_CHECKING:
    from mcp_tui.ui.completions import ArgumentCompletions, Completer

#: The checkbox of a tool that may run as a task (mcp-tui's own words).
TASK_LABEL = Content("Run as a task (tasks/get for the status, tasks/result for the result)")

#: Forms of at most this many fields get a dialog sized to its content.
SHORT_FIELDS = 4


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


class JsonEditor(OrderedKeys, TextArea):
    """The JSON editor: each key takes effect before the next, so Ctrl+S sees all of them."""


class ArgumentsScreen(StyledOnce, SequencedScreen, ModalScreen[dict[str, Any] | None]):
    """A form (or JSON editor) for the arguments of one call; dismisses with them or ``None``."""

    #: Focus is placed by ``_show_body`` (first field, the editor or Send), never guessed.
    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "send", "Send", priority=True, id="arguments.send"),
        # Priority, like Ctrl+S: it swaps the body after the keys before it (``after_keys``). Run
        # from a field's own key handling it would remove that field while it is still busy.
        Binding("f2", "toggle_editor", "Form/JSON", priority=True, id="arguments.toggle_editor"),
        Binding("escape", "cancel", "Cancel", id="arguments.cancel"),
    ]

    def __init__(
        self,
        title: str,
        schema: dict[str, Any],
        *,
        description: str | None = None,
        verb: str = "Call",
        initial: dict[str, Any] | None = None,
        completer: Completer | None = None,
        task_choice: bool = False,
    ) -> None:
        super().__init__(classes="dialog-screen")
        #: The server's ``completion/complete`` for these arguments (``ui/completions.py``), when
        #: it offers completions (prompt arguments, template variables).
        self._completer = completer
        self.completions: ArgumentCompletions | None = None
        self._suggestions = Static(Content(""), id="arguments-suggestions")
        self._suggestions.display = False
        self._watched: set[Input] = set()
        #: A tool whose ``taskSupport`` is optional: the person chooses (``as_task``).
        self._task_box = Checkbox(TASK_LABEL, id="arguments-task") if task_choice else None
        self._title = title
        self.schema = schema
        self._description = description
        self._verb = verb
        self._initial = initial
        self.form_spec, self.editor_reason = classify(schema)
        #: The tree form's model when the flat form cannot show the schema.
        self.tree_model: ObjectNode | None = None
        self._tree_state: ObjectState | None = None
        #: The flat form's values as they came back from the JSON editor (F2).
        self._flat_raws: dict[str, Any] | None = None
        if self.form_spec is None:
            built = build_arguments(schema)
            if isinstance(built, ObjectNode):
                self.tree_model, self.editor_reason = built, None
            else:
                self.editor_reason = f"The form cannot show this schema: {built.reason}."
        self.use_editor = (
            self.form_spec is None and self.tree_model is None
        ) or initial is not None
        #: Set after a Ctrl+S on a schema we cannot check: the next Ctrl+S sends unchecked.
        self._unchecked_ok = False
        #: Dismissed already: a second Ctrl+S (or a click) in the same burst does nothing.
        self._sent = False
        #: The JSON editor's text when it was opened (Escape asks when it changed).
        self._editor_start: str | None = None
        #: The body was switched (F2) at least once: the values may differ from the start.
        self._switched = False

    # --- building ----------------------------------------------------------------------------

    @property
    def short(self) -> bool:
        """A form of a few fields: the dialog fits its content instead of filling the screen."""
        spec = self.form_spec
        return spec is not None and not self.use_editor and len(spec.fields) <= SHORT_FIELDS

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog arguments-dialog" + (" -short" if self.short else "")):
            yield Label(literal_line(self._title, limit=150), classes="dialog-title")
            if self._description:
                shown, cut = clip(self._description, chars=1200, lines=6)
                text = literal(shown, limit=None)
                if cut:
                    text = Content.assemble(text, ("… (i in the catalog shows it all)", "dim"))
                yield Static(text, classes="arguments-description")
            with Vertical(id="arguments-body"):
                pass
            if self._completer is not None:
                yield self._suggestions
            if self._task_box is not None:
                yield self._task_box
            yield Static(Content(""), id="arguments-errors")
            with Horizontal(classes="dialog-buttons"):
                yield OrderedButton(
                    Content(f"{self._verb} (Ctrl+S)"),
                    variant="primary",
                    id="send",
                    on_press=self.send_now,
                )
                yield OrderedButton(
                    Content("Cancel (Esc)"), id="cancel", on_press=self.action_cancel
                )
        yield KeyFooter()

    async def on_mount(self) -> None:
        if self._completer is not None:
            from mcp_tui.ui.completions import ArgumentCompletions

            self.completions = ArgumentCompletions(self, self._completer, self._suggestions)
        await self._show_body()

    @property
    def as_task(self) -> bool:
        """The person chose to run the call as a task (tools whose taskSupport is optional)."""
        return self._task_box is not None and self._task_box.value

    # --- completions -------------------------------------------------------------------------

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A text field gained focus: ask for its suggestions now and after every edit (the form
        keeps its ``Input.Changed`` to itself, so its value is watched instead)."""
        control = event.widget
        if self.completions is None or not isinstance(control, Input):
            return
        if control not in self._watched:
            self._watched.add(control)
            self.watch(control, "value", lambda _value: self._ask_completions(control), init=False)
        self._ask_completions(control)

    def _ask_completions(self, control: Input) -> None:
        """A text field of the flat form was edited or focused: ask the server (debounced)."""
        if self.completions is None or self.use_editor or self.form_spec is None:
            return
        from mcp_tui.ui.widgets.field_row import FieldRow
        from mcp_tui.ui.widgets.schema_form import SchemaForm

        row = next((a for a in control.ancestors if isinstance(a, FieldRow)), None)
        forms = self.query(SchemaForm)
        if row is None or not forms:
            return
        self.completions.request(row.field.name, control, forms.first().raw_text())

    async def _show_body(self) -> None:
        body = self.query_one("#arguments-body", Vertical)
        await body.remove_children()
        self.query_one(".arguments-dialog").set_class(self.use_editor, "-editor")
        self.query_one(".arguments-dialog").set_class(self.short, "-short")
        self._set_errors([])
        if not self.use_editor and self.form_spec is not None:
            if self.form_spec.is_confirmation:
                await body.mount(Static(Content("No arguments."), classes="arguments-note"))
                self._focus_send()
                return
            from mcp_tui.ui.widgets.schema_form import SchemaForm

            form = SchemaForm(self.form_spec, id="arguments-form", raws=self._flat_raws)
            await body.mount(VerticalScroll(form, id="arguments-scroll"))
            if not form.focus_first():
                self._focus_send()
            if self.short:
                self.call_after_refresh(self._fit)
            return
        if not self.use_editor and self.tree_model is not None:
            from mcp_tui.ui.widgets.arguments_form import ArgumentsForm

            tree_form = ArgumentsForm(
                self.tree_model, self.schema, state=self._tree_state, id="arguments-form"
            )
            await body.mount(VerticalScroll(tree_form, id="arguments-scroll"))
            if not tree_form.focus_first():
                self._focus_send()
            return
        note = "Arguments as a JSON object, checked against the schema before sending."
        if self.editor_reason:
            note += f"\n{self.editor_reason}"
        text = (
            json.dumps(self._initial, indent=2, ensure_ascii=False)
            if self._initial is not None
            else starter_text(self.schema)
        )
        editor = JsonEditor(
            text,
            soft_wrap=True,
            show_line_numbers=True,
            tab_behavior="indent",
            id="arguments-json",
        )
        self._editor_start = text
        await body.mount(Static(literal(note, limit=600), classes="arguments-note"), editor)
        # At once, not after the App's queue (``Widget.focus``): the next key must reach it.
        self.set_focus(editor)

    def _focus_send(self) -> None:
        self.set_focus(self.query_one("#send", OrderedButton))

    def _fit(self) -> None:
        """A short form that still needs scrolling (a small screen) gets the full-height dialog:
        a scrolled form would hide the first field's label."""
        dialog = self.query_one(".arguments-dialog")
        scrolls = self.query("#arguments-scroll")
        overflows = dialog.virtual_size.height > dialog.container_size.height
        if overflows or (scrolls and scrolls.first().max_scroll_y > 0):
            dialog.remove_class("-short")

    # --- actions -----------------------------------------------------------------------------

    def _set_errors(self, errors: list[str]) -> None:
        widget = self.query_one("#arguments-errors", Static)
        widget.update(literal("\n".join(errors), limit=2000, style="$text-error"))
        widget.display = bool(errors)

    def collect(self, *, focus: bool = True) -> dict[str, Any] | None:
        """Validate what is on screen; the arguments to send, or None (with errors shown and,
        with ``focus``, the first field in error focused soon after)."""
        if not self.use_editor and self.form_spec is not None:
            if self.form_spec.is_confirmation:
                return {}
            from mcp_tui.ui.widgets.schema_form import SchemaForm

            result = self.query_one(SchemaForm).submit(focus=focus)
            if result.ok and result.content is not None:
                return dict(result.content)
            self._set_errors(["Please fix the fields marked in red."])
            return None
        if not self.use_editor and self.tree_model is not None:
            from mcp_tui.ui.widgets.arguments_form import ArgumentsForm

            tree_form = self.query_one(ArgumentsForm)
            arguments = tree_form.submit()
            if arguments is not None:
                return arguments
            self._set_errors(["Please fix the fields marked in red.", *tree_form.form_errors])
            return None
        text = self.query_one("#arguments-json", TextArea).text
        check = check_arguments(text, self.schema)
        if check.ok:
            return check.arguments
        if check.errors:
            self._unchecked_ok = False
            self._set_errors(list(check.errors))
            return None
        if check.schema_problem and check.arguments is not None:
            if self._unchecked_ok:
                return check.arguments
            self._unchecked_ok = True
            self._set_errors([check.schema_problem, "Press Ctrl+S again to send without checking."])
        return None

    def action_send(self) -> None:
        """Ctrl+S: send once every key typed before it has taken effect."""
        after_keys(self, self.send_now)

    async def send_now(self) -> None:
        """Validate and send; on errors, show them and focus the first field in error, so the
        keys typed after Ctrl+S go there."""
        if self._sent:
            return
        arguments = self.collect(focus=False)
        if arguments is not None:
            self._sent = True
            self.dismiss(arguments)
            return
        if not self.use_editor and self.form_spec is not None:
            from mcp_tui.ui.widgets.schema_form import SchemaForm

            await self.query_one(SchemaForm).focus_first_error()
        elif not self.use_editor and self.tree_model is not None:
            from mcp_tui.ui.widgets.arguments_form import ArgumentsForm

            await self.query_one(ArgumentsForm).focus_first_error()

    def action_cancel(self) -> None:
        """Escape: close at once when nothing was typed; otherwise ask first, so what was typed
        is never thrown away by a stray key."""
        if self._sent:
            return
        if not self.changed:
            self.cancel_now()
            return
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        def answered(close: bool | None) -> None:
            if close:
                self.cancel_now()

        self.app.push_screen(
            ConfirmScreen(
                "Close without sending?",
                "What you typed will be lost. (Esc or n: keep the form.)",
                yes="Close",
                no="Keep the form",
            ),
            callback=answered,
        )

    def cancel_now(self) -> None:
        if not self._sent:
            self._sent = True
            self.dismiss(None)

    @property
    def changed(self) -> bool:
        """Something was typed or changed since the dialog opened."""
        if self._switched:
            return True
        if self.use_editor:
            editors = self.query("#arguments-json")
            return bool(editors) and (
                self._editor_start is not None
                and cast(TextArea, editors.first()).text != self._editor_start
            )
        if self.tree_model is not None:
            from mcp_tui.ui.widgets.arguments_form import ArgumentsForm

            forms = self.query(ArgumentsForm)
            return bool(forms) and forms.first().touched
        from mcp_tui.ui.widgets.schema_form import SchemaForm

        flat = self.query(SchemaForm)
        return bool(flat) and flat.first().touched

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Only the JSON editor can hold a schema without a form: hide the key then.
        if action == "toggle_editor":
            if self.tree_model is not None:
                return True
            return self.form_spec is not None and not self.form_spec.is_confirmation
        return True

    def action_toggle_editor(self) -> None:
        """F2: switch between the form and the JSON editor once the keys before it are in."""
        after_keys(self, self.toggle_editor_now)

    async def toggle_editor_now(self) -> None:
        """Switch, carrying the values over: the form's as JSON to the editor, the editor's JSON
        back into the form (it must parse as an object first)."""
        if self._sent or (self.form_spec is None and self.tree_model is None):
            return
        if not self.use_editor:
            self._initial = self._form_values()
        else:
            text = self.query_one("#arguments-json", TextArea).text
            value, error = parse_arguments(text)
            if value is None:
                self._set_errors([f"The form needs valid JSON: {error}"])
                return
            self._initial = None
            self._from_json(value)
        self.use_editor = not self.use_editor
        self._switched = True
        await self._show_body()

    def _form_values(self) -> dict[str, Any] | None:
        if self.tree_model is not None:
            from mcp_tui.ui.widgets.arguments_form import ArgumentsForm

            return self.query_one(ArgumentsForm).partial()
        if self.form_spec is not None and not self.form_spec.is_confirmation:
            from mcp_tui.ui.widgets.schema_form import SchemaForm

            form = self.query_one(SchemaForm)
            result = form.submit()
            if result.content is not None:
                return dict(result.content)
            from mcp_tui.schema.arguments.answer import partial

            flat = build_arguments(self.schema)
            if isinstance(flat, ObjectNode):
                state = state_for(flat)
                assert isinstance(state, ObjectState)
                for name, raw in form.raw_values().items():
                    leaf = state.children.get(name)
                    if leaf is not None and hasattr(leaf, "raw"):
                        leaf.raw = raw
                return partial(flat, state)
        return None

    def _from_json(self, value: dict[str, Any]) -> None:
        """The editor's JSON as the form's starting values."""
        if self.tree_model is not None:
            state = state_for(self.tree_model, value)
            assert isinstance(state, ObjectState)
            state.present = True
            self._tree_state = state
        elif self.form_spec is not None:
            flat = build_arguments(self.schema)
            if isinstance(flat, ObjectNode):
                state = state_for(flat, value)
                assert isinstance(state, ObjectState)
                self._flat_raws = {
                    name: getattr(leaf, "raw", None) for name, leaf in state.children.items()
                }

    async def on_button_pressed(self, event: OrderedButton.Pressed) -> None:
        """A click (keys go through ``on_press`` at once)."""
        if event.button.id == "send":
            await self.send_now()
        elif event.button.id == "cancel":
            self.action_cancel()
