"""The one-line input every screen uses: it keeps its value as it is and draws it inert.

A field's value may be the server's (a default, an example, a completion, the arguments of the
last call) and Textual draws an ``Input``'s value, placeholder and suggestion as they are: an
``\\e]0;…\\a`` in a default renamed the window, ``\\e]52;…`` wrote the clipboard, ``\\e[2J`` cleared
the screen and a newline was drawn at column 0 over the form. Labels go through
:func:`mcp_tui.untrusted.one_line`, but a value cannot: what is sent must be exactly what the
server gave or the person typed. So the *drawing* is made safe and ``value`` is left alone:
:class:`InertInput` draws :func:`mcp_tui.untrusted.inert` of it, one visible character for each
unsafe one (``␛`` for ESC, ``␊`` for a newline, ``�`` for a C1 or bidi control), which keeps
the cursor, the selection, a click and the horizontal scroll on the character they are on.

Every ``Input`` of ``mcp_tui.ui`` is one (``tests/ui/widgets/test_inert_values.py`` checks the
sources); the multi-line editor's counterpart is ``inert_area.InertTextArea``.
"""

from __future__ import annotations

from rich.cells import get_character_cell_size
from rich.segment import Segment
from rich.text import Text
from textual._cells import cell_len
from textual.strip import Strip
from textual.widgets import Input

from mcp_tui.untrusted import inert

__all__ = ["InertInput", "inert_strip", "select_when_tabbed_to"]


def inert_strip(strip: Strip) -> Strip:
    """``strip`` with the text of every segment made inert, cut to its width again (a control
    character Textual measured as zero cells is drawn as one)."""
    segments: list[Segment] = []
    changed = False
    for segment in strip:
        text = segment.text
        shown = text if segment.control else inert(text)
        if shown != text:
            changed = True
            segment = Segment(shown, segment.style, segment.control)
        segments.append(segment)
    if not changed:
        return strip
    return Strip(segments).crop_extend(0, strip.cell_length, None)


def select_when_tabbed_to(widget: object) -> None:
    """Focus reached ``widget`` by the keyboard (Tab, Shift+Tab, Enter moving on): a pre-filled
    one-line field (a default, the last call's value: nothing the person typed there) has its
    value selected, so typing replaces it, as in a browser (typing ``4`` into a party size of
    ``2`` gave ``24`` and an error). The screens that move focus by key call it. A click or an
    arrow key places the cursor as always; a field focused by the program (the first one when a
    form opens, one given back after a dialog) keeps its cursor; and a field the person typed in
    keeps it too, so going back to add to it never loses what was typed."""
    if isinstance(widget, InertInput) and widget.value and not widget.typed_in:
        widget.select_all()


class InertInput(Input):
    """An ``Input`` whose value, placeholder and suggestion are drawn inert (see the module)."""

    #: The person has edited the value here (typed, deleted, pasted, took a suggestion): Tab
    #: back into it keeps the cursor (:func:`select_when_tabbed_to`).
    typed_in = False

    def replace(self, text: str, start: int, end: int) -> None:
        # Every edit a person makes goes through here (``insert``, ``delete``, a paste); a value
        # set by the program (a default, F3's last call) does not.
        self.typed_in = True
        super().replace(text, start, end)

    def action_cursor_right(self, select: bool = False) -> None:
        if not select and self.cursor_at_end and self._suggestion:
            self.typed_in = True  # the suggestion taken is the person's choice
        super().action_cursor_right(select)

    @property
    def _value(self) -> Text:
        if self.password:
            return super()._value
        text = Text(inert(self.value), no_wrap=True, overflow="ignore", end="")
        return text if self.highlighter is None else self.highlighter(text)

    def _position_to_cell(self, position: int) -> int:
        if self.password:
            return position  # one "•" per character
        return cell_len(inert(self.value[:position]))

    def _cell_offset_to_index(self, offset: int) -> int:
        # As ``Input``'s, measured on what is drawn.
        cell_offset = 0
        offset += self.scroll_offset.x
        shown = "•" * len(self.value) if self.password else inert(self.value)
        for index, char in enumerate(shown):
            width = get_character_cell_size(char)
            if cell_offset <= offset < cell_offset + width:
                return index
            cell_offset += width
        return max(0, min(offset, len(self.value)))

    def render_line(self, y: int) -> Strip:
        # The value is drawn from ``_value``; the placeholder and the dim rest of a suggestion (a
        # server's completion) ``Input`` draws as they are: they are swapped for what is shown
        # while it draws (``set_reactive``: no watcher, no refresh), then put back, since taking
        # the suggestion must give the real one. Rich's ``Text`` would also drop a BEL or a CR
        # from them, and the rest would be drawn one cell to the left.
        suggestion, placeholder = self._suggestion, self.placeholder
        shown_suggestion, shown_placeholder = inert(suggestion), inert(placeholder)
        if shown_suggestion == suggestion and shown_placeholder == placeholder:
            return inert_strip(super().render_line(y))
        self.set_reactive(Input._suggestion, shown_suggestion)
        self.set_reactive(Input.placeholder, shown_placeholder)
        try:
            strip = super().render_line(y)
        finally:
            self.set_reactive(Input._suggestion, suggestion)
            self.set_reactive(Input.placeholder, placeholder)
        # And a last pass over what was drawn, should a later Textual draw something else raw.
        return inert_strip(strip)
