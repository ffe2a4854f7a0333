"""The widgets of a tool-arguments tree: one per node kind, dispatched in :func:`node_widget`.

Scalars are the flat form's own :class:`~mcp_tui.ui.widgets.form_fields.FieldRow` (same controls,
labels, rules and inline errors); the rest are containers around them: an object is a collapsible
section, a list has add / remove / move keys per item, a variant is a picker (itself a select
row) above the chosen choice, a map has key/value rows, a recursive part an "expand" button. The
values live in the model's state (:mod:`mcp_tui.schema.arguments.state`), never only in a widget,
so a collapsed section or a rebuilt list loses nothing.

Every string from the server is shown as literal text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Static

from mcp_tui.schema.arguments.nodes import (
    ArrayNode,
    Const,
    JsonValue,
    Leaf,
    Node,
    ObjectNode,
    Path,
    Recursive,
    Variant,
)
from mcp_tui.schema.arguments.state import (
    ArrayState,
    ConstState,
    JsonState,
    LeafState,
    ObjectState,
    RecursiveState,
    State,
    VariantState,
    state_for,
)
from mcp_tui.schema.fields import FieldKind, FieldSpec
from mcp_tui.ui.text import literal, literal_line
from mcp_tui.ui.widgets.form_controls import TextControl
from mcp_tui.ui.widgets.form_fields import DESCRIPTION_LIMIT, FieldRow
from mcp_tui.ui.widgets.key_order import OrderedButton

if TYPE_CHECKING:
    from mcp_tui.ui.widgets.arguments_form import ArgumentsForm


class ActButton(OrderedButton):
    """A small button that acts the same on a key and on a click. ``tab_stop=False``: for the
    mouse only (its action has a key of its own), so Tab goes from field to field."""

    def __init__(
        self,
        label: str,
        action: Callable[[], Awaitable[None] | None],
        *,
        tab_stop: bool = True,
        **kw: Any,
    ) -> None:
        super().__init__(literal_line(label, limit=60), on_press=action, compact=True, **kw)
        self.can_focus = tab_stop

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        await self.action_press()


def _title(node: Node, fallback: str) -> Content:
    parts = [literal_line(node.label or fallback, limit=120, style="bold")]
    if node.required and not node.nullable:
        parts.append(Content.styled(" *", "bold $text-error"))
    return Content("").join(parts)


class ErrorLine(Static):
    """A container's own error ("Add at least 1 item"), hidden while there is none."""

    DEFAULT_CSS = "ErrorLine { color: $text-error; text-style: bold; display: none; }"

    def show(self, message: str | None) -> None:
        self.update(literal_line(f"✗ {message}", limit=300) if message else Content(""))
        self.display = bool(message)


class NodeBox(Vertical):
    """Base of every node widget: where it is (``path``), its node and state, its form."""

    DEFAULT_CSS = "NodeBox { height: auto; }"

    def __init__(self, form: ArgumentsForm, node: Node, state: State, path: Path) -> None:
        super().__init__(classes="node-box")
        self.form = form
        self.node = node
        self.state = state
        self.path = path

    #: Whether the form shows errors of this path here (a leaf's row does it instead).
    REGISTERED: ClassVar[bool] = True

    def on_mount(self) -> None:
        if self.REGISTERED:
            self.form.register(self.path, self)

    def on_unmount(self) -> None:
        if self.REGISTERED:
            self.form.unregister(self.path, self)

    def set_error(self, message: str | None) -> None:
        for line in self.query_children(ErrorLine):
            line.show(message)

    def focus_control(self) -> bool:
        """Focus the first focusable widget inside; False when there is none."""
        for widget in self.query("*"):
            if widget.focusable:
                self.screen.set_focus(widget)
                return True
        return False


class LeafRow(FieldRow):
    """A scalar: the flat form's row, writing its raw value into the state as the user edits."""

    def __init__(
        self, form: ArgumentsForm, spec: FieldSpec, raw: Any, path: Path, *, example: str | None
    ) -> None:
        super().__init__(spec, form.next_index(), raw)
        self.form = form
        self.path = path
        if example and isinstance(self.control, TextControl):
            self.control.placeholder = literal_line(f"e.g. {example}", limit=80).plain

    def on_mount(self) -> None:
        self.form.register(self.path, self)

    def on_unmount(self) -> None:
        self.form.unregister(self.path, self)


class LeafBox(NodeBox):
    """A :class:`~mcp_tui.schema.arguments.nodes.Leaf` or a JSON-text value as one row (the row
    registers the path: it shows the errors)."""

    REGISTERED: ClassVar[bool] = False

    def compose(self) -> ComposeResult:
        node, state = self.node, self.state
        if isinstance(node, Leaf) and isinstance(state, LeafState):
            spec = replace(node.field, title=node.label or node.field.title)
            yield LeafRow(self.form, spec, state.raw, self.path, example=node.example)
        elif isinstance(node, JsonValue) and isinstance(state, JsonState):
            why = "" if node.why == "any JSON value" else f" ({node.why})"
            text = (node.description + "\n" if node.description else "") + f"JSON{why}"
            spec = FieldSpec(
                name=node.name,
                kind=FieldKind.TEXT,
                title=node.label or "value",
                description=text,
                required=node.required and not node.nullable,
            )
            yield LeafRow(self.form, spec, state.text, self.path, example=None)

    def changed(self, row: FieldRow) -> bool:
        """Whether the row holds something else than the state."""
        raw = row.get_raw()
        if isinstance(self.state, LeafState):
            return bool(self.state.raw != raw)
        return isinstance(self.state, JsonState) and self.state.text != raw

    def store(self, row: FieldRow) -> None:
        raw = row.get_raw()
        if isinstance(self.state, LeafState):
            self.state.raw = raw
        elif isinstance(self.state, JsonState):
            self.state.text = raw if isinstance(raw, str) else ""


class ConstBox(NodeBox):
    """A fixed value: shown, not editable."""

    def compose(self) -> ComposeResult:
        import json

        value = json.dumps(getattr(self.node, "value", None), ensure_ascii=False)
        line = Content.assemble(_title(self.node, "value"), ("  ", ""), ("= ", "$text-muted"))
        yield Static(line + literal_line(value, limit=200), classes="const-line")


class SectionHeader(Static, can_focus=True):
    """The title line of an object: Enter, Space or a click folds and unfolds the section."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "fold", "Fold", show=False),
    ]
    DEFAULT_CSS = """
    SectionHeader { height: auto; }
    SectionHeader:focus { background: $panel-lighten-2; }
    """

    def __init__(self, box: ObjectBox) -> None:
        super().__init__(box.header(), classes="section-header")
        self.box = box

    async def action_fold(self) -> None:
        await self.box.toggle()

    async def on_click(self) -> None:
        await self.box.toggle()


class ObjectBox(NodeBox):
    """Named properties in a section (folded when optional), then a map's extra entries."""

    DEFAULT_CSS = """
    ObjectBox.-nested { border-left: tall $panel-lighten-2; padding: 0 0 0 1; margin: 0 0 1 0; }
    ObjectBox > .section-body { height: auto; }
    ObjectBox > .section-description { color: $text-muted; }
    """

    def __init__(
        self,
        form: ArgumentsForm,
        node: Node,
        state: State,
        path: Path,
        *,
        root: bool = False,
        headless: bool = False,
    ) -> None:
        super().__init__(form, node, state, path)
        self.root = root
        #: No title line of its own: a list item (under its "#1 ↑ ↓ ✕" bar) or a variant (under
        #: its picker) is never folded.
        self.headless = headless
        self.folded = not root and not headless and not node.required and not _given(state)
        self.body = Vertical(classes="section-body")
        self.set_class(not root, "-nested")

    def header(self) -> Content:
        arrow = "▸ " if self.folded else "▾ "
        hint = ""
        if not self.node.required and not _given(self.state):
            hint = "  (optional: left out until something in it is filled)"
        return Content.assemble((arrow, "bold"), _title(self.node, "object"), (hint, "$text-muted"))

    def compose(self) -> ComposeResult:
        if not self.root and not self.headless:
            yield SectionHeader(self)
            if self.node.description:
                text = literal(self.node.description, limit=DESCRIPTION_LIMIT)
                yield Static(text, classes="section-description")
        yield ErrorLine(classes="node-error")
        self.body.display = not self.folded
        if not self.folded:
            for widget in self.children_widgets():
                self.body.compose_add_child(widget)
        yield self.body

    def children_widgets(self) -> list[Widget]:
        node, state = self.node, self.state
        if not isinstance(node, ObjectNode) or not isinstance(state, ObjectState):
            return []
        widgets: list[Widget] = []
        for child in node.properties:
            inner = state.children.setdefault(child.name, state_for(child))
            widgets.append(node_widget(self.form, child, inner, (*self.path, child.name)))
        if node.extra is not None:
            widgets.append(MapBox(self.form, node, state, self.path))
        return widgets

    async def fill(self) -> None:
        if not self.body.children:
            await self.body.mount_all(self.children_widgets())

    async def toggle(self) -> None:
        self.folded = not self.folded
        if not self.folded:
            await self.fill()
        self.body.display = not self.folded
        for header in self.query_children(SectionHeader):
            header.update(self.header())

    def refresh_header(self) -> None:
        for header in self.query_children(SectionHeader):
            header.update(self.header())


def _given(state: State) -> bool:
    return not isinstance(state, ObjectState | ArrayState) or state.present


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
            yield Static(text, classes="array-description")
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
        return _title(node, "list") + literal_line(rule, limit=60, style="$text-muted")

    @property
    def items(self) -> list[State]:
        return self.state.items if isinstance(self.state, ArrayState) else []

    def _items(self) -> list[Widget]:
        return [ItemBox(self, i) for i in range(len(self.items))]

    def item_widget(self, index: int) -> Widget:
        assert isinstance(self.node, ArrayNode)
        item = replace(self.node.items, title=self.node.items.title or f"item {index + 1}")
        return node_widget(self.form, item, self.items[index], (*self.path, index), headless=True)

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


class VariantBox(NodeBox):
    """``anyOf``/``oneOf``: a select row to pick the variant, and the chosen variant below it."""

    DEFAULT_CSS = "VariantBox > .variant-body { height: auto; padding: 0 0 0 2; }"

    def set_error(self, message: str | None) -> None:
        for row in self.query_children(PickerRow):
            row.set_error(message)

    @on(FieldRow.Edited)
    async def _picked(self, event: FieldRow.Edited) -> None:
        if isinstance(event.row, PickerRow) and event.row.box is self:
            event.stop()
            await self.pick(event.row.get_raw())

    @on(FieldRow.Left)
    def _left(self, event: FieldRow.Left) -> None:
        if isinstance(event.row, PickerRow) and event.row.box is self:
            event.stop()

    def compose(self) -> ComposeResult:
        state = self.state
        chosen = state.chosen if isinstance(state, VariantState) else None
        raw = None if chosen is None else str(chosen)
        assert isinstance(self.node, Variant)
        yield PickerRow(self, self.node.picker(), raw)
        yield Vertical(*self._body(), classes="variant-body")

    def _body(self) -> list[Widget]:
        node, state = self.node, self.state
        if not isinstance(node, Variant) or not isinstance(state, VariantState):
            return []
        if state.chosen is None:
            return []
        choice = node.choices[state.chosen]
        inner = state.states.setdefault(state.chosen, state_for(choice))
        if isinstance(choice, Const):
            return []  # the picker already says which
        # The picker row already shows the name and description: the variant goes under it bare.
        shown: Node = replace(choice, title="value", description=None, required=True)
        if isinstance(shown, Leaf):
            shown = replace(shown, field=replace(shown.field, title="value", description=None))
        return [node_widget(self.form, shown, inner, self.path, headless=True)]

    async def pick(self, raw: object) -> None:
        if not isinstance(self.state, VariantState):
            return
        chosen = int(raw) if isinstance(raw, str) and raw.isdigit() else None
        if chosen == self.state.chosen:
            return
        self.state.chosen = chosen
        body = self.query_one(".variant-body", Vertical)
        await body.remove_children()
        await body.mount_all(self._body())
        self.form.touch(self.path)


class PickerRow(FieldRow):
    """The variant picker: a select row whose choice swaps the variant shown below."""

    def __init__(self, box: VariantBox, spec: FieldSpec, raw: Any) -> None:
        super().__init__(spec, box.form.next_index(), raw)
        self.box = box


class MapBox(Vertical):
    """``additionalProperties``: key/value rows, with add and remove."""

    DEFAULT_CSS = """
    MapBox { height: auto; margin: 0 0 1 0; }
    MapBox > .map-entries { height: auto; padding: 0 0 0 2; }
    MapBox > .map-add { margin: 0 0 0 2; }
    """

    def __init__(self, form: ArgumentsForm, node: ObjectNode, state: ObjectState, path: Path):
        super().__init__(classes="map-box")
        self.form = form
        self.node = node
        self.state = state
        self.path = path

    def compose(self) -> ComposeResult:
        label = "more entries" if self.node.properties else "entries"
        yield Static(Content.styled(f"{label} (key: value)", "bold"), classes="map-label")
        yield Vertical(*self._entries(), classes="map-entries")
        yield ActButton("+ add entry", self.add, classes="map-add")

    def _entries(self) -> list[Widget]:
        return [MapEntry(self, i) for i in range(len(self.state.extra))]

    async def add(self) -> None:
        assert self.node.extra is not None
        self.state.extra.append(("", state_for(self.node.extra)))
        await self._rebuild()

    async def remove_at(self, index: int) -> None:
        entries = list(self.query_one(".map-entries", Vertical).query_children(MapEntry))
        if not 0 <= index < len(self.state.extra) or index >= len(entries):
            return
        del self.state.extra[index]
        self.screen.set_focus(self.query_one(".map-add", Button))
        entries.pop(index).remove()  # not awaited: focus was inside it a moment ago
        for position, entry in enumerate(entries):
            entry.index = position
        self.form.touch(self.path)

    async def _rebuild(self) -> None:
        holder = self.query_one(".map-entries", Vertical)
        await holder.remove_children()
        await holder.mount_all(self._entries())
        self.form.touch(self.path)


class MapEntry(Vertical):
    """One key/value row of a map. Ctrl+R removes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+r", "remove", "Remove entry")]

    async def action_remove(self) -> None:
        await self.box.remove_at(self.index)

    DEFAULT_CSS = """
    MapEntry { height: auto; }
    MapEntry > .map-key { height: 1; }
    MapEntry > .map-key > Input { width: 30; }
    MapEntry > .map-key > Button { margin: 0 0 0 1; }
    """

    def __init__(self, box: MapBox, index: int) -> None:
        super().__init__(classes="map-entry")
        self.box = box
        self.index = index

    def compose(self) -> ComposeResult:
        key, state = self.box.state.extra[self.index]
        control = TextControl(
            key, placeholder="key", compact=True, id=f"map-key-{self.box.form.next_index()}"
        )
        with Horizontal(classes="map-key"):
            yield control
            yield ActButton("✕ remove", lambda: self.box.remove_at(self.index), tab_stop=False)
        assert self.box.node.extra is not None
        value = replace(self.box.node.extra, title="value")
        yield node_widget(self.box.form, value, state, (*self.box.path, key or self.index))

    @on(TextControl.Changed)
    def _key(self, event: TextControl.Changed) -> None:
        if event.input.id and event.input.id.startswith("map-key-"):
            event.stop()
            _, state = self.box.state.extra[self.index]
            self.box.state.extra[self.index] = (event.value, state)
            self.box.form.touch(self.box.path)


class RecursiveBox(NodeBox):
    """A part that refers back to itself: folded behind an "expand" button until asked for."""

    def compose(self) -> ComposeResult:
        yield Static(_title(self.node, "part"), classes="recursive-label")
        yield ErrorLine(classes="node-error")
        state = self.state
        if isinstance(state, RecursiveState) and state.node is not None and state.inner is not None:
            yield node_widget(self.form, state.node, state.inner, self.path, headless=True)
        else:
            yield ActButton("▸ expand", self.open_part, classes="recursive-expand")

    async def open_part(self) -> None:
        state = self.state
        if not isinstance(self.node, Recursive) or not isinstance(state, RecursiveState):
            return
        state.node = self.node.expand()
        state.inner = state_for(state.node)
        for button in self.query(".recursive-expand"):
            button.remove()  # not awaited: it is the widget whose key asked for this
        node = replace(state.node, required=True)
        widget = node_widget(self.form, node, state.inner, self.path, headless=True)
        await self.mount(widget)
        self.form.touch(self.path)
        for inner in widget.query("*"):
            if inner.focusable and not isinstance(inner, SectionHeader):
                self.screen.set_focus(inner)
                break


def node_widget(
    form: ArgumentsForm, node: Node, state: State, path: Path, *, headless: bool = False
) -> Widget:
    """The ONE dispatch from a node kind to its widget (the state is made fresh if it is of
    another shape, which only a defect could cause). ``headless``: an object shown without a
    title line of its own (see :class:`ObjectBox`)."""
    if isinstance(node, Leaf):
        state = state if isinstance(state, LeafState) else state_for(node)
        return LeafBox(form, node, state, path)
    if isinstance(node, JsonValue):
        state = state if isinstance(state, JsonState) else state_for(node)
        return LeafBox(form, node, state, path)
    if isinstance(node, Const):
        state = state if isinstance(state, ConstState) else state_for(node)
        return ConstBox(form, node, state, path)
    if isinstance(node, ObjectNode):
        state = state if isinstance(state, ObjectState) else state_for(node)
        return ObjectBox(form, node, state, path, headless=headless)
    if isinstance(node, ArrayNode):
        state = state if isinstance(state, ArrayState) else state_for(node)
        return ArrayBox(form, node, state, path)
    if isinstance(node, Variant):
        state = state if isinstance(state, VariantState) else state_for(node)
        return VariantBox(form, node, state, path)
    state = state if isinstance(state, RecursiveState) else state_for(node)
    return RecursiveBox(form, node, state, path)
