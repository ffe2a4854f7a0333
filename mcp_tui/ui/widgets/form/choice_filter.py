"""A filter box over a long option list (more than ``form_fields.FILTER_THRESHOLD`` options).

It never builds a widget row per option, so 10,000 options open at once; only
:data:`FILTER_SHOWN` matches are ever rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from mcp_tui.schema.fields import Option, RawValue
from mcp_tui.ui.key_order import OrderedKeys
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.widgets.form.form_controls import focus_next_field
from mcp_tui.ui.widgets.text.inert import InertInput
from mcp_tui.untrusted import one_line

#: How many matches a :class:`ChoiceFilter` shows at once (typing narrows the rest).
FILTER_SHOWN = 50


class _FilterInput(OrderedKeys, InertInput):
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
