"""The ONE dispatch table from a field kind to the widget that edits it.

Every field of a :class:`~mcp_tui.schema.fields.FormSpec` becomes a :class:`FieldRow`: its title (or
property name), a required marker, the constraint in words, the description, the control and an
inline error line. Controls only hand back *raw* values (:data:`~mcp_tui.schema.fields.RawValue`);
turning them into typed ``content`` is ``mcp_tui.schema.validate``'s job, so the form behaves the
same in the TUI and headless.

Safety rules that shape this module (see the hazards notes):

- widget ids are generated (``field-3``), never taken from property names, which may be anything;
- option values never become widget values or ids: controls work on option *indices*, so duplicate
  or odd values cannot make Textual raise, and a default that is not an option is simply not
  preselected;
- every server string is literal ``Content`` (or a plain ``Text`` where Textual needs one to search)
  built through ``mcp_tui.ui.text``, never markup.

The controls themselves are in ``form_controls`` (they keep keys in order: ``key_order``). Long
option lists (more than :data:`FILTER_THRESHOLD`) use ``choice_filter.ChoiceFilter``, a filter box
over a short list of matches: it never builds a widget row per option, so 10,000 options open at
once. The names are re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.style import Style as RichStyle
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.style import Style
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, SelectionList, Static
from textual.widgets._input import _RESTRICT_TYPES, InputType

from mcp_tui.schema.describe import constraint_text, placeholder
from mcp_tui.schema.fields import NULL, FieldKind, FieldSpec, Option, RawValue
from mcp_tui.ui.text import literal, literal_line
from mcp_tui.ui.widgets.choice_filter import FILTER_SHOWN, ChoiceFilter
from mcp_tui.ui.widgets.form_controls import (
    BoolControl,
    MultiControl,
    SelectControl,
    TextControl,
    TriStateControl,
    focus_next_field,
)
from mcp_tui.ui.widgets.list_control import ConstControl, ListControl
from mcp_tui.untrusted import one_line

__all__ = [
    "CONTROL_BUILDERS",
    "DESCRIPTION_LIMIT",
    "FILTER_SHOWN",
    "FILTER_THRESHOLD",
    "BoolControl",
    "ChoiceFilter",
    "ConstControl",
    "ControlWidget",
    "FieldLabel",
    "FieldRow",
    "ListControl",
    "MultiControl",
    "SelectControl",
    "TextControl",
    "TriStateControl",
    "build_control",
    "field_id",
    "focus_next_field",
    "looks_secret",
    "raw_to_text",
]

#: The key that sets a nullable field to null (and back).
NULL_KEY = "ctrl+n"
#: Above this many options a select becomes a filter box over a short list of matches.
FILTER_THRESHOLD = 20
#: Longest description shown under a field.
DESCRIPTION_LIMIT = 600


def field_id(index: int) -> str:
    """The generated id of the ``index``-th field row (its control is ``field-N-control``)."""
    return f"field-{index}"


# --- secrets ---------------------------------------------------------------------------------

_SECRET_WORDS = re.compile(
    r"\b(?:pass(?:word|wd|phrase|code)?s?|pwd|pin(?:\s*code)?|secrets?|client\s*secret"
    r"|api\s*keys?|access\s*keys?|private\s*keys?|secret\s*keys?|auth(?:entication)?\s*tokens?"
    r"|tokens?|bearer|otp|one\s*time\s*code|2fa|mfa\s*code|credentials?"
    r"|credit\s*card|card\s*numbers?|cc\s*num(?:ber)?|cvv2?|cvc|security\s*code|iban"
    r"|ssn|social\s*security(?:\s*number)?|seed\s*phrase|mnemonic)\b",
    re.IGNORECASE,
)


def _words(text: str) -> str:
    """``apiKey`` / ``api_key`` / ``API-KEY`` -> ``api key`` so one word list matches them all."""
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return re.sub(r"[_\-.]+", " ", text)


def looks_secret(field: FieldSpec) -> bool:
    """True when the field's name (key) or title suggests a secret.

    The spec forbids servers to ask for passwords, API keys, tokens or payment details in form
    mode; the form warns instead of refusing, because a false positive must not block the user.
    The description is not judged: it is where servers write warnings *against* giving secrets
    ("do not give us your phone number, pin, ..."), and what a field asks for is named by its
    key and title.
    """
    haystack = " ".join(_words(t) for t in (field.name, field.title))
    return _SECRET_WORDS.search(haystack) is not None


ControlWidget = (
    TextControl
    | BoolControl
    | TriStateControl
    | SelectControl
    | MultiControl
    | ChoiceFilter
    | ListControl
    | ConstControl
)


# --- the dispatch table ----------------------------------------------------------------------


def _option_index(options: Sequence[Option], value: object) -> int | None:
    for i, option in enumerate(options):
        if option.value == value:
            return i
    return None


def _text(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    value = raw if isinstance(raw, str) else ""
    kind: InputType = "text"
    if field.kind is FieldKind.INTEGER:
        kind = "integer"
    elif field.kind is FieldKind.NUMBER:
        kind = "number"
    # Textual checks every edit of a typed input against its character rule; a pre-filled value
    # outside that rule (``1e+20``) could then never be edited, so such a field takes any text
    # (validation still reads it as a number).
    rule = _RESTRICT_TYPES.get(kind)
    if rule is not None and re.fullmatch(rule, value) is None:
        kind = "text"
    control = TextControl(
        value,
        placeholder=one_line(placeholder(field), limit=80),
        id=control_id,
        type=kind,
        select_on_focus=False,
        valid_empty=True,
        compact=True,
    )
    if field.max_length is not None and field.max_length > 0:
        control.max_length = max(field.max_length, len(value))
    return control


def _boolean(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    # Only an optional boolean without a default can be "not set"; the others always have a value
    # (a required one without a default starts as false, like any checkbox).
    if field.required or field.has_default:
        return BoolControl(raw if isinstance(raw, bool) else False, id=control_id)
    return TriStateControl(raw if isinstance(raw, bool) else None, id=control_id)


def _select(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    chosen = _option_index(field.options, raw) if isinstance(raw, str) else None
    if len(field.options) > FILTER_THRESHOLD:
        return ChoiceFilter(
            field.options, set() if chosen is None else {chosen}, multi=False, id=control_id
        )
    return SelectControl(field.options, chosen, id=control_id)


def _multi_select(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    values = raw if isinstance(raw, list) else []
    chosen = {i for i, o in enumerate(field.options) if o.value in values}
    if len(field.options) > FILTER_THRESHOLD:
        return ChoiceFilter(field.options, chosen, multi=True, id=control_id)
    return MultiControl(field.options, chosen, id=control_id)


def _list(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    rows = raw if isinstance(raw, list) else []
    item = field.item
    hint = "" if item is None else placeholder(item)
    return ListControl(rows, placeholder=one_line(hint, limit=80), id=control_id)


def _const(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    return ConstControl(field.const, id=control_id)


#: FieldKind -> a builder ``(field, initial raw value, generated id) -> control``.
CONTROL_BUILDERS: dict[FieldKind, Callable[[FieldSpec, RawValue, str], ControlWidget]] = {
    FieldKind.TEXT: _text,
    FieldKind.NUMBER: _text,
    FieldKind.INTEGER: _text,
    FieldKind.BOOLEAN: _boolean,
    FieldKind.SELECT: _select,
    FieldKind.MULTI_SELECT: _multi_select,
    FieldKind.LIST: _list,
    FieldKind.CONST: _const,
}


def build_control(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    """The widget for ``field`` holding ``raw``; one table, no per-class ``to_widget()``."""
    return CONTROL_BUILDERS[field.kind](field, raw, control_id)


def raw_to_text(raw: RawValue) -> str:
    """A raw value as the user would read it back (for the transcript of abandoned input)."""
    if raw is None:
        return ""
    if raw is NULL:
        return "null"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, list):
        return ", ".join(raw)
    return raw


# --- one field -------------------------------------------------------------------------------


class FieldLabel(Static):
    """A field's label line and, under it, its description in the muted colour: one widget.

    The description's colour is a component class (``color: $text-muted`` resolves against the
    background, which a style inside ``Content`` cannot do), so it reads exactly as a muted
    ``Static`` of its own would, without the cost of one more widget per field.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"field-label--description"}
    DEFAULT_CSS = """
    FieldLabel { height: auto; }
    FieldLabel > .field-label--description { color: $text-muted; }
    """

    def __init__(self, label: Content, description: Content | None) -> None:
        super().__init__(label, classes="field-label")
        self._label = label
        self._description = description

    @property
    def description(self) -> Content | None:
        return self._description

    def set_label(self, label: Content) -> None:
        self._label = label
        self.refresh(layout=True)

    def render(self) -> Content:
        if self._description is None:
            return self._label
        # The colour only, resolved against this widget's background like any ``color:`` rule.
        muted = self.get_component_rich_style("field-label--description").color
        description = self._description.stylize(Style.from_rich_style(RichStyle(color=muted)))
        return Content("\n").join([self._label, description])


class FieldRow(Vertical):
    """One field: its label (title, markers, constraint, description), its control and, once the
    value is found wrong, an inline error. Id ``field-N`` (generated).

    Two widgets plus the control, not five: the label and the description are one ``Static``, and
    the error line is built the first time there is an error. Every widget costs its mount,
    styling, layout and first render; a form paints about as many of them as it has fields.
    """

    DEFAULT_CSS = """
    FieldRow { height: auto; margin: 0 0 1 0; }
    FieldRow > .field-label { height: auto; }
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
        description = (
            literal(self.field.description, limit=DESCRIPTION_LIMIT)
            if self.field.description
            else None
        )
        label = FieldLabel(self.label_content(), description)
        full = constraint_text(self.field, full=True)
        if full != constraint_text(self.field):
            # What the short hint leaves out (a long pattern, full-range bounds), on hover.
            label.tooltip = literal_line(f"Rules: {full}", limit=2000)
        yield label
        yield self.control
        if self._error is not None:
            yield self._error
        self._composed = True

    def get_raw(self) -> RawValue:
        return NULL if self.null else self.control.get_raw()

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
        """A key the field's rule refused: say so under the field, beside any check's message,
        until focus leaves the field (25.5 typed in an integer field reads 255: say why)."""
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
        skipped when focus has moved on by the time it runs, as in a burst of Tabs)."""
        screen = self.screen
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
        if self.null:
            self._set_null(False)  # typing a value takes back "null"
        self.post_message(self.Edited(self))

    def on_descendant_blur(self) -> None:
        if self._refusal is not None:  # said while typing; the check on leaving speaks now
            self._refusal = None
            self.set_error(self._last_error)
        self.post_message(self.Left(self))
