"""Waiting on conditions, never on the clock: the one helper tests synchronise with.

A fixed ``pilot.pause(0.1)`` is a guess about how fast a machine is: too short under load (a
flaky failure), too long everywhere else (a slow suite), and after "nothing happened" it proves
nothing (the event may simply not have been handled yet). :func:`wait_until` returns as soon as
the condition holds and fails, naming what it waited for, once ``timeout`` seconds have passed.
A test that asserts something did *not* happen first waits for a positive sign that the event
was handled (an error shown, a message count, the event buffer drained), then asserts.

Importable as ``tests.waits`` (the repository root is on ``sys.path``: pytest's ``pythonpath``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio

T = TypeVar("T")

#: Generous: the suite runs on 2 shared cores; a condition that holds returns at once anyway.
DEFAULT_TIMEOUT = 10.0
#: How soon the condition is checked again at first, and at most how long a check waits for
#: the next: each pause is half again as long as the one before.
INTERVAL = 0.01
MAX_INTERVAL = 0.05


async def wait_until(
    predicate: Callable[[], T],
    timeout: float = DEFAULT_TIMEOUT,
    *,
    pilot: Any = None,
    message: str = "the condition never held",
    interval: float = INTERVAL,
) -> T:
    """Return ``predicate()``'s value once it is truthy; raise ``AssertionError(message)`` after
    ``timeout`` seconds.

    With a Textual ``pilot``, each check follows ``pilot.pause(interval)`` (the app runs its
    messages and timers meanwhile); without one, ``anyio.sleep(interval)``. The pauses grow from
    ``interval`` to :data:`MAX_INTERVAL`: most conditions hold within a few checks, and a long
    wait (a server starting) then costs a check every 50 ms rather than every 10 — each
    ``pilot.pause`` posts a message to every widget of the screen and waits for all of them, so
    polling at 10 ms cost a UI test ~5 % of its CPU. The predicate is checked once more at the
    deadline, so a slow last step still counts.
    """
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() >= deadline:
            if value := predicate():
                return value
            raise AssertionError(f"{message} (waited {timeout:g} s)")
        if pilot is not None:
            await pilot.pause(interval)
        else:
            await anyio.sleep(interval)
        interval = min(interval * 1.5, max(MAX_INTERVAL, interval))
    return value


def mounted_screen(app: Any, kind: type[T]) -> T | None:
    """``app.screen`` once it is a ``kind`` whose widgets exist, else ``None``: a predicate for
    :func:`wait_until`.

    ``isinstance(app.screen, kind)`` holds from the moment the screen is pushed, before it has
    composed anything; a test that then queries or sets one of its widgets races the mount (a
    ``NoMatches`` under load). A screen is mounted once every widget it composed is mounted,
    their own children included (Textual awaits each child's mount during compose).
    """
    screen = app.screen
    if isinstance(screen, kind) and getattr(screen, "is_mounted", False):
        return screen
    return None
