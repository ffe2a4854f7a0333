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
from textual.containers import Vertical
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


def title_line(node: Node, fallback: str) -> Content:
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
        line = Content.assemble(title_line(self.node, "value"), ("  ", ""), ("= ", "$text-muted"))
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
        self.folded = not root and not headless and not node.required and not given(state)
        self.body = Vertical(classes="section-body")
        self.set_class(not root, "-nested")

    def header(self) -> Content:
        arrow = "▸ " if self.folded else "▾ "
        hint = ""
        if not self.node.required and not given(self.state):
            hint = "  (optional: left out until something in it is filled)"
        return Content.assemble(
            (arrow, "bold"), title_line(self.node, "object"), (hint, "$text-muted")
        )

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
            from mcp_tui.ui.widgets.argument_maps import MapBox

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


def given(state: State) -> bool:
    return not isinstance(state, ObjectState | ArrayState) or state.present


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


class RecursiveBox(NodeBox):
    """A part that refers back to itself: folded behind an "expand" button until asked for."""

    def compose(self) -> ComposeResult:
        yield Static(title_line(self.node, "part"), classes="recursive-label")
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
        from mcp_tui.ui.widgets.argument_lists import ArrayBox

        state = state if isinstance(state, ArrayState) else state_for(node)
        return ArrayBox(form, node, state, path)
    if isinstance(node, Variant):
        state = state if isinstance(state, VariantState) else state_for(node)
        return VariantBox(form, node, state, path)
    state = state if isinstance(state, RecursiveState) else state_for(node)
    return RecursiveBox(form, node, state, path)
