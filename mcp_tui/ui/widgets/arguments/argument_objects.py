"""An object in a tool-arguments tree: its named properties in a section that folds.

An optional object is folded, and left out of the arguments, until something in it is filled; its
title line says so. A map's extra entries (``additionalProperties``) follow the named properties
(:mod:`argument_maps`). The values live in the model's state, so a folded section loses nothing.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from mcp_tui.schema.arguments.nodes import Node, ObjectNode, Path
from mcp_tui.schema.arguments.state import ArrayState, ObjectState, State, state_for
from mcp_tui.ui.literal import literal
from mcp_tui.ui.widgets.arguments.argument_base import ErrorLine, FormHost, NodeBox, title_line
from mcp_tui.ui.widgets.arguments.argument_maps import MapBox
from mcp_tui.ui.widgets.form.form_fields import DESCRIPTION_LIMIT
from mcp_tui.ui.widgets.text.server_text import ServerText


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
    ObjectBox { border-left: tall $panel-lighten-2; padding: 0 0 0 1; margin: 0 0 1 0; }
    ObjectBox > .section-body { height: auto; }
    ObjectBox > .section-description { color: $text-muted; }
    """

    def __init__(
        self,
        form: FormHost,
        node: Node,
        state: State,
        path: Path,
        *,
        headless: bool = False,
    ) -> None:
        super().__init__(form, node, state, path)
        #: No title line of its own: a list item (under its "#1 ↑ ↓ ✕" bar) or a variant (under
        #: its picker) is never folded.
        self.headless = headless
        self.folded = not headless and not node.required and not given(state)
        self.body = Vertical(classes="section-body")

    def header(self) -> Content:
        arrow = "▸ " if self.folded else "▾ "
        hint = ""
        if not self.node.required and not given(self.state):
            hint = "  (optional: left out until something in it is filled)"
        return Content.assemble(
            (arrow, "bold"), title_line(self.node, "object"), (hint, "$text-muted")
        )

    def compose(self) -> ComposeResult:
        if not self.headless:
            yield SectionHeader(self)
            if self.node.description:
                text = literal(self.node.description, limit=DESCRIPTION_LIMIT)
                yield ServerText(text, classes="section-description")
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
            widgets.append(self.form.node_widget(child, inner, (*self.path, child.name)))
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


def given(state: State) -> bool:
    return not isinstance(state, ObjectState | ArrayState) or state.present
