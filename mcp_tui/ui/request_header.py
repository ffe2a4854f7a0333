"""The header line the request screens (a form, a URL consent, sampling) show: who asks, who waits.

"Server *name* asks for input during tool call *tool*   (2 more waiting)": the server's name is
our own (from the config or the command line), the tool name is the server's and shown as
literal text. The handler updates the waiting count as requests queue behind the one shown.

A part each request screen holds (``screen.header``), not a mixin: it owns its ``Static`` and its
count, so the screen's ``self`` stays the screen, and the line (``ui/app/request_line``) finds the
header to update without knowing which screen is showing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.shown_names import shown_name

if TYPE_CHECKING:
    from mcp_tui.session.elicitation import ElicitationRequest
    from mcp_tui.session.sampling import SamplingRequest


class RequestHeader:
    """The header of one server request: the ``Static`` a screen composes, and its count."""

    def __init__(
        self, request: ElicitationRequest | SamplingRequest, asks: str, *, waiting: int, id: str
    ) -> None:
        """``asks`` is the screen's own constant words after the server's name (" asks for
        input"); the request's tool and task are the server's, shown as literal text."""
        self.server = request.server
        self.asks = asks
        self.tool = request.tool
        self.task = request.related_task
        self._waiting = waiting
        #: The widget the screen composes (its id is the screen's, for its CSS).
        self.static = Static(self.content(), id=id)

    def content(self) -> Content:
        """Who asks (our own name for the server), for which tool call, and what else waits."""
        parts = [
            Content("Server "),
            literal_line(shown_name(self.server), limit=60, style="bold"),
        ]
        parts.append(Content(self.asks))
        if self.tool:
            parts += [Content(" during tool call "), literal_line(self.tool, limit=60)]
        if self.task:
            parts += [Content(" (task "), literal_line(self.task, limit=40), Content(")")]
        if self._waiting > 0:
            parts.append(Content.styled(f"   ({self._waiting} more waiting)", "$text-warning"))
        return Content("").join(parts)

    @property
    def waiting(self) -> int:
        return self._waiting

    def set_waiting(self, waiting: int) -> None:
        """Show how many more requests are queued behind this one."""
        self._waiting = waiting
        if self.static.is_mounted:
            self.static.update(self.content())
