"""Holds on the cyclic garbage collector: off while big object graphs are built, on after.

Two moments build hundreds of thousands of objects that all survive, and the collector, walking
everything allocated so far at each allocation burst, only slows them down:

- start-up's imports (``mcp_tui.process.startup``): about 400 modules before the first frame and
  the SDK after it; held off, the imports are about a tenth faster. Released once they are done,
  with ``gc.freeze()`` first, so what start-up allocated (it lives as long as the process) is never
  walked again;
- building an elicitation form, until its first frame (``mcp_tui.ui.app.collector_hold``).

A big catalog is the other case (:func:`freeze_survivors`): 3,000 tools with their schemas, wire
models and tree nodes are a few hundred thousand objects that live as long as the listing is
shown, and every full pass of the collector walked them all, holding the event loop 100-300 ms in
the middle of a ``list_changed`` refresh. Once such a listing is shown it is frozen, so a full
pass walks only what came after.

Holds nest: the collector goes off with the first and back on with the last release, and only if
a hold turned it off. A collector someone else turned off stays off. Plain Python, no Textual.
"""

from __future__ import annotations

import gc

_holds = 0
_we_disabled = False


class Hold:
    """One hold on the collector; :meth:`release` (idempotent) ends it.

    ``freeze``: on release, move everything allocated so far out of the collector's sight
    (``gc.freeze``), for objects that live as long as the process.
    """

    def __init__(self, *, freeze: bool = False) -> None:
        global _holds, _we_disabled
        self._released = False
        self._freeze = freeze
        if _holds == 0 and gc.isenabled():
            gc.disable()
            _we_disabled = True
        _holds += 1

    def release(self) -> None:
        global _holds, _we_disabled
        if self._released:
            return
        self._released = True
        _holds -= 1
        if self._freeze:
            gc.freeze()
        if _holds == 0 and _we_disabled:
            _we_disabled = False
            gc.enable()

    @property
    def released(self) -> bool:
        return self._released


def holds() -> int:
    """Holds not released yet (for tests)."""
    return _holds


#: A catalog listing of at least this many items is frozen once shown (:func:`freeze_survivors`).
LARGE_LISTING = 1000


def freeze_survivors() -> None:
    """Move every object alive now out of the collector's sight (``gc.freeze``).

    For a moment when what is alive is mostly what will stay alive (a large listing just
    shown). The young generations are collected first (cheap: they are small), so their garbage
    is not frozen with it. Frozen objects are still freed when their last reference goes (the
    listing a later one replaces); only a reference cycle among them would never be collected,
    which is why this is kept for the rare large listing. While a hold is on, nothing happens:
    the hold decides (start-up's freezes on release).
    """
    if _holds:
        return
    gc.collect(1)
    gc.freeze()
