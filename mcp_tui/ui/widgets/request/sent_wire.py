"""The wire, after Ctrl+S: the answer as it went out, on the session screen.

The wire panel (``wire_panel.py``) shows, while a form is open, what Ctrl+S *would* send; the
form then closes and takes the panel with it. For a demo the last beat is the message itself:
while the wire is shown (F6, remembered for the session), the session screen keeps a small
panel, above the transcript, with the message that carried the answer, taken from the traffic
as it was sent (never rebuilt from the form):

- 2025-11-25: the JSON-RPC response to the ``elicitation/create`` (its ``id`` is the request's);
- 2026-07-28: the repeated ``tools/call`` whose ``inputResponses`` holds the request's key.

The panel is small (a few lines at 80x24): it scrolls to the part that carries the answer, the
``inputResponses`` of the repeated call (the ``result`` of a response is at its top anyway).

It stays until the next answer replaces it, or the wire is hidden. Every string in it came from
a server or the person: written with :func:`~mcp_tui.untrusted.json_text` into literal
``Content``, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import TrafficRecorded
from mcp_tui.untrusted import json_text, one_line

#: Longest JSON shown (characters); the traffic view has the whole message.
MAX_CHARS = 4_000
#: Refreshes the scroll to ``inputResponses`` waits at most for the panel's new layout.
LAYOUT_TRIES = 5


def carries_answer(request: ElicitationRequest, event: TrafficRecorded) -> bool:
    """True when ``event`` is the message that sent the answer to ``request``."""
    key = request.request_key
    if event.direction != "out" or event.server != request.server or key is None:
        return False
    message = event.message
    if "method" not in message:  # 2025-11-25: the response to elicitation/create
        return message.get("id") == key and "result" in message
    if message.get("method") != "tools/call":
        return False
    params = message.get("params")
    responses = params.get("inputResponses") if isinstance(params, dict) else None
    return isinstance(responses, dict) and key in responses


def sent_title(message: dict[str, Any]) -> str:
    if "method" in message:
        return "→ sent: tools/call again, the answer in inputResponses (as it went out)"
    return f"→ sent: the response to elicitation/create #{one_line(str(message.get('id')))}"


class SentWire(VerticalScroll, can_focus=False):
    """The message that carried the last answer (see the module docstring)."""

    DEFAULT_CSS = """
    SentWire {
        height: auto; max-height: 40%; border: round $primary; border-title-color: $text-muted;
        padding: 0 1; scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.message: dict[str, Any] | None = None
        self._text = ""

    def compose(self) -> Any:
        yield Static(Content(""), id="sent-json")

    def show(self, message: dict[str, Any]) -> None:
        self.message = message
        self.border_title = Content(sent_title(message))  # literal: the id is the server's
        # A small screen gets the message on as few lines as it wraps to: all of it in view.
        small = self.screen.has_class("-compact") if self.is_attached else False
        text = json_text(message) if small else json_text(message, indent=2)
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS] + "\n… cut (the traffic view, t, has the whole message)"
        self._text = text
        self.query_one("#sent-json", Static).update(Content(text))
        self.display = True
        self.scroll_home(animate=False)
        self.call_after_refresh(self._scroll_to_answer, message, LAYOUT_TRIES)

    def _scroll_to_answer(self, message: dict[str, Any], tries: int) -> None:
        """Bring the line where the answer starts to the top (see the module docstring). The
        panel was just shown, or its text replaced: until it is laid out at its new size there
        is no width to wrap at and nothing to scroll, so it waits for the next refresh (a few at
        most) rather than scrolling to a place that does not exist yet."""
        if message is not self.message or "method" not in message or not self.is_attached:
            return
        shown = self.query_one("#sent-json", Static)
        width = shown.content_region.width
        lines = Content(self._text).wrap(width) if width > 0 else []
        mark = '"inputResponses"'
        found = next((i for i, line in enumerate(lines) if mark in line.plain), None)
        if found is None and width > 0:
            return  # not in the text (cut: the traffic view has it)
        if found is None or self.max_scroll_y < min(found, len(lines) - self.size.height):
            if tries > 1:
                self.call_after_refresh(self._scroll_to_answer, message, tries - 1)
            return
        self.scroll_to(y=found, animate=False)

    def plain(self) -> str:
        return str(self.query_one("#sent-json", Static).render())


class SentWatch:
    """The session screen's part: which answer to look for in the traffic, and its panel."""

    def __init__(self) -> None:
        self.expected: ElicitationRequest | None = None
        self.panel: SentWire | None = None

    def expect(self, request: ElicitationRequest, recent: Iterable[TrafficRecorded]) -> None:
        """An answer was given while the wire is shown: look for the message that carries it
        (in ``recent`` traffic first, in case it was flushed before this)."""
        self.expected = request
        self.look(recent)

    def look(self, traffic: Iterable[TrafficRecorded]) -> None:
        request = self.expected
        if request is None or self.panel is None:
            return
        for event in traffic:
            if carries_answer(request, event):
                self.expected = None
                self.panel.show(event.message)
                return

    def hide(self) -> None:
        self.expected = None
        if self.panel is not None:
            self.panel.display = False
