"""Choose one of a few things: which running call to cancel, which log level to ask for.

A modal list; Enter (or a click) chooses the highlighted entry, Escape chooses nothing. Entries
are ``(key, label)``: the key is ours and is what the screen returns, the label may hold server
text and is shown literally (``Content``, never markup).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.widgets.key_footer import KeyFooter


class PickScreen(ModalScreen[str | None]):
    """``title``, an optional ``note``, and the entries; returns the chosen key or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Close", id="pick.close"),
    ]

    def __init__(
        self,
        title: str,
        entries: Sequence[tuple[str, Content]],
        *,
        current: str | None = None,
        note: str | None = None,
    ) -> None:
        super().__init__(classes="dialog-screen")
        self._title = title
        self._entries = list(entries)
        self._current = current
        self._note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog pick-dialog"):
            yield Label(literal_line(self._title), classes="dialog-title")
            if self._note:
                yield Static(literal(self._note), classes="pick-note")
            yield OptionList(
                *(Option(label, id=key) for key, label in self._entries), id="pick-list"
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        options = self.query_one("#pick-list", OptionList)
        keys = [key for key, _ in self._entries]
        if self._current in keys:
            options.highlighted = keys.index(self._current)
        options.focus()

    @on(OptionList.OptionSelected, "#pick-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        close_wherever(self, event.option.id)

    def action_dismiss_none(self) -> None:
        close_wherever(self)
