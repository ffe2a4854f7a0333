"""The cyclic garbage collector waits while a form is being built, until it has been painted.

Building an elicitation form allocates tens of thousands of objects (widgets, styles, strips) that
all survive: every 700 allocations the collector walks the young ones, every ten of those the
middle generation (2-9 ms each, several per form), and now and then the whole heap (80-150 ms
measured with a session open). Landing between an elicitation's arrival and its first frame, that
work made the form appear later, and more so the bigger the form. Held, it runs once, right after
the frame, while the user starts reading; it is also less work, since one young collection then
covers what would have been dozens.

A hold is a :class:`mcp_tui.process.collector.Hold` (holds nest, and the collector is only turned
back on by the hold that turned it off) that never outlives :data:`MAX_HOLD` seconds.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from mcp_tui.process.collector import Hold, holds

__all__ = ["MAX_HOLD", "CollectorHold", "holds"]

#: Longest a hold lasts, whatever happens to the screen it waits for.
MAX_HOLD = 1.0


class CollectorHold(Hold):
    """A hold that ``app`` releases after :data:`MAX_HOLD` seconds if nothing did before."""

    def __init__(self, app: App[Any] | None = None) -> None:
        super().__init__()
        if app is not None:
            app.set_timer(MAX_HOLD, self.release, name="collector hold")
