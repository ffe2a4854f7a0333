"""The scalar widgets of a tool-arguments tree: a value typed in a row, or a fixed value shown.

A scalar is the flat form's own :class:`~mcp_tui.ui.widgets.form.field_row.FieldRow` (same controls,
labels, rules and inline errors), writing its raw value into the model's state
(:mod:`mcp_tui.schema.arguments.state`) as the user edits, so nothing lives only in a widget. A
value the form cannot break down (free JSON) is a text row of JSON; a ``const`` is shown, not
edited.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Static

from mcp_tui.schema.arguments.nodes import JsonValue, Leaf, Path
from mcp_tui.schema.arguments.state import JsonState, LeafState
from mcp_tui.schema.fields import FieldKind, FieldSpec, RawValue
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.widgets.arguments.argument_base import FormHost, NodeBox, title_line
from mcp_tui.ui.widgets.form.field_row import FieldRow
from mcp_tui.ui.widgets.form.form_controls import TextControl


class LeafRow(FieldRow):
    """A scalar: the flat form's row, writing its raw value into the state as the user edits."""

    def __init__(
        self, form: FormHost, spec: FieldSpec, raw: Any, path: Path, *, example: str | None
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
        """Whether the row holds something else than the state. Blank is blank: the list editor
        always shows one (empty) item and a text box reads "" where the state holds None, and
        neither means something was typed (reading the form for a refused Ctrl+S must not make
        Escape ask about a form nobody touched)."""
        raw = row.get_raw()
        if isinstance(self.state, LeafState):
            return _unblank(self.state.raw) != _unblank(raw)
        return isinstance(self.state, JsonState) and self.state.text != raw

    def store(self, row: FieldRow) -> None:
        raw = row.get_raw()
        if isinstance(self.state, LeafState):
            self.state.raw = raw
        elif isinstance(self.state, JsonState):
            self.state.text = raw if isinstance(raw, str) else ""


def _unblank(raw: RawValue) -> RawValue:
    """``raw`` with blank list rows dropped, and None for nothing at all."""
    if isinstance(raw, list):
        raw = [row for row in raw if row != ""]
    return raw if raw not in ("", []) else None


class ConstBox(NodeBox):
    """A fixed value: shown, not editable."""

    def compose(self) -> ComposeResult:
        value = json.dumps(getattr(self.node, "value", None), ensure_ascii=False)
        line = Content.assemble(title_line(self.node, "value"), ("  ", ""), ("= ", "$text-muted"))
        yield Static(line + literal_line(value, limit=200), classes="const-line")
