"""The sidebar tree: each server with its state, then its tools, prompts, resources and templates.

Labels are Rich ``Text`` built from :mod:`mcp_tui.ui.literal` (the ``Tree`` widget parses a ``str``
label as markup, so a server string never reaches it as ``str``). A server's subtree is touched
only when its state or catalog changed, keeping which groups were open and where the cursor was.
When only the lists changed (a ``list_changed``, a refresh) the groups are patched, not rebuilt:
the new list is diffed with the nodes shown and only added, removed and changed items touch the
tree. Rebuilding 3,000 tools on every ``list_changed`` froze keys for up to a second.
"""

from __future__ import annotations

import time
from difflib import SequenceMatcher
from typing import ClassVar, Literal

from msgspec import Struct
from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode, UnknownNodeID

from mcp_tui.session.events import ConnectionState, PromptInfo, ResourceInfo, ToolInfo
from mcp_tui.ui.literal import literal_text_line
from mcp_tui.ui.server_state import ServerEntry

NodeKind = Literal["server", "group", "tool", "prompt", "resource", "template", "problem"]
Item = ToolInfo | PromptInfo | ResourceInfo

STATE_STYLE = {
    ConnectionState.CONNECTING: "yellow",
    ConnectionState.READY: "green",
    ConnectionState.FAILED: "red",
    ConnectionState.CLOSED: "bright_black",
}
STATE_MARK = {
    ConnectionState.CONNECTING: "◌",
    ConnectionState.READY: "●",
    ConnectionState.FAILED: "✗",
    ConnectionState.CLOSED: "○",
}


class NodeRef(Struct, frozen=True):
    """What a tree node stands for; ``item`` is set for tools, prompts and resources."""

    kind: NodeKind
    server: str
    item: Item | None = None
    group: str = ""
    #: A resource's marks as shown (``updated``, ``subscribed``): a change redraws its label.
    marks: tuple[bool, bool] = (False, False)

    @property
    def key(self) -> tuple[str, str, str]:
        """Identifies the node across rebuilds (for restoring the cursor)."""
        name = ""
        if isinstance(self.item, ResourceInfo):
            name = self.item.uri
        elif self.item is not None:
            name = self.item.name
        return (self.kind, self.group, name)


def item_label(item: Item, *, describe: bool = True) -> Text:
    """``title or name`` then the first words of the description, dimmed."""
    shown = (item.name or item.uri) if isinstance(item, ResourceInfo) else (item.title or item.name)
    label = literal_text_line(shown, limit=60)
    description = item.description
    if describe and description:
        label.append("  ")
        label.append_text(literal_text_line(description, limit=80, style="dim"))
    return label


def server_label(entry: ServerEntry, now: float | None = None) -> Text:
    """ "● demo  ready", "◌ demo  connecting 12 s", "✗ demo  failed · R retries"."""
    style = STATE_STYLE[entry.state]
    label = Text(STATE_MARK[entry.state] + " ", style=style, end="")
    label.append_text(literal_text_line(entry.shown_name, limit=40, style="bold"))
    label.append(f"  {entry.state.value}", style=style)
    if entry.state is ConnectionState.CONNECTING:
        elapsed = int((time.monotonic() if now is None else now) - entry.since)
        if elapsed >= 1:
            label.append(f" {elapsed} s", style=style)
    elif entry.state in (ConnectionState.FAILED, ConnectionState.CLOSED):
        label.append(" · R retries", style="italic")
    if entry.paused:
        label.append(
            "  not asking" + (" (too many requests)" if entry.paused_by_limit else ""),
            style="yellow",
        )
    return label


#: What Enter does on each kind of node, as the footer and the help screen say it.
_ENTER_ACTIONS: dict[str, NodeKind | None] = {
    "enter_call": "tool",
    "enter_get": "prompt",
    "enter_read": "resource",
    "enter_fill": "template",
    "enter_toggle": None,
}


def _resource_marks(shown: tuple[bool, bool], label: Text) -> Text:
    """``updated`` (since last read) and ``subscribed`` before a resource's name."""
    updated, subscribed = shown
    marks = Text(end="")
    if updated:
        marks.append("updated ", style="yellow bold")
    if subscribed:
        marks.append("subscribed ", style="cyan")
    return Text.assemble(marks, label, end="") if marks else label


Group = tuple[str, NodeKind, tuple[Item, ...]]


def _groups(entry: ServerEntry) -> list[Group]:
    """The groups a server shows, in order: only those with items."""
    resources = tuple(r for r in entry.resources if not r.template)
    templates = tuple(r for r in entry.resources if r.template)
    groups: list[Group] = [
        ("tools", "tool", entry.tools),
        ("prompts", "prompt", entry.prompts),
        ("resources", "resource", resources),
        ("templates", "template", templates),
    ]
    return [group for group in groups if group[2]]


def _group_label(group: str, items: tuple[Item, ...]) -> Text:
    return Text(f"{group.capitalize()} ({len(items)})", style="bold", end="")


def _leaf_ref(entry: ServerEntry, kind: NodeKind, item: Item, group: str) -> NodeRef:
    if isinstance(item, ResourceInfo) and kind == "resource":
        marks = (item.uri in entry.updated, item.uri in entry.subscribed)
        return NodeRef(kind, entry.name, item, group, marks)
    return NodeRef(kind, entry.name, item, group)


def _leaf_label(ref: NodeRef) -> Text:
    assert ref.item is not None
    label = item_label(ref.item)
    if ref.kind == "resource":
        label = _resource_marks(ref.marks, label)
    return label


#: Above this many added and removed leaves a group is rebuilt rather than patched leaf by leaf
#: (each insertion or removal is a list operation on the group's children).
PATCH_LIMIT = 500


def _patch_leaves(group_node: TreeNode[NodeRef], refs: list[NodeRef]) -> set[int]:
    """Make ``group_node``'s leaves show ``refs``: kept leaves whose item changed get the new data
    and label, added ones are inserted where the list has them, removed ones go. Returns the ids
    of the nodes removed."""
    children = list(group_node.children)
    old_keys = [child.data.key if child.data is not None else None for child in children]
    new_keys = [ref.key for ref in refs]
    opcodes: list[tuple[str, int, int, int, int]]
    if old_keys == new_keys:
        opcodes = [("equal", 0, len(children), 0, len(refs))]
    else:
        opcodes = list(SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes())
        changes = sum(i2 - i1 + j2 - j1 for tag, i1, i2, j1, j2 in opcodes if tag != "equal")
        if changes > PATCH_LIMIT:
            opcodes = [("replace", 0, len(children), 0, len(refs))]
    removed: set[int] = set()
    for tag, i1, i2, j1, j2 in reversed(opcodes):  # from the end: earlier indices stay valid
        if tag == "equal":
            for child, ref in zip(children[i1:i2], refs[j1:j2], strict=True):
                if child.data != ref:
                    child.data = ref
                    child.set_label(_leaf_label(ref))
            continue
        for child in children[i1:i2]:
            removed.add(child.id)
            child.remove()
        for offset, ref in enumerate(refs[j1:j2]):
            group_node.add_leaf(_leaf_label(ref), ref, before=i1 + offset)
    return removed


class CatalogTree(Tree[NodeRef]):
    """Servers and what they offer; Enter on an item posts ``Tree.NodeSelected``.

    Enter is one key with one label per kind of node ("Call" on a tool, "Get" on a prompt, ...):
    :meth:`check_action` shows the one for the node under the cursor, so the footer always says
    what Enter will do.
    """

    # Enter's five meanings share one id: a ``[keys]`` entry moves them together (a keymap
    # drops a key's bindings of other ids).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "enter_call", "Call", id="catalog.call",
                tooltip="On a tool: call it (its arguments asked first, if it takes any)"),
        Binding("enter", "enter_get", "Get prompt", id="catalog.call",
                tooltip="On a prompt: fill in its arguments and show its messages"),
        Binding("enter", "enter_read", "Read", id="catalog.call",
                tooltip="On a resource: read it"),
        Binding("enter", "enter_fill", "Fill in & read", id="catalog.call",
                tooltip="On a template: fill in its variables and read the resource"),
        Binding("enter", "enter_toggle", "Open/close", id="catalog.call",
                tooltip="On a server or a group: open or close it"),
        Binding("e", "tool_dialog", "Dialog", id="catalog.dialog",
                tooltip="On a tool without arguments: open its call dialog (run as a task, JSON)"),
        Binding("space", "toggle_node", "Open/close a group", show=False, id="catalog.space"),
    ]  # fmt: skip

    class DialogRequested(Message):
        """``e`` on a tool that takes no arguments: open its call dialog all the same."""

        def __init__(self, ref: NodeRef) -> None:
            super().__init__()
            self.ref = ref

    def __init__(self, *, id: str | None = None) -> None:
        #: The kind of node Enter's label was last shown for (set before Tree's watchers run).
        self._enter_kind: tuple[NodeKind | None, bool] | None = None
        #: Per node id, the label last measured and its width (:meth:`get_label_width`).
        self._widths: dict[int, tuple[object, int]] = {}
        super().__init__(Text("servers"), id=id)  # a str label would be parsed as markup
        self.show_root = False
        self.guide_depth = 2
        self._server_nodes: dict[str, TreeNode[NodeRef]] = {}
        self._shown: dict[str, tuple[object, ...]] = {}
        #: Per server, what its subtree's shape was built from: the problem line and the groups.
        self._shapes: dict[str, tuple[object, ...]] = {}

    def get_label_width(self, node: TreeNode[NodeRef]) -> int:
        """The label's width without rendering it, measured once per label.

        Textual sizes the scroll area from every line's width after any change to the tree, and
        its own measure renders each label: half a second for 3,000 tools. Measuring the text is
        cheaper, and remembering the width of each node's label (a label is replaced, never
        changed in place: ``set_label``) leaves a refresh only the labels it changed.
        """
        icon = ""
        if node.allow_expand:
            icon = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
        label = node.label
        known = self._widths.get(node.id)
        if known is not None and known[0] is label:
            return cell_len(icon) + known[1]
        width = label.cell_len if isinstance(label, Text) else cell_len(label)
        if len(self._widths) > 2 * len(self._tree_nodes) + 100:  # forget removed nodes
            self._widths = {
                key: value for key, value in self._widths.items() if key in self._tree_nodes
            }
        self._widths[node.id] = (label, width)
        return cell_len(icon) + width

    def _kind_under_cursor(self) -> NodeKind | None:
        ref = self.current
        if ref is None or ref.kind not in ("tool", "prompt", "resource", "template"):
            return None
        return ref.kind

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in _ENTER_ACTIONS:
            return _ENTER_ACTIONS[action] == self._kind_under_cursor()
        if action == "tool_dialog":
            return self._dialog_under_cursor() is not None
        return True

    def _dialog_under_cursor(self) -> NodeRef | None:
        """The tool under the cursor when Enter calls it without a dialog (it takes nothing)."""
        ref = self.current
        if ref is None or ref.kind != "tool" or not isinstance(ref.item, ToolInfo):
            return None
        from mcp_tui.schema.no_arguments import takes_no_arguments  # lazy: not in the first frame

        return ref if takes_no_arguments(ref.item.input_schema) else None

    def action_tool_dialog(self) -> None:
        ref = self._dialog_under_cursor()
        if ref is not None:
            self.post_message(self.DialogRequested(ref))

    def watch_cursor_line(self, previous_line: int, line: int) -> None:
        super().watch_cursor_line(previous_line, line)
        kind = self._kind_under_cursor()
        kind_key = (kind, self._dialog_under_cursor() is not None)
        if kind_key != self._enter_kind:
            self._enter_kind = kind_key
            self.refresh_bindings()  # the footer says what Enter does here

    def _enter(self) -> None:
        self.action_select_cursor()

    def action_enter_call(self) -> None:
        self._enter()

    def action_enter_get(self) -> None:
        self._enter()

    def action_enter_read(self) -> None:
        self._enter()

    def action_enter_fill(self) -> None:
        self._enter()

    def action_enter_toggle(self) -> None:
        self._enter()

    def update_server(self, entry: ServerEntry) -> None:
        """Add or refresh one server's subtree, if anything it shows changed."""
        signature = (
            entry.state,
            entry.detail,
            entry.paused,
            entry.catalog_version,
            entry.marks_version,
        )
        node = self._server_nodes.get(entry.name)
        if node is not None and self._shown.get(entry.name) == signature:
            return
        self._shown[entry.name] = signature
        if node is None:
            node = self.root.add(server_label(entry), NodeRef("server", entry.name), expand=True)
            self._server_nodes[entry.name] = node
            if len(self._server_nodes) == 1:
                self.call_after_refresh(self._cursor_to_start)
        else:
            node.set_label(server_label(entry))
        self._fill(node, entry)

    def _fill(self, node: TreeNode[NodeRef], entry: ServerEntry) -> None:
        cursor = self.cursor_node
        cursor_key = None
        if cursor is not None and cursor.data is not None and cursor.data.server == entry.name:
            cursor_key = cursor.data.key
        groups = _groups(entry)
        problem = entry.detail if entry.state is ConnectionState.FAILED else None
        shape = (problem, tuple(group for group, _, _ in groups))
        if node.children and self._shapes.get(entry.name) == shape:
            restore = self._patch(node, entry, groups, cursor if cursor_key else None)
        else:
            self._shapes[entry.name] = shape
            restore = self._rebuild(node, entry, groups, problem, cursor_key)
        if cursor_key is not None:
            target = restore if restore is not None else node
            self.call_after_refresh(self._restore_cursor, target)

    def _rebuild(
        self,
        node: TreeNode[NodeRef],
        entry: ServerEntry,
        groups: list[Group],
        problem: str | None,
        cursor_key: tuple[str, str, str] | None,
    ) -> TreeNode[NodeRef] | None:
        """Replace the server's subtree; the node to put the cursor back on, if it is there."""
        open_groups = {
            child.data.group
            for child in node.children
            if child.data is not None and child.data.kind == "group" and child.is_expanded
        }
        first_fill = not node.children
        node.remove_children()
        server = entry.name
        restore: TreeNode[NodeRef] | None = None
        if problem:
            node.add_leaf(
                literal_text_line(problem, limit=120, style="red"), NodeRef("problem", server)
            )
        for group, kind, items in groups:
            expand = group in open_groups or (first_fill and group == "tools")
            group_node = node.add(
                _group_label(group, items), NodeRef("group", server, group=group), expand=expand
            )
            for item in items:
                ref = _leaf_ref(entry, kind, item, group)
                leaf = group_node.add_leaf(_leaf_label(ref), ref)
                if cursor_key is not None and ref.key == cursor_key:
                    restore = leaf
        return restore

    def _patch(
        self,
        node: TreeNode[NodeRef],
        entry: ServerEntry,
        groups: list[Group],
        cursor: TreeNode[NodeRef] | None,
    ) -> TreeNode[NodeRef] | None:
        """Bring each group's leaves in line with the new lists, touching only what changed;
        the node to put the cursor back on (``cursor`` unless it was removed)."""
        by_group = {
            child.data.group: child
            for child in node.children
            if child.data is not None and child.data.kind == "group"
        }
        removed: set[int] = set()
        for group, kind, items in groups:
            group_node = by_group[group]
            label = _group_label(group, items)
            if label != group_node.label:
                group_node.set_label(label)
            refs = [_leaf_ref(entry, kind, item, group) for item in items]
            removed |= _patch_leaves(group_node, refs)
        if cursor is not None and cursor.id in removed:
            return None
        return cursor

    def _cursor_to_start(self) -> None:
        if self.cursor_line < 0:
            self.cursor_line = 0

    def _restore_cursor(self, node: TreeNode[NodeRef]) -> None:
        try:
            self.get_node_by_id(node.id)
        except UnknownNodeID:
            return  # rebuilt again meanwhile
        line = self.cursor_line
        self.move_cursor(node, animate=False)
        if self.cursor_line == line:
            # The same line as before the rebuild: Textual posts no highlight event, yet the
            # node under the cursor is a new one, perhaps a new definition of the item (a
            # --watch restart, a list_changed): say so, for the info panel.
            self.post_message(self.NodeHighlighted(node))

    def relabel_server(self, entry: ServerEntry) -> None:
        """Redraw one server's line only (the seconds of "connecting 12 s")."""
        node = self._server_nodes.get(entry.name)
        if node is not None:
            node.set_label(server_label(entry))

    def select_server(self, server: str) -> None:
        node = self._server_nodes.get(server)
        if node is not None:
            self.move_cursor(node, animate=False)

    @property
    def current(self) -> NodeRef | None:
        node = self.cursor_node
        return None if node is None else node.data
