"""The client features besides calls: roots, ping, log level, subscriptions.

:class:`ConnectionFeatures` is a part ``ServerConnection`` owns (``connection.features``): it holds
the roots offered, the log level asked for and the subscriptions, and reads the connection's SDK
client and handshake through the getters it is given. Each feature differs by protocol era, and
this is the one place that knows how (but cancelling a call, which lives with the calls it cancels
in ``requests.py``):

============================  =================================  ================================
feature                       2025-06-18 / 2025-11-25            2026-07-28
============================  =================================  ================================
roots changed                 ``notifications/roots/list_changed``  no such notification: the new
                                                                 list answers the server's next
                                                                 ``roots/list`` input request
cancel a call                 ``notifications/cancelled`` (the   stdio: ``notifications/cancelled``;
                              SDK sends it when the call's task  HTTP: the request's POST is
                              is cancelled)                      closed; between ``input_required``
                                                                 rounds nothing is in flight
ping                          ``ping``                           removed: ``server/discover`` is
                                                                 timed instead
log level                     ``logging/setLevel``               per request ``_meta`` (``io.
                                                                 modelcontextprotocol/logLevel``)
subscriptions                 ``resources/subscribe`` and        ``subscriptions/listen`` with
                              ``unsubscribe``                    ``resourceSubscriptions``
============================  =================================  ================================

None of these methods raises: a failure comes back as a sentence (or a ``RoundTrip.error``).
Importing this module imports ``mcp``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import cast

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp_types import LOG_LEVEL_META_KEY, RequestParamsMeta
from mcp_types.version import LATEST_MODERN_VERSION, MODERN_PROTOCOL_VERSIONS

from mcp_tui.config.roots import Root
from mcp_tui.session import convert
from mcp_tui.session.catalog import Catalog
from mcp_tui.session.events import LOG_LEVELS, LogReceived, Notice, RoundTrip
from mcp_tui.session.link import ConnectionLink

log = logging.getLogger(__name__)

#: A server that asked for the roots applies the answer asynchronously (server-filesystem does,
#: right after the handshake): a call made at once (``--call``, ``mcp-tui call``) waits this long
#: after the last ``roots/list``, or it may find no allowed directory yet.
ROOTS_SETTLE = 0.3


class ConnectionFeatures:
    """Roots, ping, log level and subscriptions of one connection (see the module docstring).

    ``client`` and ``info`` read the connection's SDK client (``None`` unless ready) and its
    handshake now; ``not_ready`` is the sentence for a request made while it is not ready.
    """

    def __init__(
        self,
        link: ConnectionLink,
        catalog: Catalog,
        *,
        roots: tuple[Root, ...],
        kept_directories: tuple[str, ...],
        log_level: str,
    ) -> None:
        self.name = link.name
        self._sink = link.sink
        self._catalog = catalog
        self._link = link
        #: The roots offered now (``roots.initial_roots`` at first; the roots dialog changes them).
        self._roots = roots
        #: The directories on the server's command line it keeps because none were chosen
        #: (``roots.kept_directories``); emptied once the roots dialog chooses some.
        self._kept_directories = kept_directories
        #: When the server last asked for the roots (``anyio.current_time()``), if it did.
        self._roots_asked_at: float | None = None
        #: The log level asked for; on 2026-07-28 it is sent in each request's ``_meta``.
        self._log_level = log_level
        #: The URIs subscribed to on this connection.
        self._subscriptions: set[str] = set()

    # ---- era --------------------------------------------------------------------------------

    @property
    def _modern(self) -> bool:
        info = self._link.info
        return (info.protocol_version if info else None) in MODERN_PROTOCOL_VERSIONS

    # ---- roots ------------------------------------------------------------------------------

    @property
    def roots(self) -> tuple[Root, ...]:
        return self._roots

    async def list_roots(
        self, context: ClientRequestContext
    ) -> types.ListRootsResult | types.ErrorData:
        """The SDK's ``list_roots_callback``: ``roots/list`` (2025) or a ``roots/list`` input
        request (2026-07-28) is answered with the current roots."""
        roots = self._roots
        self._roots_asked_at = anyio.current_time()
        shown = ", ".join(root.path for root in roots) or "none"
        said = f"the server asked for its roots; sent {len(roots)}: {shown}"
        if not roots and self._kept_directories:
            said += (
                " (it was started with directories on its command line, "
                + ", ".join(self._kept_directories)
                + ", and keeps them; --root DIR or `o` in the TUI offers roots instead)"
            )
        self._sink(Notice(self.name, said))
        return types.ListRootsResult(
            roots=[
                types.Root.model_validate({"uri": root.uri, "name": root.name}) for root in roots
            ]
        )

    def roots_settle_left(self) -> float:
        """Seconds a call made at once should still wait for the server to apply the roots it
        asked for (:data:`ROOTS_SETTLE` after the last ``roots/list``; 0 if it never asked)."""
        if self._roots_asked_at is None:
            return 0.0
        return max(0.0, self._roots_asked_at + ROOTS_SETTLE - anyio.current_time())

    async def set_roots(self, roots: Sequence[Root]) -> None:
        """Offer ``roots`` from now on and tell the server, the way its era allows."""
        unique: list[Root] = []
        for root in roots:
            if all(r.uri != root.uri for r in unique):
                unique.append(root)
        self._roots = tuple(unique)
        self._kept_directories = ()
        shown = ", ".join(root.path for root in unique) or "none"
        client = self._link.client
        if client is None:
            self._sink(Notice(self.name, f"roots are now: {shown}"))
            return
        if self._modern:
            self._sink(
                Notice(
                    self.name,
                    f"roots are now: {shown}. 2026-07-28 has no roots/list_changed notification: "
                    "the server gets the new list when it next asks for roots",
                )
            )
            return
        try:
            await client.send_roots_list_changed()
        except Exception as exc:
            text = f"roots are now: {shown}, but notifications/roots/list_changed failed: "
            self._sink(Notice(self.name, text + convert.describe_exception(exc), "warning"))
            return
        self._sink(
            Notice(self.name, f"roots are now: {shown}; sent notifications/roots/list_changed")
        )

    # ---- ping -------------------------------------------------------------------------------

    async def ping(self) -> RoundTrip:
        """Time one round trip: ``ping`` on the 2025 eras; ``server/discover`` on 2026-07-28,
        which removed ``ping`` (a probe that changes nothing on either side)."""
        client = self._link.client
        if client is None:
            return RoundTrip("ping", error=self._link.not_ready_reason())
        method = "server/discover" if self._modern else "ping"
        started = time.perf_counter()
        try:
            with anyio.fail_after(30):
                if self._modern:
                    info = self._link.info
                    await client.session.send_discover(
                        info.protocol_version
                        if info and info.protocol_version
                        else LATEST_MODERN_VERSION
                    )
                else:
                    await client.send_ping()
        except TimeoutError:
            return RoundTrip(method, error="no answer within 30 s")
        except Exception as exc:
            return RoundTrip(method, error=convert.describe_exception(exc))
        return RoundTrip(method, seconds=time.perf_counter() - started)

    # ---- log level --------------------------------------------------------------------------

    async def ask_for_logs(self, client: Client) -> None:
        """2025 eras: ask for every log level (2026 asks per request via ``log_level``)."""
        try:
            await client.set_logging_level(cast(types.LoggingLevel, self._log_level))
        except Exception as exc:
            log.debug("logging/setLevel refused by %s: %s", self.name, exc)

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        """The SDK's ``logging_callback``: every ``notifications/message`` to the sink."""
        self._sink(LogReceived(self.name, params.level, params.logger, params.data))

    @property
    def log_level(self) -> str:
        return self._log_level

    def request_meta(self) -> RequestParamsMeta | None:
        """2026-07-28: the log level opt-in of each request (``None``: the SDK's default)."""
        if not self._modern:
            return None
        return cast(RequestParamsMeta, {LOG_LEVEL_META_KEY: self._log_level})

    async def set_log_level(self, level: str) -> str | None:
        """Ask for server logs at ``level`` and above; ``None`` on success, else why not.

        2025 eras: ``logging/setLevel``. 2026-07-28: the level rides each request's ``_meta``
        (``requests.py`` adds it), so it applies from the next request on.
        """
        if level not in LOG_LEVELS:
            return f"{level!r} is not a log level (one of {', '.join(LOG_LEVELS)})"
        client = self._link.client
        if client is None:
            return self._link.not_ready_reason()
        if not self._modern:
            try:
                await client.set_logging_level(cast(types.LoggingLevel, level))
            except Exception as exc:
                return f"logging/setLevel failed: {convert.describe_exception(exc)}"
        self._log_level = level
        how = "sent with each request (2026-07-28)" if self._modern else "logging/setLevel"
        self._sink(Notice(self.name, f"log level is now {level} ({how})"))
        return None

    # ---- resource subscriptions -------------------------------------------------------------

    @property
    def can_subscribe(self) -> bool:
        """The server says ``resources.subscribe``."""
        info = self._link.info
        resources = info.capabilities.get("resources") if info else None
        return isinstance(resources, dict) and bool(resources.get("subscribe"))

    @property
    def subscriptions(self) -> frozenset[str]:
        return frozenset(self._subscriptions)

    async def subscribe(self, uri: str, on: bool = True) -> str | None:
        """Subscribe to (``on``) or unsubscribe from ``uri``; ``None`` on success, else why not."""
        client = self._link.client
        if client is None:
            return self._link.not_ready_reason()
        if not self.can_subscribe:
            return "the server does not offer resource subscriptions (resources.subscribe)"
        verb = "subscribe" if on else "unsubscribe"
        if self._modern:
            wanted = self._subscriptions | {uri} if on else self._subscriptions - {uri}
            self._subscriptions = set(wanted)
            self._catalog.set_subscriptions(tuple(sorted(wanted)))
        else:
            try:
                if on:
                    await client.subscribe_resource(uri)
                else:
                    await client.unsubscribe_resource(uri)
            except Exception as exc:
                return f"resources/{verb} failed: {convert.describe_exception(exc)}"
            if on:
                self._subscriptions.add(uri)
            else:
                self._subscriptions.discard(uri)
        how = "subscriptions/listen" if self._modern else f"resources/{verb}"
        text = f"subscribed to {uri} ({how})" if on else f"unsubscribed from {uri} ({how})"
        self._sink(Notice(self.name, text))
        return None
