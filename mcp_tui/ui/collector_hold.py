"""The cyclic garbage collector waits while a form is being built, until it has been painted.

Building an elicitation form allocates tens of thousands of objects (widgets, styles, strips) that
all survive: every 700 allocations the collector walks the young ones, every ten of those the
middle generation (2-9 ms each, several per form), and now and then the whole heap (80-150 ms
measured with a session open). Landing between an elicitation's arrival and its first frame, that
work made the form appear later, and more so the bigger the form. Held, it runs once, right after
the frame, while the user starts reading; it is also less work, since one young collection then
covers what would have been dozens.

A hold never outlives :data:`MAX_HOLD` seconds, and the collector is only turned back on by the
hold that turned it off: if something else has it off (start-up, ``mcp_tui.startup``), a hold does
nothing.
"""

from __future__ import annotations

import gc
from typing import Any

from textual.app import App

#: Longest a hold lasts, whatever happens to the screen it waits for.
MAX_HOLD = 1.0

_holds = 0
_we_disabled = False


class CollectorHold:
    """One hold: :meth:`release` (idempotent) ends it; the collector resumes with the last one."""

    def __init__(self, app: App[Any] | None = None) -> None:
        global _holds, _we_disabled
        self._released = False
        if _holds == 0 and gc.isenabled():
            gc.disable()
            _we_disabled = True
        _holds += 1
        if app is not None:
            app.set_timer(MAX_HOLD, self.release, name="collector hold")

    def release(self) -> None:
        global _holds, _we_disabled
        if self._released:
            return
        self._released = True
        _holds -= 1
        if _holds == 0 and _we_disabled:
            _we_disabled = False
            gc.enable()

    @property
    def released(self) -> bool:
        return self._released


def holds() -> int:
    """Holds not released yet (for tests)."""
    return _holds
