"""Small guards a connection puts around code it does not control.

- :func:`guarded`: the UI's event sink is called from inside the SDK's read loop; an exception
  there would break the connection, so it is logged instead.
- :class:`CallScope`: every request runs in a registered cancel scope, so a dying connection can
  end requests that wait on no response (on 2026-07-28 a call blocked in a form is waiting on the
  user, not the server).
"""

from __future__ import annotations

import logging
from typing import Any

import anyio

from mcp_tui.session.events import EventSink, SessionEvent

log = logging.getLogger(__name__)


def guarded(sink: EventSink) -> EventSink:
    """A sink that cannot break the connection: it is called from inside the SDK's read loop."""

    def deliver(event: SessionEvent) -> None:
        try:
            sink(event)
        except Exception:
            log.exception("the event sink raised on %s", type(event).__name__)

    return deliver


class CallScope:
    """A cancel scope registered while a request runs, so a dying connection can end it."""

    def __init__(self, registry: set[anyio.CancelScope]) -> None:
        self._registry = registry
        self.scope = anyio.CancelScope()

    @property
    def cancelled_caught(self) -> bool:
        return self.scope.cancelled_caught

    def __enter__(self) -> CallScope:
        self.scope.__enter__()
        self._registry.add(self.scope)
        return self

    def __exit__(self, *exc: Any) -> bool:
        self._registry.discard(self.scope)
        return bool(self.scope.__exit__(*exc))
