"""In-process timing of Textual frames and keystrokes, shared by the floors and the mcp-tui harness.

The same code times the bare Textual floor and mcp-tui, so the two are measured the same way:

- :class:`FrameProbe` wraps ``App._display`` (called once per frame with the compositor's update,
  right before the bytes go to the driver's writer thread). ``frame_where(predicate)`` resolves
  with the time of the first frame rendered while ``predicate()`` is true: state changes happen on
  the app's loop between frames, so a frame that finds the new state has painted it.
- :meth:`FrameProbe.press` injects a key exactly as Textual's own input thread does
  (``driver.send_message(events.Key(...))``), timestamping just before.

Times are ``time.perf_counter()`` seconds (CLOCK_MONOTONIC on Linux).
"""

from __future__ import annotations

import asyncio
import random
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual.app import App

Predicate = Callable[[], bool]


class FrameProbe:
    """Counts painted frames and resolves waiters on the first frame where a condition holds."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.frames = 0
        self.first_frame: float | None = None
        self._watchers: list[tuple[Predicate, asyncio.Future[float]]] = []
        original = app._display

        def display(screen: Any, renderable: Any) -> None:
            original(screen, renderable)
            if renderable is None or app._batch_count:
                return
            now = time.perf_counter()
            self.frames += 1
            if self.first_frame is None:
                self.first_frame = now
            self._check(now)

        app._display = display  # type: ignore[method-assign]

    def _check(self, now: float) -> None:
        for item in list(self._watchers):
            predicate, future = item
            if future.done():
                self._watchers.remove(item)
                continue
            try:
                ok = predicate()
            except Exception as error:  # a widget gone meanwhile: report, do not hang
                future.set_exception(error)
                self._watchers.remove(item)
                continue
            if ok:
                future.set_result(now)
                self._watchers.remove(item)

    async def frame_where(self, predicate: Predicate, timeout: float = 60.0) -> float:
        """The time of the first frame painted while ``predicate()`` holds."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._watchers.append((predicate, future))
        return await asyncio.wait_for(future, timeout)

    def press(self, key: str, character: str | None) -> float:
        """Send one key the way the terminal driver does; returns the time just before."""
        driver = self.app._driver
        assert driver is not None
        started = time.perf_counter()
        driver.send_message(events.Key(key, character))
        return started


async def key_latencies(
    probe: FrameProbe,
    count: int,
    step: Callable[[int], tuple[str, str | None, Predicate]],
    *,
    gap: tuple[float, float] = (0.02, 0.06),
    seed: int = 7,
) -> list[float]:
    """Press ``count`` keys (``step(i)`` gives key, character and "repainted" predicate); return
    each key -> repaint time in seconds. A random pause between keys, as a person types."""
    rng = random.Random(seed)
    latencies: list[float] = []
    for i in range(count):
        key, character, predicate = step(i)
        waiter = asyncio.ensure_future(probe.frame_where(predicate, timeout=10.0))
        await asyncio.sleep(0)  # the watcher is registered before the key can be handled
        started = probe.press(key, character)
        latencies.append(await waiter - started)
        await asyncio.sleep(rng.uniform(*gap))
    return latencies


def enter_app_context(app: App[Any]) -> None:
    """Let this task call into the app as its own handlers do (Textual keeps the running app in
    context variables that a task started outside ``run_async`` does not have)."""
    from textual._context import active_app, active_message_pump

    active_app.set(app)
    active_message_pump.set(app)


async def wait_until(predicate: Predicate, timeout: float = 60.0, poll: float = 0.01) -> None:
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(poll)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def latency_summary(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "median_ms": statistics.median(ms),
        "p95_ms": p95(ms),
        "max_ms": max(ms),
    }


def peak_rss_mib() -> float:
    """This process's peak resident set size (``ru_maxrss`` is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
