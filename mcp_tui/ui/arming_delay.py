"""The arming delay of the screens that answer a server, in one place (no Textual here).

:mod:`mcp_tui.ui.screens.arming` explains what arming is. This module only holds how long it
lasts and the clock it is measured with, so that tests can set both (``tests/conftest.py`` sets
the delay to 0 for every test not about it, and drives the clock in those that are) without
loading Textual.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: How long a newly shown screen ignores its accepting keys and buttons, in seconds: long enough
#: to be seen (a double press is 0.1-0.3 s apart, a glance at a new screen a few tenths), short
#: enough not to slow down someone who reads the screen anyway.
DEFAULT_ARMING_SECONDS = 0.6


class ArmingSettings:
    """The arming delay and the clock it is measured with (one instance: :data:`ARMING`).

    A plain class, not a dataclass: the app imports it before its first frame, where every
    dataclass costs its compiled methods (``tests/ui/app/test_app.py`` counts them)."""

    __slots__ = ("clock", "delay")

    def __init__(
        self,
        delay: float = DEFAULT_ARMING_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.delay = delay
        self.clock = clock


#: The one place the arming delay is set.
ARMING = ArmingSettings()


def armed_since(start: float | None) -> bool:
    """Something shown at ``start`` (on :data:`ARMING`'s clock; ``None``: not shown yet) has
    been on screen for the arming delay. Always true with the delay at 0 (arming off)."""
    if ARMING.delay <= 0:
        return True
    return start is not None and ARMING.clock() - start >= ARMING.delay


def arming_left(start: float | None) -> float:
    """Seconds until :func:`armed_since` turns true (the whole delay if not shown yet)."""
    if start is None:
        return ARMING.delay
    return max(0.0, ARMING.delay - (ARMING.clock() - start))
