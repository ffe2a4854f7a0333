"""The traffic view: every JSON-RPC message in and out, with direction, method, id and time.

Traffic can be as fast as the logs, and pretty-printing JSON is not free, so messages are kept in
a bounded backlog and only rendered while the view is shown (in batches, one write per flush).
Responses are labelled with the method of the request they answer.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from mcp_tui.session.events import TrafficRecorded
from mcp_tui.ui.render import clip, pretty_json
from mcp_tui.ui.text import literal_text, literal_text_line

#: Messages rendered per flush at most; a bigger batch shows its newest messages.
BATCH_MESSAGES = 100


def precise_clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at * 1000) % 1000:03d}"


def describe(message: dict[str, Any], methods: dict[tuple[str, object], str], server: str) -> str:
    """ "tools/call request", "tools/call result", "notifications/progress", "error", ..."""
    method = message.get("method")
    msg_id = message.get("id")
    key = (server, msg_id if isinstance(msg_id, (str, int)) else repr(msg_id))
    if isinstance(method, str):
        if msg_id is not None:
            methods[key] = method
            return f"{method} request"
        return method
    answered = methods.pop(key, None)
    kind = "error" if "error" in message else "result"
    return f"{answered} {kind}" if answered else kind


class TrafficView(RichLog):
    """JSON-RPC messages, newest at the bottom; renders only while displayed."""

    def __init__(self, *, backlog: int = 500, id: str | None = None) -> None:
        super().__init__(max_lines=5000, wrap=True, markup=False, highlight=False, id=id)
        self.border_title = "Traffic"
        self._backlog: deque[TrafficRecorded] = deque(maxlen=backlog)
        self._dropped = 0
        self._methods: dict[tuple[str, object], str] = {}
        self.messages_seen = 0

    def add_batch(self, events: Sequence[TrafficRecorded], dropped: int = 0) -> None:
        """Queue messages; render them now if the view is on screen."""
        self.messages_seen += len(events)
        overflow = max(0, len(self._backlog) + len(events) - (self._backlog.maxlen or 0))
        self._dropped += dropped + overflow
        self._backlog.extend(events)
        if self.display:
            self.render_backlog()

    def render_backlog(self) -> None:
        """Draw what arrived while hidden (or since the last flush)."""
        if not self._backlog and not self._dropped:
            return
        events = list(self._backlog)
        self._backlog.clear()
        skipped = max(0, len(events) - BATCH_MESSAGES)
        for event in events[:skipped]:  # keep request→method labels right for later responses
            describe(event.message, self._methods, event.server)
        dropped = self._dropped + skipped
        self._dropped = 0
        text = Text(end="")
        if dropped:
            text.append(f"… {dropped:,} messages not shown (see --log for all)\n", style="yellow")
        for event in events[skipped:]:
            text.append_text(self._message_text(event))
            text.append("\n")
        self.write(text)
        if len(self._methods) > 10_000:  # answers that never came
            self._methods.clear()

    def _message_text(self, event: TrafficRecorded) -> Text:
        arrow, style = ("→ out", "cyan") if event.direction == "out" else ("← in ", "green")
        head = Text(f"{arrow} {precise_clock(event.at)} ", style=style, end="")
        head.append_text(literal_text_line(event.server, limit=30, style="bold"))
        head.append(" ")
        head.append_text(
            literal_text_line(describe(event.message, self._methods, event.server), limit=80)
        )
        msg_id = event.message.get("id")
        if msg_id is not None:
            head.append("  id=")
            head.append_text(literal_text_line(msg_id, limit=40))
        body, cut = clip(pretty_json(event.message), chars=4000, lines=60)
        head.append("\n")
        head.append_text(literal_text(body, limit=None))
        if cut:
            head.append("\n… cut (the --log file has every message in full)", style="italic")
        return head
