"""The list editor of a LIST field (free strings or numbers) and the fixed value of a CONST field.

:class:`ListControl` is one one-line input per item, in order, with a hint line under them. Keys
(each item input): Enter adds an item after this one (on an empty item: moves to the next field,
so "type, Enter, type, Enter, Enter" fills a list and moves on); Backspace on an empty item removes
it; Up/Down move between items; Alt+Up/Alt+Down move the item itself; Tab leaves the list like any
field. It hands back the text of every row (``list[str]``); reading the rows as items (skipping
empty ones, numbers as JSON numbers) is ``schema.validate``'s job. The rows are generic one-line
inputs, so the same control serves any scalar item.

:class:`ConstControl` shows a ``const`` as literal text: it cannot be edited or focused, and the
value is always sent.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from mcp_tui.schema.fields import RawValue
from mcp_tui.schema.rules import shown
from mcp_tui.ui.key_order import OrderedKeys
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.widgets.form.form_controls import focus_next_field
from mcp_tui.ui.widgets.text.inert import InertInput

__all__ = ["ConstControl", "ItemInput", "ListControl"]

LIST_HINT = "enter: new item · backspace on empty: remove · alt+↑/↓: move"


class ItemInput(OrderedKeys, InertInput):
    """One item of a :class:`ListControl`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "step(-1)", show=False),
        Binding("down", "step(1)", show=False),
        Binding("alt+up", "move(-1)", "Move up", show=False),
        Binding("alt+down", "move(1)", "Move down", show=False),
    ]

    @property
    def owner(self) -> ListControl:
        parent = self.parent
        assert isinstance(parent, ListControl)
        return parent

    async def action_submit(self) -> None:
        if self.value == "":
            await focus_next_field(self)
        else:
            self.owner.add_after(self)

    def action_step(self, step: int) -> None:
        self.owner.step(self, step)

    def action_move(self, step: int) -> None:
        self.owner.move(self, step)

    def action_delete_left(self) -> None:
        if self.value == "" and len(self.owner.items) > 1:
            self.owner.remove_item(self)
            return
        super().action_delete_left()


class ListControl(Vertical):
    """Edits a list of scalar items, one input per item (see the module docstring)."""

    DEFAULT_CSS = """
    ListControl { height: auto; width: 1fr; max-width: 80; }
    ListControl > ItemInput { width: 1fr; }
    ListControl > ItemInput.-textual-compact { background: $panel; }
    ListControl > ItemInput.-textual-compact:focus { background: $panel-lighten-2; }
    ListControl > .list-hint { color: $text-muted; height: 1; }
    """

    class Changed(Message):
        """An item was added, removed, moved or edited."""

        def __init__(self, control: ListControl) -> None:
            super().__init__()
            self.control_widget = control

    def __init__(self, rows: list[str], *, placeholder: str = "", id: str) -> None:
        super().__init__(id=id)
        self._placeholder = placeholder
        self._initial = list(rows) or [""]
        self._count = 0

    def _item(self, value: str) -> ItemInput:
        self._count += 1
        return ItemInput(
            value,
            placeholder=self._placeholder,
            id=f"{self.id}-item-{self._count}",
            select_on_focus=False,
            compact=True,
        )

    def compose(self) -> ComposeResult:
        for value in self._initial:
            yield self._item(value)
        yield Static(Content(LIST_HINT), classes="list-hint")

    @property
    def items(self) -> list[ItemInput]:
        return list(self.query_children(ItemInput))

    @property
    def first_input(self) -> ItemInput | None:
        items = self.items
        return items[0] if items else None

    def get_raw(self) -> RawValue:
        return [item.value for item in self.items] if self.is_mounted else list(self._initial)

    def add_after(self, item: ItemInput) -> None:
        new = self._item("")
        self.mount(new, after=item)
        self.screen.set_focus(new, scroll_visible=True)
        self._changed()

    def remove_item(self, item: ItemInput) -> None:
        items = self.items
        index = items.index(item)
        target = items[index - 1] if index > 0 else items[index + 1]
        self.screen.set_focus(target, scroll_visible=True)
        item.remove()
        self._changed()

    def step(self, item: ItemInput, step: int) -> None:
        items = self.items
        index = items.index(item) + step
        if 0 <= index < len(items):
            self.screen.set_focus(items[index], scroll_visible=True)

    def move(self, item: ItemInput, step: int) -> None:
        items = self.items
        index = items.index(item)
        other = index + step
        if not 0 <= other < len(items):
            return
        # Swap the texts: the focused input stays where the cursor is expected to follow.
        item.value, items[other].value = items[other].value, item.value
        self.screen.set_focus(items[other], scroll_visible=True)
        self._changed()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._changed()

    def _changed(self) -> None:
        self.post_message(self.Changed(self))


class ConstControl(Static):
    """A fixed value: shown as literal text, never edited, always sent."""

    DEFAULT_CSS = """
    ConstControl { height: auto; color: $text; }
    """

    def __init__(self, value: str | int | float | bool | None, *, id: str) -> None:
        text = value if isinstance(value, str) else shown(value)
        label = Content("").join(
            [
                literal_line(text, limit=200, style="bold"),
                Content.styled("  (fixed value, always sent)", "$text-muted"),
            ]
        )
        super().__init__(label, id=id)

    def get_raw(self) -> RawValue:
        return None
