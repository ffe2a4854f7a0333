"""One JSON-RPC message full screen, as a foldable tree: read ``requestedSchema`` at 80x24.

Opened by Enter or ``i`` on a traffic row. Enter or Space folds a node, ``e`` / ``E`` unfolds or
folds everything, ``/`` searches keys and values (Enter: the next match), ``c`` copies the whole
message as JSON (OSC 52, as Textual copies), Escape goes back to the traffic.

Every key and value is a server's: labels are literal Rich ``Text`` made by ``literal_text_line``
(control characters visible), never markup.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Input, Static, Tree
from textual.widgets.tree import TreeNode

from mcp_tui.ui.literal import literal_text_line
from mcp_tui.ui.render import pretty_json
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert import InertInput
from mcp_tui.untrusted import json_text

#: Nodes made at most (a huge message stays quick to open; the copy has all of it).
MAX_NODES = 5000


class MessageTreeScreen(ModalScreen[None]):
    """The message ``message`` (``title`` is ours: direction, method, server) as a tree."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="message_tree.close"),
        Binding("slash", "search", "Search", id="message_tree.search"),
        Binding("c", "copy", "Copy JSON", id="message_tree.copy"),
        Binding("e", "expand_all", "Unfold all", id="message_tree.expand"),
        Binding("E", "collapse_all", "Fold all", id="message_tree.collapse"),
    ]

    DEFAULT_CSS = screen_css(__file__)

    def __init__(self, message: dict[str, Any], title: str) -> None:
        super().__init__()
        self.message = message
        self.title_text = title
        self._made = 0
        self._matches: list[TreeNode[None]] = []
        self._match = -1

    def compose(self) -> ComposeResult:
        yield Static(literal_text_line(self.title_text, limit=300), id="message-title")
        tree: Tree[None] = Tree(Text("message"), id="message-tree")
        tree.show_root = False
        self._fill(tree.root, self.message)
        tree.root.expand_all()
        yield tree
        yield InertInput(placeholder="search keys and values", id="message-search", compact=True)
        yield Static(self._status(), id="message-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(Tree).focus()

    def _status(self, note: str = "") -> str:
        cut = f" · first {MAX_NODES:,} nodes (c copies all)" if self._made >= MAX_NODES else ""
        return note or f"Enter/Space fold · e/E unfold/fold all · / search · c copy JSON{cut}"

    def _fill(self, node: TreeNode[None], value: object) -> None:
        items: list[tuple[str, object]]
        if isinstance(value, dict):
            items = [(json.dumps(str(k), ensure_ascii=False), v) for k, v in value.items()]
        elif isinstance(value, list):
            items = [(f"[{i}]", v) for i, v in enumerate(value)]
        else:
            return
        for key, child in items:
            if self._made >= MAX_NODES:
                return
            self._made += 1
            if isinstance(child, (dict, list)):
                size = f"{{{len(child)}}}" if isinstance(child, dict) else f"[{len(child)}]"
                branch = node.add(literal_text_line(f"{key} {size}", limit=300))
                self._fill(branch, child)
            else:
                shown = json.dumps(child, ensure_ascii=False, default=str)
                label = Text.assemble(
                    literal_text_line(key, limit=200, style="bold"),
                    ": ",
                    literal_text_line(shown, limit=2000),
                )
                node.add_leaf(label)

    # --- actions -----------------------------------------------------------------------------

    def action_close(self) -> None:
        if self.has_class("-searching"):
            self.remove_class("-searching")
            self.query_one(Tree).focus()
            return
        self.dismiss(None)

    def action_copy(self) -> None:
        try:  # JSON with each unsafe character as its \uXXXX escape: it parses back the same
            text = json_text(self.message, indent=2)
        except (TypeError, ValueError, RecursionError):
            text = pretty_json(self.message)  # not JSON-able: the clipboard escapes it anyway
        self.app.copy_to_clipboard(text)
        self.query_one("#message-status", Static).update("copied the message as JSON")

    def action_expand_all(self) -> None:
        self.query_one(Tree).root.expand_all()

    def action_collapse_all(self) -> None:
        for child in self.query_one(Tree).root.children:
            child.collapse_all()

    def action_search(self) -> None:
        self.add_class("-searching")
        self.query_one("#message-search", Input).focus()

    @on(Input.Changed, "#message-search")
    def _search_changed(self, event: Input.Changed) -> None:
        event.stop()
        needle = event.value.casefold()
        tree = self.query_one(Tree)
        self._matches = []
        if needle:
            stack = list(reversed(tree.root.children))
            while stack:
                node = stack.pop()
                if needle in str(node.label).casefold():
                    self._matches.append(node)
                stack.extend(reversed(node.children))
        self._match = -1
        self._next_match()

    @on(Input.Submitted, "#message-search")
    def _search_next(self, event: Input.Submitted) -> None:
        event.stop()
        self._next_match()

    def _next_match(self) -> None:
        status = self.query_one("#message-status", Static)
        if not self._matches:
            status.update("no match" if self.query_one("#message-search", Input).value else "")
            return
        self._match = (self._match + 1) % len(self._matches)
        node = self._matches[self._match]
        parent = node.parent
        while parent is not None:
            parent.expand()
            parent = parent.parent
        tree = self.query_one(Tree)
        self.call_after_refresh(tree.move_cursor, node)
        status.update(f"match {self._match + 1} of {len(self._matches)} · Enter: next · Esc: done")
