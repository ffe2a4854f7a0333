"""The freshness hints 2026-07-28 requires of cacheable results, read off the wire for ``check``.

On 2026-07-28 every ``*/list``, ``resources/read`` and ``server/discover`` result must carry
``cacheScope`` (``"public"`` or ``"private"``) and ``ttlMs``. The SDK's client validates each
result against its era's schema (``mcp/client/session.py``, ``send_request`` ->
``validate_server_result``) and raises on one without them, so a hand-written server that leaves
them out seems to offer nothing, and its author sees only "does not follow the protocol:
cacheScope: Field required" (a listing that failed) or an era refused with ``ValidationError``
(``server/discover``). The traffic tap sees the result before the SDK rejects it: this records
what was missing, per method, so ``check`` names it (X102).
"""

from __future__ import annotations

from typing import Any

from mcp_tui.session.events import TrafficRecorded

#: The 2026-07-28 methods whose results are ``CacheableResult``s.
CACHEABLE = frozenset(
    {
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "server/discover",
    }
)
REQUIRED = ("cacheScope", "ttlMs")
_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"


class CacheHints:
    """One connection's cacheable requests and what their results lacked."""

    def __init__(self) -> None:
        self._asked: dict[Any, str] = {}
        #: Method -> the required keys its result lacked (the first such result of each).
        self.incomplete: dict[str, list[str]] = {}
        #: The server answered ``server/discover`` with a result (malformed or not).
        self.discover_answered = False

    def see(self, event: TrafficRecorded) -> None:
        method = event.method
        if event.direction == "out" and method in CACHEABLE and _modern(method, event.message):
            self._asked[event.id] = method
        elif event.direction == "in" and method is None and event.id in self._asked:
            asked = self._asked.pop(event.id)
            result = event.message.get("result")
            if not isinstance(result, dict):
                return
            if asked == "server/discover":
                self.discover_answered = True
            missing = [key for key in REQUIRED if key not in result]
            if missing:
                self.incomplete.setdefault(asked, missing)

    def as_listing(self) -> list[dict[str, Any]]:
        return [{"method": m, "missing": keys} for m, keys in sorted(self.incomplete.items())]


def _modern(method: str, message: dict[str, Any]) -> bool:
    """A 2026-07-28 request: ``server/discover``, or one stamped with that version."""
    if method == "server/discover":
        return True
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and meta.get(_VERSION_KEY) == "2026-07-28"
