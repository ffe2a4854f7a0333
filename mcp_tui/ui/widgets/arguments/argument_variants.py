"""The parts of a tool-arguments tree whose shape is settled while the user fills the form.

A variant (``anyOf``/``oneOf``) shows a picker, itself a select row, and below it the widget of
the choice picked; a part that refers back to itself (a recursive ``$ref``) stays folded behind
an "expand" button until asked for, so a self-referring schema does not build forever. Both build
their inner widget later, through the form's dispatch, and keep what was filled in each choice in
the model's state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from mcp_tui.schema.arguments.nodes import Const, Leaf, Node, Recursive, Variant
from mcp_tui.schema.arguments.state import RecursiveState, VariantState, state_for
from mcp_tui.schema.fields import FieldSpec
from mcp_tui.ui.widgets.arguments.argument_base import ActButton, ErrorLine, NodeBox, title_line
from mcp_tui.ui.widgets.arguments.argument_objects import SectionHeader
from mcp_tui.ui.widgets.form.field_row import FieldRow


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
        return [self.form.node_widget(shown, inner, self.path, headless=True)]

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
            yield self.form.node_widget(state.node, state.inner, self.path, headless=True)
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
        widget = self.form.node_widget(node, state.inner, self.path, headless=True)
        await self.mount(widget)
        self.form.touch(self.path)
        for inner in widget.query("*"):
            if inner.focusable and not isinstance(inner, SectionHeader):
                self.screen.set_focus(inner)
                break
