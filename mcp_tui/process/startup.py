"""Start-up: the collector held off for start-up's imports, and imports kept off its path.

The command line (``cli.main``) holds the collector off (:mod:`mcp_tui.process.collector`) while
mcp-tui starts: Textual and the first-frame modules, then the SDK right after the first frame. Those
imports allocate hundreds of thousands of objects and almost no garbage (measured: Textual plus
the first-frame modules 177-315 ms with the collector on, 155-209 ms with it off).
:func:`resume_collector` ends the hold once the imports are done, freezing what they allocated.
Importing mcp-tui as a library never holds it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from mcp_tui.process.collector import Hold

_start_up: Hold | None = None


def pause_collector() -> None:
    """Hold the collector off for start-up (a second call changes nothing)."""
    global _start_up
    if _start_up is None:
        _start_up = Hold(freeze=True)


def resume_collector() -> None:
    """End start-up's hold: freeze what start-up allocated; the collector is back on unless
    another hold (or someone else) keeps it off. A no-op without a hold."""
    global _start_up
    if _start_up is not None:
        hold, _start_up = _start_up, None
        hold.release()


def collector_paused() -> bool:
    return _start_up is not None


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
