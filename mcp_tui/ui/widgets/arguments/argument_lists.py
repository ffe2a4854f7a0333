"""A list of any items in a tool-arguments form: add / remove / move, one item at a time.

Each item is an :class:`ItemBox` (its number, mouse buttons, then the item's own widget); keys act
on the item that holds focus. Items are mounted, moved and removed one by one, never rebuilt: the
key that asks for it is handled by a field inside an item, which must not wait for its own
removal. Lists of free strings or numbers are the flat forms' own list field, not this.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Static

from mcp_tui.schema.arguments.nodes import ArrayNode
from mcp_tui.schema.arguments.state import ArrayState, State, state_for
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.widgets.arguments.argument_base import ActButton, ErrorLine, NodeBox, title_line
from mcp_tui.ui.widgets.arguments.argument_objects import SectionHeader
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.form.form_fields import DESCRIPTION_LIMIT
from mcp_tui.ui.widgets.text.server_text import ServerText


class ItemBox(Vertical):
    """One item of a list: its number and buttons, then its widget. Keys: Alt+Up / Alt+Down
    move it, Ctrl+R removes it, Alt+N adds an item after it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Alt+arrows as in the list editor of the flat forms (``list_control``); Ctrl+N is a
        # field's "null" there.
        Binding("alt+up", "move(-1)", "Move up", show=False),
        Binding("alt+down", "move(1)", "Move down", show=False),
        Binding("ctrl+r", "remove", "Remove item"),
        Binding("alt+n", "add", "Add item"),
    ]
    DEFAULT_CSS = """
    ItemBox { height: auto; }
    ItemBox > .item-bar { height: 1; }
    ItemBox > .item-bar > Static { width: auto; color: $text-muted; padding: 0 1 0 0; }
    ItemBox > .item-bar > Button { margin: 0 1 0 0; min-width: 5; }
    """

    def __init__(self, array: ArrayBox, index: int) -> None:
        super().__init__(classes="array-item")
        self.array = array
        self.index = index

    def compose(self) -> ComposeResult:
        with Horizontal(classes="item-bar"):
            yield Static(Content(f"#{self.index + 1}"), classes="item-number")
            yield ActButton("↑", lambda: self.action_move(-1), tab_stop=False)
            yield ActButton("↓", lambda: self.action_move(1), tab_stop=False)
            yield ActButton("✕ remove", self.action_remove, tab_stop=False)
        yield self.array.item_widget(self.index)

    def set_index(self, index: int) -> None:
        """Now item ``index``: its number, and the paths its fields are known by."""
        if index == self.index:
            return
        old, new = (*self.array.path, self.index), (*self.array.path, index)
        self.index = index
        for number in self.query(".item-number"):
            if isinstance(number, Static):
                number.update(Content(f"#{index + 1}"))
        self.array.form.repath(self, old, new)

    async def action_move(self, step: int) -> None:
        await self.array.move(self.index, step)

    async def action_remove(self) -> None:
        await self.array.remove_at(self.index)

    async def action_add(self) -> None:
        await self.array.add(self.index + 1)


class ArrayBox(NodeBox):
    """A list: items with add / remove / move, the rule on its size, its own error line."""

    DEFAULT_CSS = """
    ArrayBox { margin: 0 0 1 0; }
    ArrayBox > .array-items { height: auto; padding: 0 0 0 2; }
    ArrayBox > .array-description { color: $text-muted; }
    ArrayBox > .array-add { margin: 0 0 0 2; }
    """

    def compose(self) -> ComposeResult:
        yield Static(self._label(), classes="array-label")
        if self.node.description:
            text = literal(self.node.description, limit=DESCRIPTION_LIMIT)
            yield ServerText(text, classes="array-description")
        yield Vertical(*self._items(), classes="array-items")
        yield ActButton("+ add item (Alt+N)", self.add_last, classes="array-add")
        yield ErrorLine(classes="node-error")

    def _label(self) -> Content:
        node = self.node
        rule = ""
        if isinstance(node, ArrayNode):
            lo, hi = node.min_items, node.max_items
            if lo and hi:
                rule = f"  {lo}–{hi} items"
            elif lo:
                rule = f"  at least {lo} item{'s' if lo > 1 else ''}"
            elif hi:
                rule = f"  at most {hi} item{'s' if hi > 1 else ''}"
        return title_line(node, "list") + literal_line(rule, limit=60, style="$text-muted")

    @property
    def items(self) -> list[State]:
        return self.state.items if isinstance(self.state, ArrayState) else []

    def _items(self) -> list[Widget]:
        return [ItemBox(self, i) for i in range(len(self.items))]

    def item_widget(self, index: int) -> Widget:
        assert isinstance(self.node, ArrayNode)
        item = replace(self.node.items, title=self.node.items.title or f"item {index + 1}")
        return self.form.node_widget(item, self.items[index], (*self.path, index), headless=True)

    # Items are mounted, moved and removed one by one, never rebuilt: the key that asks for it
    # is handled by a field inside an item, which must not wait for its own removal.

    def _boxes(self) -> list[ItemBox]:
        return list(self.query_one(".array-items", Vertical).query_children(ItemBox))

    def _renumber(self) -> None:
        for index, box in enumerate(self._boxes()):
            box.set_index(index)

    def _focus_in(self, box: ItemBox | None) -> None:
        """The first field of ``box`` (now, so the next key goes there), else "add item"."""
        if box is not None:
            for widget in box.query("*"):
                if widget.focusable and not isinstance(widget, Button | SectionHeader):
                    row = next((a for a in widget.ancestors if isinstance(a, FieldRow)), None)
                    if row is not None:
                        row.focus_control()  # and brings the whole row into view once laid out
                    else:
                        self.screen.set_focus(widget)
                    return
        self.screen.set_focus(self.query_one(".array-add", Button))

    async def add(self, index: int) -> None:
        assert isinstance(self.node, ArrayNode)
        index = max(0, min(index, len(self.items)))
        self.items.insert(index, state_for(self.node.items))
        boxes = self._boxes()
        box = ItemBox(self, index)
        holder = self.query_one(".array-items", Vertical)
        await holder.mount(box, before=boxes[index] if index < len(boxes) else None)
        self._renumber()
        self.form.touch(self.path)
        self._focus_in(box)

    async def add_last(self) -> None:
        await self.add(len(self.items))

    async def remove_at(self, index: int) -> None:
        boxes = self._boxes()
        if not 0 <= index < len(self.items) or index >= len(boxes):
            return
        del self.items[index]
        gone = boxes.pop(index)
        self._focus_in(boxes[min(index, len(boxes) - 1)] if boxes else None)
        gone.remove()  # not awaited: focus may have been inside it a moment ago
        for position, box in enumerate(boxes):
            box.set_index(position)
        self.form.touch(self.path)

    async def move(self, index: int, step: int) -> None:
        target = index + step
        boxes = self._boxes()
        if not (0 <= index < len(self.items) and 0 <= target < len(self.items)):
            return
        items = self.items
        items[index], items[target] = items[target], items[index]
        holder = self.query_one(".array-items", Vertical)
        if step < 0:
            holder.move_child(boxes[index], before=boxes[target])
        else:
            holder.move_child(boxes[index], after=boxes[target])
        boxes[index].set_index(target)
        boxes[target].set_index(index)
        self.form.touch(self.path)
