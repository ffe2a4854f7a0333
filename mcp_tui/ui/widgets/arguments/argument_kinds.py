"""The ONE dispatch from a node kind of a tool-arguments tree to the widget that shows it.

It sits above every node widget (it imports them all) and below the form, which hands it to the
containers through :meth:`FormHost.node_widget <mcp_tui.ui.widgets.arguments.argument_base.FormHost.
node_widget>`: an object, a list, a map, a variant or a recursive part builds its inner widgets
here without importing the widgets of the other kinds.
"""

from __future__ import annotations

from textual.widget import Widget

from mcp_tui.schema.arguments.nodes import (
    ArrayNode,
    Const,
    JsonValue,
    Leaf,
    Node,
    ObjectNode,
    Path,
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
from mcp_tui.ui.widgets.arguments.argument_base import FormHost
from mcp_tui.ui.widgets.arguments.argument_leaves import ConstBox, LeafBox
from mcp_tui.ui.widgets.arguments.argument_lists import ArrayBox
from mcp_tui.ui.widgets.arguments.argument_objects import ObjectBox
from mcp_tui.ui.widgets.arguments.argument_variants import RecursiveBox, VariantBox


def node_widget(
    form: FormHost, node: Node, state: State, path: Path, *, headless: bool = False
) -> Widget:
    """The widget of ``node`` (the state is made fresh if it is of another shape, which only a
    defect could cause). ``headless``: an object shown without a title line of its own (see
    :class:`~mcp_tui.ui.widgets.arguments.argument_objects.ObjectBox`)."""
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
