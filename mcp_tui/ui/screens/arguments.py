"""Fill in the arguments of a tool call, a prompt or a resource template, then send with Ctrl+S.

A flat ``inputSchema`` becomes the elicitation forms' ``SchemaForm``; anything richer (nested
objects, lists, variants, maps, ``$ref`` s) the tree form of ``widgets.arguments.arguments_form``.
Only a schema neither can show (its root is not an object) opens the JSON editor first, with the
reason; F2 switches between form and JSON both ways, keeping the values. Either way the arguments
are checked against the tool's own schema before they are sent (:mod:`mcp_tui.ui.json_args`). The
screen returns the arguments, or ``None`` when cancelled. Names, descriptions and the schema are the
server's: shown only as literal text. The three bodies are in
:mod:`~mcp_tui.ui.widgets.arguments.arguments_bodies`; this module is the dialog around them and its
keys.

Keys typed in a burst (a fast typist, ``tmux send-keys``) take effect in order, and Ctrl+S
sends only after all of them (:mod:`mcp_tui.ui.key_order`), in the form and the editor.
The form may start from what was last sent (``prefill``, ``schema/arguments/last_sent``), said
on a line above it; F3 switches to the defaults and back, so it is never a trap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, Static

from mcp_tui.schema.arguments.build import build_arguments
from mcp_tui.schema.arguments.last_sent import Prefill
from mcp_tui.schema.arguments.nodes import ObjectNode
from mcp_tui.ui.closing import close_wherever, open_dialog
from mcp_tui.ui.json_args import parse_arguments
from mcp_tui.ui.key_order import OrderedButton, SequencedScreen, after_earlier_keys, after_keys
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.render import clip
from mcp_tui.ui.screens.arguments_origin import confirm_restart, has_line, origin_text
from mcp_tui.ui.styled_once import StyledOnce
from mcp_tui.ui.widgets.arguments.arguments_bodies import (
    Body,
    EditorBody,
    FlatBody,
    TreeBody,
    classify,
)
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert import select_when_tabbed_to
from mcp_tui.ui.widgets.text.server_text import ServerText

if TYPE_CHECKING:
    from textual.css.query import QueryType
    from textual.widget import Widget

    from mcp_tui.ui.argument_completions import ArgumentCompletions, Completer

#: The checkbox of a tool that may run as a task (mcp-tui's own words).
TASK_LABEL = Content("Run as a task (tasks/get for the status, tasks/result for the result)")

#: Forms of at most this many fields get a dialog sized to its content.
SHORT_FIELDS = 4


class ArgumentsScreen(SequencedScreen, ModalScreen[dict[str, Any] | None]):
    """A form (or JSON editor) for the arguments of one call; dismisses with them or ``None``.

    A ``SequencedScreen`` (keys in arrival order: the key-ordering layer recognises its screens by
    that class); the styling-once is a part it holds (``styled_once``).
    """

    #: Focus is placed by ``_show_body`` (first field, the editor or Send), never guessed.
    AUTO_FOCUS = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", after_earlier_keys("send"), "Send", priority=True, id="arguments.send"),
        # Priority, like Ctrl+S: it swaps the body after the keys before it (``after_keys``). Run
        # from a field's own key handling it would remove that field while it is still busy.
        Binding(
            "f2",
            after_earlier_keys("toggle_editor"),
            "Form/JSON",
            priority=True,
            id="arguments.toggle_editor",
        ),
        Binding("escape", "cancel", "Cancel", id="arguments.cancel"),
        # F3 is one key for both ways; only the way that applies is shown. (Not Ctrl+D: in a
        # text field that deletes the character under the cursor.)
        Binding(
            "f3",
            "defaults",
            "Defaults",
            tooltip="Start from the schema's defaults instead of the last call's arguments",
            priority=True,
            id="arguments.defaults",
        ),
        Binding(
            "f3",
            "last_sent",
            "Last sent",
            tooltip="Fill the form with the last call's arguments again",
            priority=True,
            id="arguments.defaults",  # F3 both ways: one id, so ``[keys]`` moves both
        ),
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
        prefill: Prefill | None = None,
    ) -> None:
        super().__init__(classes="dialog-screen")
        self.styled_once = StyledOnce(self)
        #: The server's ``completion/complete`` for these arguments
        #: (``ui/argument_completions.py``), when it offers completions (prompt arguments, template
        #: variables).
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
        self.form_spec, self.editor_reason = classify(schema)
        #: The tree form's model when the flat form cannot show the schema.
        self.tree_model: ObjectNode | None = None
        if self.form_spec is None:
            built = build_arguments(schema)
            if isinstance(built, ObjectNode):
                self.tree_model, self.editor_reason = built, None
            else:
                self.editor_reason = f"The form cannot show this schema: {built.reason}."
        self.use_editor = (
            self.form_spec is None and self.tree_model is None
        ) or initial is not None
        #: The form the schema gets, if any, and the JSON editor: F2 switches between the two.
        self._form: FlatBody | TreeBody | None = None
        if self.form_spec is not None:
            self._form = FlatBody(self.form_spec, schema)
        elif self.tree_model is not None:
            self._form = TreeBody(self.tree_model, schema)
        self._editor = EditorBody(schema, initial, self.editor_reason)
        #: What a tool's form may start from: its last call's arguments, or why not.
        self.prefill = prefill if prefill is not None else Prefill()
        if self.form_spec is not None and self.form_spec.is_confirmation:
            self.prefill = Prefill()  # "No arguments." sends {}: no values to speak of
        #: The body starts from the remembered arguments (F3: from the defaults, and back).
        self.remembered = self.prefill.arguments is not None
        if self.remembered:
            self._start_from(self.prefill.arguments)
        #: Dismissed already: a second Ctrl+S (or a click) in the same burst does nothing.
        self._sent = False
        #: Something was typed in a body F2 then switched away from (Escape and F3 ask).
        self._switched = False

    # --- building ----------------------------------------------------------------------------

    @property
    def _body(self) -> Body:
        """The body on screen: the form, or the JSON editor."""
        return self._editor if self.use_editor or self._form is None else self._form

    @property
    def short(self) -> bool:
        """A form of a few fields: the dialog fits its content instead of filling the screen."""
        spec = self.form_spec
        return spec is not None and not self.use_editor and len(spec.fields) <= SHORT_FIELDS

    async def on_event(self, event: events.Event) -> None:
        self.styled_once.see(event)
        await super().on_event(event)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog arguments-dialog" + (" -short" if self.short else "")):
            yield Label(literal_line(self._title, limit=150), classes="dialog-title")
            if self._description:
                shown, cut = clip(self._description, chars=1200, lines=6)
                more = Content.styled("… (i in the catalog shows it all)", "dim")
                text = Content.assemble(literal(shown, limit=None), more if cut else "")
                yield ServerText(text, more=more, classes="arguments-description")
            origin = Static(origin_text(self.prefill, self.remembered), id="arguments-origin")
            origin.display = has_line(self.prefill)
            origin.set_class(self.prefill.label is None, "-note")
            yield origin
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
                    on_press=self.action_send,
                )
                yield OrderedButton(
                    Content("Cancel (Esc)"), id="cancel", on_press=self.action_cancel
                )
        yield KeyFooter()

    async def on_mount(self) -> None:
        if self._completer is not None:
            from mcp_tui.ui.argument_completions import ArgumentCompletions

            self.completions = ArgumentCompletions(self, self._completer, self._suggestions)
        await self._show_body()

    # --- Tab ---------------------------------------------------------------------------------

    def focus_next(self, selector: str | type[QueryType] = "*") -> Widget | None:
        """Tab (Textual's focus chain): a pre-filled field reached so has its value selected."""
        widget = super().focus_next(selector)
        select_when_tabbed_to(widget)
        return widget

    def focus_previous(self, selector: str | type[QueryType] = "*") -> Widget | None:
        widget = super().focus_previous(selector)
        select_when_tabbed_to(widget)
        return widget

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
        body = self._body
        if self.completions is None or not isinstance(body, FlatBody) or body.form is None:
            return
        from mcp_tui.ui.widgets.form.field_row import FieldRow

        row = next((a for a in control.ancestors if isinstance(a, FieldRow)), None)
        if row is None or not body.form.is_attached:
            return
        self.completions.request(row.field.name, control, body.form.raw_text())

    def _start_from(self, values: dict[str, Any] | None) -> None:
        """The form and the editor start from ``values`` (``None``: the schema's defaults)."""
        if self._form is not None:
            if values is None:
                self._form.reset()
            else:
                self._form.load(values)
        self._editor.initial = values
        if self._task_box is not None:  # ticked as it was for the remembered call
            self._task_box.value = values is not None and self.prefill.as_task

    async def _show_body(self) -> None:
        origin = self.query_one("#arguments-origin", Static)
        origin.update(origin_text(self.prefill, self.remembered))
        origin.display = has_line(self.prefill)
        holder = self.query_one("#arguments-body", Vertical)
        await holder.remove_children()
        self.query_one(".arguments-dialog").set_class(self.use_editor, "-editor")
        self.query_one(".arguments-dialog").set_class(self.short, "-short")
        self._set_errors([])
        body = self._body
        if not await body.show(holder):
            self._focus_send()
        if self.short and body.sized_to_content:
            self.call_after_refresh(self._fit)

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
        arguments, errors = self._body.collect(focus=focus)
        if errors:
            self._set_errors(errors)
        return arguments

    async def action_send(self) -> None:
        """Ctrl+S (once every key typed before it has taken effect) or the Send button: validate
        and send; on errors, show them and focus the first field in error, so the
        keys typed after Ctrl+S go there."""
        if self._sent:
            return
        arguments = self.collect(focus=False)
        if arguments is not None:
            self._sent = True
            close_wherever(self, arguments)  # after the keys: a server's form may be on top now
            return
        await self._body.focus_first_error()

    def action_cancel(self) -> None:
        """Escape: close at once when nothing was typed; otherwise ask first, so what was typed
        is never thrown away by a stray key."""
        if self._sent:
            return
        if not self.changed:
            self.cancel_without_asking()
            return
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        def answered(close: bool | None) -> None:
            if close:
                self.cancel_without_asking()

        open_dialog(
            self,
            ConfirmScreen(
                "Close without sending?",
                "What you typed will be lost. (Esc or n: keep the form.)",
                yes="Close",
                no="Keep the form",
            ),
            callback=answered,
        )

    def cancel_without_asking(self) -> None:
        """Escape on an untouched form, or a confirmed Escape: close with nothing sent."""
        if not self._sent:
            self._sent = True
            close_wherever(self, None)

    @property
    def changed(self) -> bool:
        """Something was typed or changed since the dialog opened."""
        return self._switched or self._body.changed

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # F3 shows the way back that applies, and nothing when nothing was remembered.
        if action in ("defaults", "last_sent"):
            if self.prefill.arguments is None:
                return False
            return self.remembered == (action == "defaults")
        # Only the JSON editor can hold a schema without a form: hide the key then.
        if action == "toggle_editor":
            if self.tree_model is not None:
                return True
            return self.form_spec is not None and not self.form_spec.is_confirmation
        return super().check_action(action, parameters)

    async def action_toggle_editor(self) -> None:
        """F2, once the keys before it are in: switch between the form and the JSON editor,
        carrying the values over (the editor's JSON must parse as an object first)."""
        if self._sent or self._form is None:
            return
        # Only what was typed makes the switched body "changed" (Escape and F3 ask first).
        self._switched = self._switched or self._body.changed
        if not self.use_editor:
            self._editor.initial = self._form.values()
        else:
            value, error = parse_arguments(self._editor.text)
            if value is None:
                self._set_errors([f"The form needs valid JSON: {error}"])
                return
            self._editor.initial = None
            self._form.load(value)
        self.use_editor = not self.use_editor
        await self._show_body()

    def action_defaults(self) -> None:
        """F3 on remembered values: start from the schema's defaults."""
        after_keys(self, lambda: self._restart(remembered=False))

    def action_last_sent(self) -> None:
        """F3 on the defaults: fill in the remembered values again."""
        after_keys(self, lambda: self._restart(remembered=True))

    async def _restart(self, *, remembered: bool) -> None:
        """Show the body again from the defaults or the remembered values (asks first if typed)."""
        if self._sent or self.remembered == remembered:
            return
        if not self.changed:
            await self._restart_without_asking(remembered)
            return

        def answered(replace: bool | None) -> None:
            if replace:
                self.call_later(self._restart_without_asking, remembered)

        open_dialog(self, confirm_restart(self.prefill, remembered), callback=answered)

    async def _restart_without_asking(self, remembered: bool) -> None:
        if self._sent:
            return
        self.remembered = remembered
        self._start_from(self.prefill.arguments if remembered else None)
        self._switched = False
        self.refresh_bindings()
        await self._show_body()

    async def on_button_pressed(self, event: OrderedButton.Pressed) -> None:
        """A click (keys go through ``on_press`` at once)."""
        if event.button.id == "send":
            await self.action_send()
        elif event.button.id == "cancel":
            self.action_cancel()
