"""The collector is paused while mcp-tui starts, and resumed once the heavy imports are done.

Starting the TUI imports about 400 modules before the first frame and the SDK (about 600 more)
right after it. Those imports allocate hundreds of thousands of objects and almost no garbage,
yet each allocation burst makes the cyclic collector walk everything allocated so far: pausing it
makes the imports about a tenth faster (measured: Textual plus the first-frame modules 177-315 ms
with the collector on, 155-209 ms with it off). Once the imports are done,
:func:`resume_collector` moves everything allocated so far out of the collector's sight
(``gc.freeze``: it lives as long as the process) and turns it back on.

Only the command line pauses it (``cli.main``); importing mcp-tui as a library never does.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator

_paused = False


def pause_collector() -> None:
    """Turn the cyclic collector off for start-up (no-op if it is already off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume_collector() -> None:
    """Freeze what start-up allocated and turn the collector back on (only if we paused it)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def collector_paused() -> bool:
    return _paused


@contextlib.contextmanager
def attrs_unseen() -> Iterator[None]:
    """Imports inside this block find no ``attrs``; it stays importable for everyone after.

    ``rich.pretty`` (which Textual's ``RichLog`` imports) loads ``attrs`` only to pretty-print
    attrs classes, which mcp-tui never shows; ``attrs`` is installed (``jsonschema`` needs it)
    and costs ~11 ms on the way to the first frame. A ``None`` in ``sys.modules`` makes
    ``import attr`` raise ``ImportError``, which ``rich.pretty`` handles; it is removed after.
    Nothing changes if ``attr`` is already loaded.
    """
    if "attr" in sys.modules:
        yield
        return
    sys.modules["attr"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if sys.modules.get("attr", ...) is None:
            del sys.modules["attr"]
