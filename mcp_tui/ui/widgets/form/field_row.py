"""One field of a form as a row: its label, its control, and its inline error.

Every field of a :class:`~mcp_tui.schema.fields.FormSpec` (and every scalar of a tool-arguments
tree) becomes a :class:`FieldRow`: its title (or property name), a required marker, the constraint
in words, the description, the control and an inline error line. The row is the same whatever the
field's kind; the control inside it comes from the ONE dispatch table of ``form_fields``
(:func:`~mcp_tui.ui.widgets.form.form_fields.build_control`). The row turns the controls' many
change messages into two of its own (:class:`FieldRow.Edited`, :class:`FieldRow.Left`), which the
forms validate on, and owns what every field can do: send null, say why a key was refused, show an
error.

Every server string is literal ``Content`` built through ``mcp_tui.ui.literal``, never markup.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.dom import NoScreen
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, SelectionList, Static

from mcp_tui.schema.describe import constraint_text
from mcp_tui.schema.fields import NULL, FieldSpec, RawValue
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.widgets.form.choice_filter import ChoiceFilter
from mcp_tui.ui.widgets.form.form_controls import TextControl, TriStateControl
from mcp_tui.ui.widgets.form.form_fields import (
    DESCRIPTION_LIMIT,
    ControlWidget,
    build_control,
    field_id,
    looks_secret,
)
from mcp_tui.ui.widgets.form.list_control import ListControl
from mcp_tui.ui.widgets.text.server_text import ServerText

__all__ = ["NULL_KEY", "FieldLabel", "FieldRow"]

#: The key that sets a nullable field to null (and back).
NULL_KEY = "ctrl+n"

#: No value recorded to compare the first change event with.
_NO_START: object = object()


class FieldLabel(Static):
    """A field's label line: its title and mcp-tui's markers and rules beside it.

    The description under it is the server's own text, in a :class:`ServerText` of its own (the
    server's region), never in this line with the client's words.
    """

    DEFAULT_CSS = """
    FieldLabel { height: auto; }
    """

    def __init__(self, label: Content) -> None:
        super().__init__(label, classes="field-label")
        self._label = label

    def set_label(self, label: Content) -> None:
        self._label = label
        self.update(label)


class FieldRow(Vertical):
    """One field: its label (title, markers, constraint), the server's description in the
    server's region, its control and, once the value is found wrong, an inline error. Id
    ``field-N`` (generated).

    The error line is built the first time there is an error: every widget costs its mount,
    styling, layout and first render, and a form paints about as many of them as it has fields.
    """

    DEFAULT_CSS = """
    FieldRow { height: auto; margin: 0 0 1 0; }
    FieldRow > .field-label { height: auto; }
    FieldRow > .field-description { color: $text-muted; }
    FieldRow > .field-error { color: $text-error; text-style: bold; display: none; height: auto; }
    FieldRow.-invalid > .field-error { display: block; }
    FieldRow > Input, FieldRow > ChoiceFilter > Input { width: 1fr; max-width: 80; }
    FieldRow > Select { width: 1fr; max-width: 80; }
    FieldRow Input.-textual-compact { background: $panel; }
    FieldRow Input.-textual-compact:focus { background: $panel-lighten-2; }
    FieldRow Select > SelectCurrent { background: $panel; }
    FieldRow Select:focus > SelectCurrent { background: $panel-lighten-2; }
    FieldRow > BoolControl { border: none; padding: 0; height: 1; background: $surface; }
    FieldRow > BoolControl:focus { border: none; background: $panel-lighten-2; }
    FieldRow.-invalid > Input { background: $error-muted; }
    """

    #: Ctrl+N on a nullable field: send JSON null (again: back to the value shown).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(NULL_KEY, "toggle_null", "Null", show=False),
    ]

    class Edited(Message):
        """The user changed the field's value."""

        def __init__(self, row: FieldRow) -> None:
            super().__init__()
            self.row = row

    class Left(Message):
        """Focus left the field (inline validation happens here)."""

        def __init__(self, row: FieldRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, field: FieldSpec, index: int, raw: RawValue) -> None:
        super().__init__(id=field_id(index), classes="field-row")
        self.field = field
        self.index = index
        self.secret = looks_secret(field)
        self.control: ControlWidget = build_control(field, raw, f"{field_id(index)}-control")
        #: The user asked to send null (only ever true for a nullable field).
        self.null = raw is NULL and field.nullable
        #: The inline error line, built on the first error (most fields never have one).
        self._error: Static | None = None
        #: The last check's message, and a refused key's note shown beside it until blur.
        self._last_error: str | None = None
        self._refusal: str | None = None
        self._composed = False
        #: A ``Select`` announces its initial value once mounted (Textual posts ``Changed`` for
        #: it): that echo is not an edit, or an untouched form would ask before Escape.
        self._select_start: object = getattr(self.control, "initial", None)
        #: So do an ``Input`` given a value and each item of a list field: until a change event
        #: finds another value, they are that echo, not edits (a form filled with defaults, or
        #: with a tool's last arguments, is untouched until the user types).
        self._start_raw: object = self._raw_now()

    def label_content(self) -> Content:
        """Title, required marker, secret marker and the constraint in words, on one line."""
        f = self.field
        parts = [literal_line(f.title or f.name, limit=120, style="bold")]
        if f.required:
            parts.append(Content.styled(" *", "bold $text-error"))
        if self.secret:
            parts.append(Content.styled("  ⚠ looks like a secret", "bold $text-warning"))
        rule = constraint_text(f)
        if rule:
            parts.append(literal_line(f"  {rule}", limit=160, style="$text-muted"))
        if self.null:
            parts.append(Content.styled("  = null (sent as null; ctrl+n: undo)", "bold $accent"))
        elif f.nullable:
            parts.append(Content.styled("  ctrl+n: null", "$text-muted"))
        return Content("").join(parts)

    def compose(self) -> ComposeResult:
        label = FieldLabel(self.label_content())
        full = constraint_text(self.field, full=True)
        if full != constraint_text(self.field):
            # What the short hint leaves out (a long pattern, full-range bounds), on hover.
            label.tooltip = literal_line(f"Rules: {full}", limit=2000)
        yield label
        if self.field.description:
            yield ServerText(
                literal(self.field.description, limit=DESCRIPTION_LIMIT),
                classes="field-description",
            )
        yield self.control
        if self._error is not None:
            yield self._error
        self._composed = True

    def get_raw(self) -> RawValue:
        return NULL if self.null else self.control.get_raw()

    def _raw_now(self) -> object:
        try:
            return self.control.get_raw()
        except Exception:  # a control that cannot say before it is mounted: no echo to skip
            return _NO_START

    def action_toggle_null(self) -> None:
        """Send null instead of the value (nullable fields only); again to undo. Editing the
        value also undoes it."""
        if not self.field.nullable:
            return
        self._set_null(not self.null)
        self.post_message(self.Edited(self))

    def _set_null(self, null: bool) -> None:
        self.null = null
        self.set_class(null, "-null")
        if self._composed:
            self.query_one(FieldLabel).set_label(self.label_content())

    @on(TextControl.Refused)
    def _refused(self, event: TextControl.Refused) -> None:
        """A key the field's rule refused, or a number field's text that cannot become a number:
        say so under the field, beside any check's message, until focus leaves the field (or,
        for a number, until the text reads as one again)."""
        event.stop()
        self._refusal = event.reason
        self.set_error(self._last_error)

    def set_error(self, message: str | None) -> None:
        """Show (or clear, with ``None``) the inline error under the control."""
        self._last_error = message
        refusal = self._refusal
        if refusal:
            message = f"{message} · {refusal}" if message else refusal
        text = literal_line(f"✗ {message}", limit=300) if message else Content("")
        if self._error is not None:
            self._error.update(text)
        elif message:
            self._error = Static(text, classes="field-error")
            if self._composed:
                self.mount(self._error)  # last child: under the control
        self.set_class(bool(message), "-invalid")

    @property
    def error_shown(self) -> bool:
        return self.has_class("-invalid")

    def focus_control(self) -> None:
        """Focus the control now (not after the App's queue, as ``Widget.focus`` does), so a key
        that arrives next already goes to it."""
        target: Widget = self.control
        if isinstance(self.control, ChoiceFilter):
            target = self.control.filter_input
        elif isinstance(self.control, ListControl):
            target = self.control.first_input or self.control
        self.screen.set_focus(target, scroll_visible=False)
        self.call_after_refresh(self._reveal)

    def _reveal(self) -> None:
        """Bring the whole row (label, description, control, error) into view, centred, when it
        is not entirely visible: what Textual does for a focused widget, but for the row, and
        after a refresh so a row mounted this instant has a place (Textual's own scroll is
        skipped when focus has moved on by the time it runs, as in a burst of Tabs). A form
        withdrawn while it was being mounted is gone by then: nothing to bring into view."""
        try:
            screen = self.screen
        except NoScreen:
            return
        focused = screen.focused
        if focused is not None and self in focused.ancestors and not screen.can_view_entire(self):
            screen.scroll_to_center(self, origin_visible=True)

    @on(Input.Changed)
    @on(Checkbox.Changed)
    @on(Select.Changed)
    @on(SelectionList.SelectedChanged)
    @on(TriStateControl.Changed)
    @on(ChoiceFilter.Changed)
    @on(ListControl.Changed)
    def _edited(self, event: Message) -> None:
        event.stop()
        if isinstance(event, Select.Changed):
            start, self._select_start = self._select_start, None
            if start is not None and event.value == start:
                return  # the initial value, announced at mount
        if self._start_raw is not _NO_START:
            if self._raw_now() == self._start_raw:
                return  # the value it was built with, announced at mount (once per item)
            self._start_raw = _NO_START
        if self.null:
            self._set_null(False)  # typing a value takes back "null"
        self.post_message(self.Edited(self))

    def on_descendant_blur(self) -> None:
        if self._refusal is not None:  # said while typing; the check on leaving speaks now
            self._refusal = None
            self.set_error(self._last_error)
        self.post_message(self.Left(self))
