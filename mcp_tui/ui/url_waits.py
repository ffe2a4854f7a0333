"""URL-mode requests the user accepted, waiting for the server to say the page is done.

After a user consents to a URL-mode elicitation the interaction happens where the client cannot
see it (a browser). On 2025-11-25 the server may announce the end with
``notifications/elicitation/complete`` and the request's ``elicitationId``; a tool that failed
with -32042 can be retried only after that (or when the user says so). On 2026-07-28 there is no
id and no notification: the URL request belongs to a tool call the SDK repeats at once, so the
wait ends with that call.

:class:`UrlWaits` is the registry behind the "waiting for completion" rows of the session screen:

- :meth:`UrlWaits.add` registers an accepted request (idempotent: the same request twice is one
  wait);
- :meth:`UrlWaits.complete` ends the waits of one server with that id; an unknown id, or one
  already completed, changes nothing (a server cannot end someone else's wait, or one twice) —
  but it is remembered for a while, so a completion that overtook its own wait still counts
  (only for a request that was made: the session drops a completion for an id no request
  carried, ``session/server_requests.py``);
- :meth:`UrlWaits.end` is the user's "done" or "give up"; :meth:`UrlWaits.call_ended` ends the
  id-less waits of a finished call; :meth:`UrlWaits.server_gone` the waits of a closed connection;
- :meth:`UrlWaits.expire` ends waits past their deadline: the spec says a client must not wait
  forever, so every wait is bounded (:data:`URL_WAIT_SECONDS`) and shows the time left.

Pure Python (asyncio only for :meth:`UrlWaits.settled`): no Textual, tested directly.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import Literal

from msgspec import Struct

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.ui.shown_names import shown_name

#: How long an accepted URL request waits for its completion before mcp-tui stops waiting.
URL_WAIT_SECONDS = 600.0
#: How many completion ids nobody waited for are remembered (a notification that overtook the
#: user's own accept must still count; a flood of made-up ids must not grow memory).
EARLY_COMPLETIONS_KEPT = 64

#: ``waiting`` until one of: ``completed`` (the server's notification), ``done`` (the user says
#: the page is finished), ``gave_up`` (the user stops waiting), ``timed_out``, ``call_ended`` (a
#: 2026-07-28 request whose call returned), ``closed`` (the connection ended).
WaitState = Literal["waiting", "completed", "done", "gave_up", "timed_out", "call_ended", "closed"]

#: States after which a -32042 call may be retried: the page is finished, by either account.
FINISHED: frozenset[WaitState] = frozenset({"completed", "done"})


class UrlWait(Struct, dict=True):  # dict: for the cached host
    """One accepted URL-mode request and what became of it."""

    key: int
    request: ElicitationRequest
    started: float
    deadline: float
    state: WaitState = "waiting"

    @property
    def waiting(self) -> bool:
        return self.state == "waiting"

    @property
    def server(self) -> str:
        return self.request.server

    @property
    def elicitation_id(self) -> str | None:
        return self.request.elicitation_id

    @cached_property
    def host(self) -> str:
        """The destination host (identity form, with a written port), for display."""
        try:
            from mcp_tui.url.check import check_url  # idna and friends: after start-up

            verdict = check_url(self.request.url or "")
        except Exception:  # a defect in the check must not break the waiting row
            return "(unreadable host)"
        if not verdict.host:
            return "(unreadable host)"
        host = f"[{verdict.host}]" if ":" in verdict.host else verdict.host
        return host + (f":{verdict.port}" if verdict.port is not None else "")

    @property
    def subject(self) -> str:
        """``server › tool`` (or just the server): what the user is waiting on."""
        request = self.request
        server = shown_name(request.server)
        return f"{server} › {request.tool}" if request.tool else server

    def remaining(self, now: float) -> float:
        """Seconds left before the wait times out (never negative)."""
        return max(0.0, self.deadline - now)


def _same(a: ElicitationRequest, b: ElicitationRequest) -> bool:
    """The same request seen twice (the consent answer and the -32042 retry both register it)."""
    return a is b or (
        a.server == b.server
        and a.url == b.url
        and a.elicitation_id == b.elicitation_id
        and a.request_key == b.request_key
        and a.call_id == b.call_id
    )


class UrlWaits:
    """Every accepted URL request still waiting, plus recently ended ones; see the module doc."""

    def __init__(
        self,
        *,
        timeout: float = URL_WAIT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        keep_ended: int = 50,
    ) -> None:
        self.timeout = timeout
        self._clock = clock
        self._keys = itertools.count(1)
        self._waits: dict[int, UrlWait] = {}
        self._keep_ended = keep_ended
        self._early: deque[tuple[str, str]] = deque(maxlen=EARLY_COMPLETIONS_KEPT)
        self._changed = asyncio.Event()
        #: Bumped on every change, so a view can tell whether it must redraw.
        self.version = 0

    # --- reading -----------------------------------------------------------------------------

    @property
    def waiting(self) -> list[UrlWait]:
        """The waits still open, oldest first."""
        return [w for w in self._waits.values() if w.waiting]

    def get(self, key: int) -> UrlWait | None:
        return self._waits.get(key)

    def now(self) -> float:
        return self._clock()

    # --- changes -----------------------------------------------------------------------------

    def add(self, request: ElicitationRequest) -> UrlWait:
        """Start waiting for ``request`` (an accepted URL-mode request); idempotent."""
        for wait in self._waits.values():
            if _same(wait.request, request) and wait.state in ("waiting", *FINISHED):
                return wait
        now = self._clock()
        wait = UrlWait(next(self._keys), request, now, now + self.timeout)
        self._waits[wait.key] = wait
        ident = request.elicitation_id
        if ident is not None and (request.server, ident) in self._early:
            wait.state = "completed"  # the notification overtook the user's own accept
        self._forget_old()
        self._touch()
        return wait

    def complete(self, server: str, elicitation_id: str) -> list[UrlWait]:
        """The server says ``elicitation_id`` is complete: the waits it ended (may be none).

        Unknown ids and ids already completed change nothing; only this server's waits match.
        """
        ended = [
            w for w in self.waiting if w.server == server and w.elicitation_id == elicitation_id
        ]
        if not ended:
            known = any(
                w.server == server and w.elicitation_id == elicitation_id
                for w in self._waits.values()
            )
            if not known:
                self._early.append((server, elicitation_id))
            return []
        return self._end(ended, "completed")

    def end(self, key: int, state: WaitState) -> UrlWait | None:
        """The user's "done" or "give up" (or any other end) for one wait still open."""
        wait = self._waits.get(key)
        if wait is None or not wait.waiting:
            return None
        self._end([wait], state)
        return wait

    def call_ended(self, server: str, call_id: int) -> list[UrlWait]:
        """A call returned: its waits without an id (2026-07-28) cannot complete any other way."""
        ended = [
            w
            for w in self.waiting
            if w.server == server and w.request.call_id == call_id and w.elicitation_id is None
        ]
        return self._end(ended, "call_ended")

    def server_gone(self, server: str) -> list[UrlWait]:
        """The connection ended: no completion can arrive for its waits any more."""
        return self._end([w for w in self.waiting if w.server == server], "closed")

    def expire(self) -> list[UrlWait]:
        """End every wait past its deadline."""
        now = self._clock()
        return self._end([w for w in self.waiting if w.deadline <= now], "timed_out")

    def _end(self, waits: Iterable[UrlWait], state: WaitState) -> list[UrlWait]:
        ended = list(waits)
        for wait in ended:
            wait.state = state
        if ended:
            self._forget_old()
            self._touch()
        return ended

    def _forget_old(self) -> None:
        ended = [k for k, w in self._waits.items() if not w.waiting]
        for key in ended[: max(0, len(ended) - self._keep_ended)]:
            del self._waits[key]

    def _touch(self) -> None:
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    # --- waiting for an outcome --------------------------------------------------------------

    async def settled(self, keys: Iterable[int]) -> list[UrlWait]:
        """Wait until none of ``keys`` is waiting any more; returns those waits."""
        wanted = list(keys)
        while True:
            waits = [w for k in wanted if (w := self._waits.get(k)) is not None]
            if all(not w.waiting for w in waits):
                return waits
            await self._changed.wait()
