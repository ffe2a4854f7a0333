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

Long option lists (more than :data:`FILTER_THRESHOLD`) use :class:`ChoiceFilter`, a filter box over
a short list of matches: it never builds a widget row per option, so 10,000 options open at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol, runtime_checkable

from rich.segment import Segment
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Checkbox, Input, OptionList, Select, SelectionList, Static
from textual.widgets._input import _RESTRICT_TYPES, InputType
from textual.widgets._select import SelectCurrent, SelectOverlay
from textual.widgets._toggle_button import ToggleButton
from textual.widgets.option_list import Option as ListOption
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import Selection

from mcp_tui.schema.fields import FieldKind, FieldSpec, Option, RawValue
from mcp_tui.ui.text import literal, literal_line
from mcp_tui.ui.widgets.key_order import OrderedKeys
from mcp_tui.untrusted import one_line

#: Above this many options a select becomes a filter box over a short list of matches.
FILTER_THRESHOLD = 20
#: How many matches a :class:`ChoiceFilter` shows at once (typing narrows the rest).
FILTER_SHOWN = 50
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
    """True when the field's name, title or description suggests a secret.

    The spec forbids servers to ask for passwords, API keys, tokens or payment details in form
    mode; the form warns instead of refusing, because a false positive must not block the user.
    """
    haystack = " ".join(_words(t) for t in (field.name, field.title, field.description or ""))
    return _SECRET_WORDS.search(haystack) is not None


# --- moving on --------------------------------------------------------------------------------


@runtime_checkable
class FieldNavigator(Protocol):
    """A form that moves focus between its fields itself (``SchemaForm``)."""

    async def move_focus(self, step: int) -> None: ...


async def focus_next_field(widget: Widget, *, forward: bool = True) -> None:
    """Move focus to the next (or previous) field from ``widget``, like Tab (or Shift+Tab).

    The form does it when there is one (in schema order, whatever has been laid out yet);
    otherwise Textual's focus chain.
    """
    for node in widget.ancestors:
        if isinstance(node, FieldNavigator):
            await node.move_focus(1 if forward else -1)
            return
    if forward:
        widget.screen.focus_next()
    else:
        widget.screen.focus_previous()


# --- controls --------------------------------------------------------------------------------
# Every control mixes in ``OrderedKeys`` (first among its bases): keys typed in a burst take effect
# in order on the field that has focus, and Ctrl+S sees all of them (see ``key_order``).


class TextControl(OrderedKeys, Input):
    """A one-line input for text, number and integer fields. Enter moves on, never submits."""

    def get_raw(self) -> RawValue:
        return self.value

    async def action_submit(self) -> None:
        # Enter in a one-line input moves to the next field; only Ctrl+S sends a form.
        await focus_next_field(self)


class BoolControl(OrderedKeys, Checkbox, inherit_bindings=False):
    """A checkbox for a boolean that always has a value (it has a default)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_button", "Toggle", show=False),
        Binding("enter", "next_field", "Next field", show=False),
    ]

    def __init__(self, value: bool, *, id: str) -> None:
        super().__init__(self._label_for(value), value, id=id)

    @staticmethod
    def _label_for(value: bool) -> Content:
        return Content("yes (true)") if value else Content("no (false)")

    def watch_value(self) -> None:
        self.label = self._label_for(self.value)

    async def action_next_field(self) -> None:
        await focus_next_field(self)

    def get_raw(self) -> RawValue:
        return self.value


class TriStateControl(OrderedKeys, Widget, can_focus=True):
    """A boolean with no default: "not set" (omitted), yes or no. Space cycles, Enter moves on.

    A plain checkbox cannot say "I did not answer", and an optional boolean with no default must be
    left out of ``content`` unless the user sets it.
    """

    DEFAULT_CSS = """
    TriStateControl { height: 1; width: auto; }
    TriStateControl:focus { background: $panel-lighten-2; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "cycle", "Change", show=False),
        Binding("enter", "next_field", "Next field", show=False),
        Binding("y", "set(True)", show=False),
        Binding("n", "set(False)", show=False),
        Binding("backspace,delete", "set(None)", show=False),
    ]
    _CYCLE: ClassVar[dict[bool | None, bool | None]] = {None: True, True: False, False: None}

    state: reactive[bool | None] = reactive[bool | None](None)

    class Changed(Message):
        """The state changed."""

        def __init__(self, control: TriStateControl) -> None:
            super().__init__()
            self.control_widget = control

    def __init__(self, state: bool | None, *, id: str) -> None:
        super().__init__(id=id)
        self.set_reactive(TriStateControl.state, state)

    def render(self) -> Content:
        if self.state is None:
            return Content("[ ] not set (left out)  space: yes / no")
        return Content("[✓] yes (true)") if self.state else Content("[✗] no (false)")

    def watch_state(self) -> None:
        self.post_message(self.Changed(self))

    def action_cycle(self) -> None:
        self.state = self._CYCLE[self.state]

    async def action_next_field(self) -> None:
        await focus_next_field(self)

    def action_set(self, value: bool | None) -> None:
        self.state = value

    def on_click(self) -> None:
        self.action_cycle()

    def get_raw(self) -> RawValue:
        return self.state


class _OrderedOverlay(OrderedKeys, SelectOverlay):
    """The drop-down of a :class:`SelectControl`: picking or dismissing takes effect at once.

    Textual's overlay picks by posting messages and hands focus back through the App's queue, so
    a key typed right after Enter (Tab, a letter) would reach the overlay or be resolved before
    the choice landed; here the choice is set and focus returned before the next key is read.
    """

    def allow_focus(self) -> bool:
        select = self.parent
        return not isinstance(select, SelectControl) or select.expanded

    def action_select(self) -> None:
        select = self.parent
        index = self.highlighted
        if not isinstance(select, SelectControl) or index is None:
            super().action_select()
            return
        if not self.get_option_at_index(index).disabled:
            select.choose(index)

    def action_dismiss(self) -> None:
        select = self.parent
        if isinstance(select, SelectControl):
            select.close_overlay()
        else:
            super().action_dismiss()


class SelectControl(OrderedKeys, Select[int]):
    """A short single-choice list. Values are option indices; labels are literal text."""

    def __init__(self, options: Sequence[Option], chosen: int | None, *, id: str) -> None:
        self._choices = tuple(options)
        # Rich Text (not str, which would be markup) so type-to-search still finds labels.
        items = [(Text(one_line(o.label, limit=120)), i) for i, o in enumerate(options)]
        super().__init__(
            items,
            prompt="Choose…",
            allow_blank=True,
            value=Select.NULL if chosen is None else chosen,
            id=id,
            compact=True,
        )

    def compose(self) -> ComposeResult:
        # As ``Select.compose``, with the drop-down that acts in key order.
        yield SelectCurrent(self.prompt)
        yield _OrderedOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)

    def on_mount(self) -> None:
        self.watch(self, "expanded", self._focus_when_expanded, init=False)

    def _focus_when_expanded(self, expanded: bool) -> None:
        # Focus the drop-down now: ``Select`` does it through the App's queue, too late for the
        # keys that follow Enter (Down, Enter); that late call is refused once the drop-down has
        # closed again (``_OrderedOverlay.allow_focus``), so it cannot take focus back either.
        if expanded:
            self.screen.set_focus(self.query_one(SelectOverlay), scroll_visible=False)

    def allow_focus_children(self) -> bool:
        # The drop-down is a tab stop only while open: ``Select`` hides it by a CSS class, which
        # takes effect after the next style update, so a Tab right after a pick would land in it.
        return self.expanded

    def choose(self, overlay_index: int) -> None:
        """Pick the drop-down's ``overlay_index``-th row (row 0 is "no choice"), close it and take
        focus back, all before the next key."""
        value = self._options[overlay_index][1]
        if value != self.value:
            self.value = value
        self.close_overlay()

    def close_overlay(self) -> None:
        self.screen.set_focus(self, scroll_visible=False)
        self.expanded = False

    def get_raw(self) -> RawValue:
        value = self.value
        return self._choices[value].value if isinstance(value, int) else None


class MultiControl(OrderedKeys, SelectionList[int]):
    """A short multi-choice list (space toggles). Values are option indices."""

    DEFAULT_CSS = """
    MultiControl {
        height: auto; max-height: 10; max-width: 80; border: none; padding: 0;
        background: $panel;
    }
    MultiControl:focus { border: none; background: $panel-lighten-1; }
    """

    def __init__(self, options: Sequence[Option], chosen: set[int], *, id: str) -> None:
        self._choices = tuple(options)
        super().__init__(
            *(
                Selection(literal_line(o.label, limit=120), i, i in chosen)
                for i, o in enumerate(options)
            ),
            id=id,
        )

    def render_line(self, y: int) -> Strip:
        # ``SelectionList`` draws the same "X" for chosen and not chosen rows and tells them apart
        # by colour only; a tick (or a blank) reads in any terminal, copied text and screenshots.
        strip = super().render_line(y)
        segments = list(strip)
        if len(segments) < 2 or segments[1].text != ToggleButton.BUTTON_INNER:
            return strip
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return strip
        mark = "✓" if selection.value in self._selected else " "
        segments[1] = Segment(mark, segments[1].style, segments[1].control)
        return Strip(segments, strip.cell_length)

    def action_select(self) -> None:
        # Toggle now. ``SelectionList`` toggles the *highlighted* row when its own "selected"
        # message comes back, by which time a Down typed right after Space has moved the
        # highlight: Space Down Down Space in one burst toggled the third row twice.
        index = self.highlighted
        if index is not None and not self.get_option_at_index(index).disabled:
            self._toggle_highlighted_selection()

    def get_raw(self) -> RawValue:
        return [self._choices[i].value for i in sorted(self.selected)]


class _FilterInput(OrderedKeys, Input):
    """The filter box of a :class:`ChoiceFilter`: arrows move in the list, Enter picks."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def action_move(self, step: int) -> None:
        parent = self.parent
        if isinstance(parent, ChoiceFilter):
            parent.move(step)

    async def action_submit(self) -> None:
        parent = self.parent
        if isinstance(parent, ChoiceFilter) and parent.pick_highlighted():
            await focus_next_field(self)


class ChoiceFilter(Vertical):
    """A filter box over a long option list, for single or multiple choice.

    Only :data:`FILTER_SHOWN` matches are ever built as rows, so the cost does not grow with the
    number of options; matching is a case-insensitive substring search over labels folded once.
    One tab stop (the filter box): Up/Down move in the matches, Enter picks (single choice: picks
    and moves to the next field; multiple: toggles), a click picks too.
    """

    DEFAULT_CSS = """
    ChoiceFilter { height: auto; }
    ChoiceFilter > OptionList {
        height: auto; max-height: 6; border: none; padding: 0; max-width: 80;
        background: $surface-darken-1;
    }
    ChoiceFilter > .choice-summary { color: $text-muted; }
    """

    class Changed(Message):
        """The chosen option(s) changed."""

        def __init__(self, control: ChoiceFilter) -> None:
            super().__init__()
            self.control_widget = control

    def __init__(
        self, options: Sequence[Option], chosen: set[int], *, multi: bool, id: str
    ) -> None:
        super().__init__(id=id)
        self._choices = tuple(options)
        self._multi = multi
        self._chosen = set(chosen)
        self._folded: list[str] | None = None
        self._shown: list[int] = []
        self._matches = 0
        self._input = _FilterInput(
            placeholder=f"type to filter {len(options):,} options",
            id=f"{id}-filter",
            compact=True,
        )
        self._list = OptionList(id=f"{id}-list")
        self._list.can_focus = False
        self._summary = Static(classes="choice-summary")

    def compose(self) -> ComposeResult:
        yield self._input
        yield self._list
        yield self._summary

    def on_mount(self) -> None:
        self._refilter("")
        self._update_summary()

    @property
    def filter_input(self) -> Input:
        """The filter box: the control's one focus target."""
        return self._input

    def focus(self, scroll_visible: bool = True) -> ChoiceFilter:
        self._input.focus(scroll_visible)
        return self

    def matching(self, query: str) -> tuple[list[int], int]:
        """The first :data:`FILTER_SHOWN` option indices whose label contains ``query``, and the
        total number of matches."""
        needle = query.casefold().strip()
        if not needle:
            return list(range(min(FILTER_SHOWN, len(self._choices)))), len(self._choices)
        if self._folded is None:
            self._folded = [o.label.casefold() for o in self._choices]
        shown: list[int] = []
        total = 0
        for i, label in enumerate(self._folded):
            if needle in label:
                total += 1
                if len(shown) < FILTER_SHOWN:
                    shown.append(i)
        return shown, total

    def _row(self, index: int) -> Content:
        label = literal_line(self._choices[index].label, limit=120)
        if not self._multi:
            return label
        mark = "[✓] " if index in self._chosen else "[ ] "
        return Content(mark) + label

    def _refilter(self, query: str) -> None:
        self._shown, self._matches = self.matching(query)
        rows: list[ListOption | None] = [ListOption(self._row(i)) for i in self._shown]
        more = self._matches - len(self._shown)
        if more > 0:
            rows.append(ListOption(Content(f"… {more:,} more: type to narrow"), disabled=True))
        if not self._shown:
            rows.append(ListOption(Content("no option matches"), disabled=True))
        self._list.clear_options()
        self._list.add_options(rows)
        self._list.highlighted = 0 if (query and self._shown) else None

    def _update_summary(self) -> None:
        if not self._chosen:
            self._summary.update(Content("nothing chosen"))
            return
        labels = [one_line(self._choices[i].label, limit=60) for i in sorted(self._chosen)]
        text = ", ".join(labels[:5]) + (f" and {len(labels) - 5} more" if len(labels) > 5 else "")
        prefix = f"chosen ({len(labels)}): " if self._multi else "chosen: "
        self._summary.update(Content(prefix + text))

    @on(Input.Changed)
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._refilter(event.value)

    @on(Input.Submitted)
    def _stop_submitted(self, event: Input.Submitted) -> None:
        event.stop()

    @on(OptionList.OptionSelected)
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(event.option_index)
        self._input.focus()

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()

    def move(self, step: int) -> None:
        if not self._shown:
            return
        current = self._list.highlighted
        if current is None:
            target = 0 if step > 0 else len(self._shown) - 1
        else:
            target = max(0, min(len(self._shown) - 1, current + step))
        self._list.highlighted = target

    def pick_highlighted(self) -> bool:
        """Enter: pick (or toggle) the highlighted match. True when focus should move on: a single
        choice was picked, or nothing was highlighted."""
        row = self._list.highlighted
        if row is None or row >= len(self._shown):
            return True
        self._pick(row)
        return not self._multi

    def _pick(self, row: int) -> None:
        if row >= len(self._shown):
            return
        index = self._shown[row]
        if self._multi:
            self._chosen ^= {index}
            self._list.replace_option_prompt_at_index(row, self._row(index))
        else:
            self._chosen = {index}
            self._input.value = ""
        self._update_summary()
        self.post_message(self.Changed(self))

    def get_raw(self) -> RawValue:
        if self._multi:
            return [self._choices[i].value for i in sorted(self._chosen)]
        return self._choices[min(self._chosen)].value if self._chosen else None


ControlWidget = (
    TextControl | BoolControl | TriStateControl | SelectControl | MultiControl | ChoiceFilter
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
        placeholder=one_line(field.placeholder, limit=80),
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


#: FieldKind -> a builder ``(field, initial raw value, generated id) -> control``.
CONTROL_BUILDERS: dict[FieldKind, Callable[[FieldSpec, RawValue, str], ControlWidget]] = {
    FieldKind.TEXT: _text,
    FieldKind.NUMBER: _text,
    FieldKind.INTEGER: _text,
    FieldKind.BOOLEAN: _boolean,
    FieldKind.SELECT: _select,
    FieldKind.MULTI_SELECT: _multi_select,
}


def build_control(field: FieldSpec, raw: RawValue, control_id: str) -> ControlWidget:
    """The widget for ``field`` holding ``raw``; one table, no per-class ``to_widget()``."""
    return CONTROL_BUILDERS[field.kind](field, raw, control_id)


def raw_to_text(raw: RawValue) -> str:
    """A raw value as the user would read it back (for the transcript of abandoned input)."""
    if raw is None:
        return ""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, list):
        return ", ".join(raw)
    return raw


# --- one field -------------------------------------------------------------------------------


class FieldRow(Vertical):
    """One field: label line, description, control, inline error. Id ``field-N`` (generated)."""

    DEFAULT_CSS = """
    FieldRow { height: auto; margin: 0 0 1 0; }
    FieldRow > .field-label { height: auto; }
    FieldRow > .field-description { color: $text-muted; height: auto; }
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
        self._error = Static("", classes="field-error")

    def label_content(self) -> Content:
        """Title, required marker, secret marker and the constraint in words, on one line."""
        f = self.field
        parts = [literal_line(f.title or f.name, limit=120, style="bold")]
        if f.required:
            parts.append(Content.styled(" *", "bold $text-error"))
        if self.secret:
            parts.append(Content.styled("  ⚠ looks like a secret", "bold $text-warning"))
        rule = f.constraint_text
        if rule:
            parts.append(literal_line(f"  {rule}", limit=160, style="$text-muted"))
        return Content("").join(parts)

    def compose(self) -> ComposeResult:
        yield Static(self.label_content(), classes="field-label")
        if self.field.description:
            yield Static(
                literal(self.field.description, limit=DESCRIPTION_LIMIT),
                classes="field-description",
            )
        yield self.control
        yield self._error

    def get_raw(self) -> RawValue:
        return self.control.get_raw()

    def set_error(self, message: str | None) -> None:
        """Show (or clear, with ``None``) the inline error under the control."""
        self._error.update(literal_line(f"✗ {message}", limit=300) if message else Content(""))
        self.set_class(bool(message), "-invalid")

    @property
    def error_shown(self) -> bool:
        return self.has_class("-invalid")

    def focus_control(self) -> None:
        """Focus the control now (not after the App's queue, as ``Widget.focus`` does), so a key
        that arrives next already goes to it."""
        target: Widget = (
            self.control.filter_input if isinstance(self.control, ChoiceFilter) else self.control
        )
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
    def _edited(self, event: Message) -> None:
        event.stop()
        self.post_message(self.Edited(self))

    def on_descendant_blur(self) -> None:
        self.post_message(self.Left(self))
