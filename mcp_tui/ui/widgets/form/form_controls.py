"""The controls of a form row: one widget per field kind, each handing back a *raw* value.

Every control mixes in :class:`~mcp_tui.ui.key_order.OrderedKeys` (first among its
bases), and acts at once where Textual would act through a message it posts to itself (a
drop-down's pick, a selection list's toggle), so keys typed in a burst take effect in order on
the field that has focus, and Ctrl+S sees all of them (see ``key_order``). Option values never
become widget values or ids: controls work on option *indices*. Long option lists use
``choice_filter.ChoiceFilter``; the dispatch table from field kind to control is in
``form_fields``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal, Protocol, runtime_checkable

from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Checkbox, Select, SelectionList
from textual.widgets._select import SelectCurrent, SelectOverlay
from textual.widgets._toggle_button import ToggleButton
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import Selection

from mcp_tui.schema.fields import Option, RawValue
from mcp_tui.schema.formats import could_become_number
from mcp_tui.ui.key_order import OrderedKeys
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.widgets.text.inert import InertInput
from mcp_tui.untrusted import one_line

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


def focus_past(rows: Sequence[Widget], *, forward: bool) -> bool:
    """Focus the first focusable widget after ``rows`` (or the last one before them), in document
    order, wrapping around like Tab; False when there is none outside the rows."""
    screen = rows[0].screen
    order = {id(node): i for i, node in enumerate(screen.walk_children(with_self=False))}
    inside = set(rows)
    outside = [w for w in screen.focus_chain if inside.isdisjoint(w.ancestors_with_self)]
    if not outside:
        return False
    outside.sort(key=lambda w: order.get(id(w), 0))
    edge = order.get(id(rows[-1] if forward else rows[0]), 0)
    if forward:
        after = [w for w in outside if order.get(id(w), 0) > edge]
        screen.set_focus(after[0] if after else outside[0])
    else:
        before = [w for w in outside if order.get(id(w), 0) < edge]
        screen.set_focus(before[-1] if before else outside[-1])
    return True


def scroll_home(widget: Widget) -> None:
    """Scroll the nearest scrolling ancestor of ``widget`` back to its top."""
    for node in widget.ancestors:
        if isinstance(node, Widget) and node.is_scrollable and node.allow_vertical_scroll:
            node.scroll_home(animate=False)
            return


# --- controls --------------------------------------------------------------------------------
# Every control mixes in ``OrderedKeys`` (first among its bases): keys typed in a burst take effect
# in order on the field that has focus, and Ctrl+S sees all of them (see ``key_order``).


#: What a number field's text must read as: a whole number, or any number.
NumberKind = Literal["integer", "number"]


class TextControl(OrderedKeys, InertInput):
    """A one-line input for text, number and integer fields. Enter moves on, never submits.

    Every key typed in a number field is kept, whatever it is: a refused key changes the number
    (the "." of ``1.0`` refused in an integer field sent ``10``). Once the text can no longer
    become a number (``2,5``, ``1.2.3``) the control says so at once with
    :class:`TextControl.Refused` (a note, not a refusal: the text stays), and the check on leaving
    or on Ctrl+S refuses to send it. Only a text field's ``maxLength`` refuses keys, which changes
    no number; that refusal is posted the same way, with the reason.
    """

    class Refused(Message):
        """Typed text was not taken, or (``taken``) cannot be read as the field's kind; ``reason``
        says why, in words, and ``None`` takes a number note back."""

        def __init__(self, control: TextControl, reason: str | None) -> None:
            super().__init__()
            self.control_widget = control
            self.reason = reason

    #: Set for a number field (``form_fields``): the kind of number its text must read as.
    numeric: NumberKind | None = None
    _attempt = ""
    _noted = False

    def replace(self, text: str, start: int, end: int) -> None:
        self._attempt = text
        super().replace(text, start, end)

    def restricted(self) -> None:
        text = one_line(self._attempt, limit=20)
        if self.max_length and len(self.value) >= self.max_length:
            reason = f"at most {self.max_length} characters: {text!r} was not typed"
        else:
            reason = f"{text!r} was not typed"
        self.post_message(self.Refused(self, reason))

    def watch_value(self, value: str) -> None:
        if self.numeric is None:
            return
        if could_become_number(value):
            if self._noted:
                self._noted = False
                self.post_message(self.Refused(self, None))
            return
        self._noted = True
        noun = "a whole number" if self.numeric == "integer" else "a number"
        shown = one_line(value.strip(), limit=20)
        self.post_message(
            self.Refused(self, f"{shown!r} is not {noun} (digits, one '.', an exponent: 1e3)")
        )

    def get_raw(self) -> RawValue:
        return self.value

    async def action_submit(self) -> None:
        # Enter in a one-line input moves to the next field; only Ctrl+S sends a form.
        await focus_next_field(self)


#: How a boolean's state is drawn: a box that is ticked or empty, then the words.
BOX_ON = "☑"
BOX_OFF = "☐"
#: A boolean without a default, not answered (it is left out of the content).
BOX_UNSET = "◌"


class BoolControl(OrderedKeys, Checkbox, inherit_bindings=False):
    """A checkbox for a boolean that always has a value (it has a default).

    Textual's checkbox draws the same "X" for both states in two shades (a dark X on navy when
    false, hardly different when true); here the box itself says it (☑ / ☐), then the words, in
    the theme's foreground colour on every state, so it reads at WCAG AA contrast in any theme.
    """

    DEFAULT_CSS = """
    BoolControl > .toggle--button, BoolControl.-on > .toggle--button {
        color: $foreground;
        background: initial;
        text-style: bold;
    }
    BoolControl:focus > .toggle--label {
        color: $foreground;
        background: initial;
        text-style: bold underline;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_button", "Toggle", show=False),
        Binding("enter", "next_field", "Next field", show=False),
    ]

    @property
    def _button(self) -> Content:
        return Content.styled(
            BOX_ON if self.value else BOX_OFF, self.get_visual_style("toggle--button")
        )

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
            return Content(f"{BOX_UNSET} not set (left out) · space: yes / no")
        return Content(f"{BOX_ON} yes (true)") if self.state else Content(f"{BOX_OFF} no (false)")

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


#: The drop-down's height: Textual's own at most, and never less than a row and its border.
MAX_OVERLAY_ROWS = 12
MIN_OVERLAY_ROWS = 3


class SelectControl(OrderedKeys, Select[int]):
    """A short single-choice list. Values are option indices; labels are literal text."""

    def __init__(self, options: Sequence[Option], chosen: int | None, *, id: str) -> None:
        self._choices = tuple(options)
        #: The option chosen when the form opened (a default), or None.
        self.initial = chosen
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
            overlay = self.query_one(SelectOverlay)
            self._fit_overlay(overlay)
            self.screen.set_focus(overlay, scroll_visible=False)

    def _fit_overlay(self, overlay: SelectOverlay) -> None:
        """Keep the drop-down inside the dialog that holds it: it is drawn on the screen's layer
        (up to 12 rows), so near a short dialog's bottom it covered the border and what lies
        below. It gets the rows left down to the border instead (3 at least: it scrolls)."""
        box = next(
            (a for a in self.ancestors if isinstance(a, Widget) and a.has_class("dialog")), None
        )
        if box is None:
            return
        inside = box.region.shrink(box.styles.border.spacing)
        top = self.query_one(SelectCurrent).region.bottom
        overlay.styles.max_height = max(
            MIN_OVERLAY_ROWS, min(MAX_OVERLAY_ROWS, inside.bottom - top)
        )

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


class MultiControl(OrderedKeys, SelectionList[int], inherit_bindings=False):
    """A short multi-choice list. Values are option indices.

    Space ticks or unticks the highlighted row and Enter moves to the next field, as on every
    other choice in the form (``SelectionList`` toggles on Enter too).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "select", "Tick", show=True),  # the footer says how, as for a checkbox
        Binding("enter", "next_field", "Next field", show=False),
        Binding("down", "cursor_down", show=False),
        Binding("up", "cursor_up", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
        Binding("pagedown", "page_down", show=False),
        Binding("pageup", "page_up", show=False),
    ]

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

    async def action_next_field(self) -> None:
        await focus_next_field(self)

    def action_select(self) -> None:
        # Toggle now. ``SelectionList`` toggles the *highlighted* row when its own "selected"
        # message comes back, by which time a Down typed right after Space has moved the
        # highlight: Space Down Down Space in one burst toggled the third row twice.
        index = self.highlighted
        if index is not None and not self.get_option_at_index(index).disabled:
            self._toggle_highlighted_selection()

    def get_raw(self) -> RawValue:
        return [self._choices[i].value for i in sorted(self.selected)]
