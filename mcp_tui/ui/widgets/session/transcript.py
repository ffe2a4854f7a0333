"""The transcript: every call, result, elicitation and notice, newest at the bottom.

A ``ListView`` of bounded entries: arrow keys move between entries and Enter opens the highlighted
one in full (``Transcript.DetailRequested``). Entries are added in batches (one mount per flush)
and the oldest are removed past :attr:`Transcript.limit`, so a flood cannot grow it without end.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import ListItem, ListView, Static

from mcp_tui.ui.messages import EntryDetailRequested
from mcp_tui.ui.render import Entry, repeated_entry
from mcp_tui.ui.widgets.text.server_text import ServerText


class TranscriptItem(ListItem):
    """One entry; keeps the :class:`Entry` so the full text stays reachable.

    mcp-tui's words are one ``Static`` per run; what the server wrote (a tool's result, its
    error message, a request's message) is in the server's region, a :class:`ServerText`.
    """

    def __init__(self, entry: Entry) -> None:
        if entry.blocks:
            parts: list[Widget] = [
                ServerText(b.content, classes="entry-server")
                if b.server
                else Static(b.content, classes="entry-body")
                for b in entry.blocks
            ]
        else:
            parts = [Static(entry.summary, classes="entry-body")]
        super().__init__(*parts, classes=f"entry-{entry.kind}")
        self.entry = entry
        self._body = parts[0]
        self.first = entry
        #: How many times an entry with this ``collapse`` key arrived (``Entry.collapse``).
        self.count = 1

    def repeat(self) -> None:
        """The same entry again: one more in the count, the time now."""
        self.count += 1
        self.entry = repeated_entry(self.first, self.count, time.time())
        if isinstance(self._body, Static):  # a collapsible entry is one run of mcp-tui's words
            self._body.update(self.entry.summary)


class Transcript(ListView):
    """Calls and their results; Enter shows the highlighted entry in full."""

    #: The user asked to see an entry in full (Enter on it).
    DetailRequested = EntryDetailRequested

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Full text", id="transcript.full_text"),
    ]

    def __init__(self, *, limit: int = 500, id: str | None = None) -> None:
        super().__init__(id=id)
        self.limit = limit
        #: How many old entries were removed to respect :attr:`limit`.
        self.dropped = 0
        self._items: deque[TranscriptItem] = deque()

    @property
    def entries(self) -> list[Entry]:
        """The entries currently in the transcript, oldest first."""
        return [item.entry for item in self._items]

    def add_entries(self, entries: Iterable[Entry]) -> None:
        """Append entries at once; follow the newest entry unless the user moved away from it."""
        new = [entry for entry in entries if not self._repeated(entry)][-self.limit :]
        if not new:
            return
        following = self.index is None or self.index >= len(self._items) - 1
        excess = len(self._items) + len(new) - self.limit
        if excess > 0:
            old = [self._items.popleft() for _ in range(excess)]
            self.dropped += excess
            self.remove_children(old)
            if not following:
                self.call_after_refresh(self._shift_index, excess)
        items = [TranscriptItem(entry) for entry in new]
        self._items.extend(items)
        self.mount(*items)
        if following:
            self.call_after_refresh(self._follow)

    def _repeated(self, entry: Entry) -> bool:
        """Counted into an entry already shown with the same ``collapse`` key?"""
        if not entry.collapse:
            return False
        for item in reversed(self._items):
            if item.entry.collapse == entry.collapse:
                item.repeat()
                return True
        return False

    def _shift_index(self, removed: int) -> None:
        if self.index is not None:
            self.index = max(0, self.index - removed)

    def _follow(self) -> None:
        if self.children:
            self.index = len(self.children) - 1
            self.scroll_end(animate=False)

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        event.stop()
        item = event.item
        if isinstance(item, TranscriptItem):
            self.post_message(self.DetailRequested(item.entry))

    @property
    def last(self) -> Entry | None:
        return self._items[-1].entry if self._items else None
