"""Anti-spam for elicitation: one gate per server decides whether a request reaches the user.

A server is untrusted: it can send 200 ``elicitation/create`` requests in a second (the SDK runs
them all concurrently, with no limit). The gate keeps that from burying the user in forms:

- **Manual pause** — the per-server "stop asking" toggle: while on, every request is cancelled
  automatically.
- **Rate limit** — more than ``max_requests`` arrivals within ``window`` seconds pauses the server
  just like the toggle (the user turns it back on), with ONE notice.
- **Queue bound** — at most ``max_pending`` requests of one server wait for the user at once; more
  are cancelled, with one notice per burst (the notice re-arms once the queue has drained to half).

Requests that arrive together (the input requests one ``tasks/get`` lists on 2026-07-28) are
judged in one call, :meth:`ElicitationGate.arrive_many`: the same verdicts as one ``arrive`` each,
in constant time for the ones past the first refusal (a poll may list 100,000).

Pure bookkeeping with an injectable clock: no ``mcp``, no I/O, no asyncio. ``connection.py`` turns
the verdicts into ``cancel`` answers and ``Notice`` events.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from mcp_tui.config.servers import DEFAULT_RATE_LIMIT


class Verdict(Enum):
    ADMIT = "admit"
    PAUSED = "paused"  # the server is paused (by the user or by the rate limit)
    RATE_LIMITED = "rate_limited"  # this arrival tripped the rate limit: the server is now paused
    QUEUE_FULL = "queue_full"


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    #: A one-line notice to show, or ``None`` (floods produce one notice, not hundreds).
    notice: str | None = None

    @property
    def admitted(self) -> bool:
        return self.verdict is Verdict.ADMIT


class ElicitationGate:
    """Admission control for one server's elicitation requests.

    Call :meth:`arrive` for every request; if admitted, call :meth:`release` exactly once when it
    is answered (or cancelled).
    """

    def __init__(
        self,
        *,
        max_requests: int = DEFAULT_RATE_LIMIT.count,
        window: float = DEFAULT_RATE_LIMIT.seconds,
        max_pending: int = 20,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_requests < 1 or window <= 0 or max_pending < 1:
            raise ValueError("gate limits must be positive")
        self.max_requests = max_requests
        self.window = window
        self.max_pending = max_pending
        self._clock = clock
        self._arrivals: deque[float] = deque()
        self._paused_by_user = False
        self._paused_by_limit = False
        self._pending = 0
        self._queue_notice_armed = True
        #: How many requests were cancelled automatically (for the UI and tests).
        self.auto_cancelled = 0

    # ---- state ----------------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self._paused_by_user or self._paused_by_limit

    @property
    def paused_by_limit(self) -> bool:
        return self._paused_by_limit

    @property
    def pending(self) -> int:
        return self._pending

    def set_paused(self, paused: bool) -> None:
        """The "stop asking" toggle. Turning it off also lifts a pause set by the rate limit."""
        self._paused_by_user = paused
        if not paused:
            self._paused_by_limit = False
            self._arrivals.clear()  # a fresh start: old arrivals must not re-trip the limit

    # ---- admission ------------------------------------------------------------------------------

    def arrive(self) -> Decision:
        """Record one arriving request and decide its fate."""
        now = self._clock()
        self._arrivals.append(now)
        while self._arrivals and self._arrivals[0] <= now - self.window:
            self._arrivals.popleft()
        if len(self._arrivals) > 4 * self.max_requests:  # bounded memory under a flood
            self._arrivals.popleft()

        if self.paused:
            self.auto_cancelled += 1
            return Decision(Verdict.PAUSED)
        if len(self._arrivals) > self.max_requests:
            self._paused_by_limit = True
            self.auto_cancelled += 1
            return Decision(
                Verdict.RATE_LIMITED,
                f"more than {self.max_requests} elicitation requests within "
                f"{self.window:g} s: further requests from this server are cancelled "
                "automatically until you turn asking back on",
            )
        if self._pending >= self.max_pending:
            self.auto_cancelled += 1
            notice = None
            if self._queue_notice_armed:
                self._queue_notice_armed = False
                notice = (
                    f"{self._pending} elicitation requests are already waiting: "
                    "further requests from this server are cancelled until some are answered"
                )
            return Decision(Verdict.QUEUE_FULL, notice)
        self._pending += 1
        return Decision(Verdict.ADMIT)

    def arrive_many(self, count: int) -> tuple[int, Decision | None]:
        """Record ``count`` requests arriving together, as ``count`` calls of :meth:`arrive` would:
        how many are admitted (the first ones; each to be released), and the verdict on the rest
        (its notice, if any, is the one notice for them all; ``None`` when all were admitted)."""
        admitted = 0
        while admitted < count:
            decision = self.arrive()
            if not decision.admitted:
                rest = count - admitted - 1  # all refused too: the gate is paused or full
                self.auto_cancelled += rest
                now = self._clock()
                self._arrivals.extend([now] * min(rest, 4 * self.max_requests))
                while len(self._arrivals) > 4 * self.max_requests:
                    self._arrivals.popleft()
                return admitted, decision
            admitted += 1
        return admitted, None

    def release(self) -> None:
        """One admitted request was answered or withdrawn."""
        if self._pending > 0:
            self._pending -= 1
        if self._pending <= self.max_pending // 2:
            self._queue_notice_armed = True
