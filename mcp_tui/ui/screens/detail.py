"""The full text of a transcript entry or catalog item, made visible, selectable and copyable.

Inline views are bounded; this is where the rest is reachable. The text goes through
:func:`mcp_tui.untrusted.visible` (control characters shown as escapes) into a read-only
``TextArea``, which never parses markup; only its size is capped, generously.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, TextArea

from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert_area import InertTextArea
from mcp_tui.untrusted import visible

#: Characters shown at most in the detail view (a 30 MB result stays usable).
DETAIL_LIMIT = 1_000_000


class DetailScreen(ModalScreen[None]):
    """Shows ``text`` in full; Escape closes, Ctrl+C copies the selection (or everything)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="detail.close"),
        # priority: the focused (read-only) TextArea takes Ctrl+Y as its redo otherwise
        Binding("ctrl+y", "copy_all", "Copy all", priority=True, id="detail.copy_all"),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(classes="dialog-screen")
        self._title = title
        self._text = visible(text, limit=DETAIL_LIMIT)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog detail-dialog"):
            yield Label(literal_line(self._title, limit=150), classes="dialog-title")
            yield InertTextArea(
                self._text,
                read_only=True,
                soft_wrap=True,
                show_line_numbers=False,
                id="detail-text",
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_copy_all(self) -> None:
        self.app.copy_to_clipboard(self._text)
        self.notify("Copied to the clipboard", timeout=2)

    @property
    def text(self) -> str:
        return self._text
