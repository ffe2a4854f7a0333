"""The "waiting for completion" rows: accepted URL requests the server has not finished yet.

One line per wait, oldest first: which server and call, the destination host, and the time left
before mcp-tui stops waiting (every wait is bounded). The footer's keys act on the oldest wait
(``d`` the page is done, ``g`` give up); the command palette offers both for each wait. Empty
(zero height) when nothing waits. Redrawn once a second for the countdown, and when the registry
changes.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.url_waits import UrlWait, UrlWaits

#: Rows shown at most; the rest are counted.
SHOWN = 3


def countdown(seconds: float) -> str:
    whole = int(seconds + 0.999)
    return f"{whole // 60}:{whole % 60:02d}"


def wait_line(wait: UrlWait, now: float) -> Content:
    # The time left first: on a narrow screen the end of the line is cut, never the bound.
    parts = [
        Content.styled("◌ ", "bold $warning"),
        Content.styled(f"{countdown(wait.remaining(now))} left", "$text-muted"),
        Content(" · "),
        literal_line(wait.subject, limit=40, style="bold"),
        Content(": waiting for "),
        literal_line(wait.host, limit=60, style="$text-accent"),
        Content(" to finish"),
    ]
    return Content("").join(parts)


class UrlWaitsPanel(Static):
    """Shows the open waits of a :class:`UrlWaits` registry (see the module docstring)."""

    def __init__(self, waits: UrlWaits, *, id: str | None = None) -> None:
        super().__init__(Content(""), id=id)
        self.waits = waits
        self._shown: tuple[int, int] | None = None

    def on_mount(self) -> None:
        self.display = False
        self.set_interval(1.0, self.redraw, name="url-wait-countdown")
        self.redraw()

    def redraw(self, *, force: bool = False) -> None:
        """Show the current waits (cheap when nothing changed and nothing waits)."""
        open_waits = self.waits.waiting
        now = self.waits.now()
        stamp = (self.waits.version, int(now))
        if not force and not open_waits and self._shown is not None and not self.display:
            return
        if not force and stamp == self._shown:
            return
        self._shown = stamp
        self.display = bool(open_waits)
        if not open_waits:
            return
        lines = [wait_line(w, now) for w in open_waits[:SHOWN]]
        if len(open_waits) > SHOWN:
            lines.append(
                Content.styled(f"  … {len(open_waits) - SHOWN} more waiting", "$text-muted")
            )
        self.update(Content("\n").join(lines))
