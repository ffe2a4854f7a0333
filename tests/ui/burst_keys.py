"""Keys delivered in one burst, as a terminal delivers them: the helpers of the burst tests.

A terminal hands a fast typist's keys (or ``tmux send-keys``, or keys typed during a slow frame)
to the app in one read, so the app queues them all before it handles the first. ``Pilot.press``
cannot show what goes wrong then, because it waits for the app to go idle after every key;
:func:`burst` queues the whole sequence on the driver first, as the terminal's input thread does.
Burst tests run each case both ways (:data:`DELIVERIES`) so both paths must give the same answer.

A host app used with :func:`settle` says when the screen under test has answered
(:class:`Answering`); no timing is asserted, only that the answer arrives within a bounded
number of idle rounds.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import pytest
from textual import events
from textual.app import App
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot

__all__ = [
    "DELIVERIES",
    "Answering",
    "Delivery",
    "burst",
    "key_event",
    "send_burst",
    "send_pressed",
    "settle",
]


def key_event(key: str) -> events.Key:
    """The event a terminal produces for ``key`` (as ``Pilot.press`` builds it)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        name = _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
        character: str | None = unicodedata.lookup(name)
    except KeyError:
        character = key if len(key) == 1 else None
    return events.Key(key, character)


def burst(app: App[Any], *keys: str) -> None:
    """Queue ``keys`` before the app handles the first, as one terminal read does."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        driver.send_message(event)


class Answering(Protocol):
    """A test host that knows whether the screen it shows has answered yet."""

    def answered(self) -> bool: ...


async def settle(pilot: Pilot[Any], app: Answering, rounds: int = 40) -> None:
    """Let queued keys and the answer they lead to be handled (no timing is asserted)."""
    for _ in range(rounds):
        await pilot.pause()
        if app.answered():
            return


async def send_burst(pilot: Pilot[Any], app: Any, keys: tuple[str, ...]) -> None:
    """Deliver ``keys`` in one burst, then settle."""
    burst(app, *keys)
    await settle(pilot, app)


async def send_pressed(pilot: Pilot[Any], app: Any, keys: tuple[str, ...]) -> None:
    """Deliver ``keys`` one by one through ``Pilot.press``, then settle."""
    await pilot.press(*keys)
    await settle(pilot, app)


#: How a test's keys reach the app: :func:`send_burst` or :func:`send_pressed`.
Delivery = Callable[[Pilot[Any], Any, tuple[str, ...]], Awaitable[None]]
#: Run a test once per delivery (its ``deliver`` argument).
DELIVERIES = pytest.mark.parametrize("deliver", [send_burst, send_pressed], ids=["burst", "press"])
