"""The header line the request screens (a form, a URL consent, sampling) show: who asks, who waits.

"Server *name* asks for input during tool call *tool*   (2 more waiting)": the server's name is
our own (from the config or the command line), the tool name is the server's and shown as
literal text. The handler updates the waiting count as requests queue behind the one shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.shown_names import shown_name

if TYPE_CHECKING:
    _ScreenBase = Screen[Any]
else:
    _ScreenBase = object  # a mixin: the real Screen class comes later in the bases


class AskingRequest(Protocol):
    """What the header needs of a request (an elicitation or a sampling request)."""

    @property
    def server(self) -> str: ...

    @property
    def tool(self) -> str | None: ...


class RequestHeader(_ScreenBase):
    """Mixin for a screen that shows one server request (put it before ``Screen``)."""

    #: The id of the header ``Static`` (composed by the screen itself).
    HEADER_ID: ClassVar[str]
    request: AskingRequest
    _waiting: int

    def asks(self) -> str:
        """What the server asks for, after "Server *name*" (" asks for input")."""
        raise NotImplementedError

    def header_content(self) -> Content:
        """Who asks (our own name for the server), for which tool call, and what else waits."""
        parts = [
            Content("Server "),
            literal_line(shown_name(self.request.server), limit=60, style="bold"),
        ]
        parts.append(Content(self.asks()))
        if self.request.tool:
            parts += [Content(" during tool call "), literal_line(self.request.tool, limit=60)]
        task = getattr(self.request, "related_task", None)
        if task:
            parts += [Content(" (task "), literal_line(task, limit=40), Content(")")]
        if self._waiting > 0:
            parts.append(Content.styled(f"   ({self._waiting} more waiting)", "$text-warning"))
        return Content("").join(parts)

    @property
    def waiting(self) -> int:
        return self._waiting

    def set_waiting(self, waiting: int) -> None:
        """Show how many more requests are queued behind this one."""
        self._waiting = waiting
        if self.is_mounted:
            self.query_one(f"#{self.HEADER_ID}", Static).update(self.header_content())
