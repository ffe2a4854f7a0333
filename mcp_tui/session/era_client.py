"""The SDK ``Client`` for each protocol mode: ``auto`` is ``initialize`` first, 2026 when refused.

Why that order is ``era.py``'s docstring. The SDK offers ``legacy`` (``initialize`` only),
``auto`` (``server/discover`` first, ``initialize`` as the fallback) and a pinned modern version
(no handshake at all: the server's name and capabilities stay unknown), but not the reverse of its
``auto``. ``Client.__aenter__`` runs the handshake on the session ``Client._build_session``
returns, so :class:`HandshakeClient` is a ``Client`` in the SDK's ``legacy`` mode whose session's
``initialize`` is replaced by another handshake made of the SDK's own steps:

- ``auto`` (:func:`handshake_legacy_first`): the same ``initialize`` call, and — only when the
  server refuses it with a JSON-RPC error — ``ClientSession.discover()`` (which retries once at a
  version the server names with -32022) and its adoption of the 2026-07-28 era;
- ``2026-07-28`` (:func:`handshake_discover`): ``discover()``, adopting the era blind (as the SDK's
  pinned mode does) only if the server does not answer it. The SDK gives ``server/discover`` 10 s
  (``DISCOVER_TIMEOUT_SECONDS``) from the moment it is sent, which for a stdio server is while the
  process still starts: a cold FastMCP on a loaded machine took longer, the probe "timed out", and
  the connection went on blind with a refusal no server made (so the automatic 2026-07-28 retry
  said the server "does not speak 2026-07-28", in about one run of three). A timeout is no answer:
  the probe is sent again until the handshake's own time (the connect timeout) is nearly up.

``legacy`` is the SDK's own. This uses one private SDK method (``_build_session``, stable through
``mcp`` 2.3); ``tests/session/test_era.py`` checks each handshake on the wire.

Importing this module imports ``mcp``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.client import session as sdk_session
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types.version import LATEST_MODERN_VERSION
from pydantic import ValidationError

log = logging.getLogger(__name__)

#: Refusals that say nothing about the era: the connection is gone or the server never answered.
_NOT_AN_ANSWER = (-32000, -32001)  # connection closed, request timed out (SDK codes)
#: The SDK's code for a request that got no answer in time.
REQUEST_TIMEOUT = -32001
#: The handshake's whole time by default (``DEFAULT_CONNECT_TIMEOUT``, the connection's
#: watchdog): ``server/discover`` is sent again only when that probe would end within it, so a
#: server that never answers is still adopted blind before the connection is given up.
DEFAULT_HANDSHAKE_TIME = 30.0


async def handshake_legacy_first(
    session: ClientSession, initialize: Callable[[], Awaitable[types.InitializeResult]]
) -> None:
    """``initialize``; if the server refuses it, ``server/discover`` and adopt 2026-07-28.

    A server that refuses both gets the ``initialize`` refusal, which is the one that names its
    problem for a 2025-era server (the usual kind). Transport errors are never an era verdict
    and propagate at once.
    """
    try:
        await initialize()
    except (MCPError, RuntimeError) as refused:
        # RuntimeError: the server answered with a protocol version that has no handshake.
        if isinstance(refused, MCPError) and refused.code in _NOT_AN_ANSWER:
            raise
        log.debug("initialize refused (%s); trying server/discover", refused)
        try:
            await session.discover()
        except (MCPError, RuntimeError, ValidationError) as also:
            log.debug("server/discover refused too: %s", also)
            raise refused from None


async def handshake_discover(
    session: ClientSession,
    initialize: Callable[[], Awaitable[types.InitializeResult]],
    handshake_time: float = DEFAULT_HANDSHAKE_TIME,
) -> Exception | None:
    """``--mode 2026-07-28``: ``server/discover``, so the server's name, capabilities and
    instructions are known; a server that does not answer it is adopted at 2026-07-28 blind, as
    the SDK's own pinned mode does (it never sends the probe). Returns the refusal, if any.

    A probe that times out is sent again when it would end within ``handshake_time`` (the
    connect timeout; the module docstring says why): only a server that stays silent that long
    is adopted blind."""
    started = time.monotonic()
    try:
        while True:
            try:
                await session.discover()
                break
            except MCPError as slow:
                probe = float(getattr(sdk_session, "DISCOVER_TIMEOUT_SECONDS", 10.0))
                elapsed = time.monotonic() - started
                if slow.code != REQUEST_TIMEOUT or elapsed + probe >= handshake_time:
                    raise
                log.debug("server/discover timed out: the server may still be starting; again")
    except (MCPError, RuntimeError, ValidationError) as refused:
        if isinstance(refused, MCPError) and refused.code == -32000:  # connection closed
            raise
        log.debug("server/discover refused (%s); adopting 2026-07-28 without it", refused)
        session.adopt(
            types.DiscoverResult(
                supported_versions=[LATEST_MODERN_VERSION],
                capabilities=types.ServerCapabilities(),
                result_type="complete",
                ttl_ms=0,
                cache_scope="public",
            )
        )
        return refused
    return None


def refusal_words(refused: Exception) -> str:
    """How a refusal of ``server/discover`` is named: its code and message, else its kind."""
    if isinstance(refused, MCPError):
        return f"{refused.code} {refused.error.message}"
    return type(refused).__name__


class HandshakeClient(Client):
    """A ``Client`` built with ``mode="legacy"`` whose handshake is :meth:`handshake` instead."""

    async def handshake(
        self, session: ClientSession, initialize: Callable[[], Awaitable[types.InitializeResult]]
    ) -> None:
        await initialize()

    async def _build_session(self, exit_stack: AsyncExitStack) -> ClientSession:
        session = await super()._build_session(exit_stack)
        initialize = session.initialize

        async def run_handshake() -> None:
            await self.handshake(session, initialize)

        # The SDK's ``Client.__aenter__`` calls ``session.initialize()`` in legacy mode and reads
        # the negotiated state from the session afterwards, never from the return value.
        session.initialize = run_handshake  # type: ignore[method-assign,assignment]
        return session


class LegacyFirstClient(HandshakeClient):
    """``auto``: ``initialize`` first, 2026-07-28 for a server that refuses it."""

    async def handshake(
        self, session: ClientSession, initialize: Callable[[], Awaitable[types.InitializeResult]]
    ) -> None:
        await handshake_legacy_first(session, initialize)


class DiscoverClient(HandshakeClient):
    """``2026-07-28``: ``server/discover``, then that era whatever the answer."""

    #: How the server refused ``server/discover`` (the connection says so: a server that speaks
    #: only 2025-11-25, such as server-everything, refuses it with -32601 and then fails every
    #: request on fields 2026-07-28 requires).
    discover_refusal: str | None = None
    #: The connect timeout: ``server/discover`` is sent again within it while it times out.
    handshake_time: float = DEFAULT_HANDSHAKE_TIME
    #: ``server/discover`` got no answer (-32001, sent again for the connect timeout): a
    #: timeout, which says nothing of the era where a refusal does (``mcp-tui check`` reports
    #: the two apart).
    discover_timeout: str | None = None
    #: The JSON-RPC error code the server refused ``server/discover`` with (-32601: a server
    #: that speaks only 2025-11-25), ``None`` when it answered, timed out, or sent a result the
    #: SDK could not adopt.
    discover_error: int | None = None

    async def handshake(
        self, session: ClientSession, initialize: Callable[[], Awaitable[types.InitializeResult]]
    ) -> None:
        refused = await handshake_discover(session, initialize, self.handshake_time)
        if refused is None:
            return
        self.discover_refusal = refusal_words(refused)
        if isinstance(refused, MCPError) and refused.code != REQUEST_TIMEOUT:
            self.discover_error = refused.code
        if isinstance(refused, MCPError) and refused.code == REQUEST_TIMEOUT:
            self.discover_timeout = (
                f"server/discover got no answer in {self.handshake_time:g} s (the connect timeout)"
            )


def make_client(
    transport: Any, mode: str, *, handshake_time: float | None = None, **options: Any
) -> Client:
    """The SDK client for ``mode`` (``auto``, ``legacy`` or ``2026-07-28``); ``handshake_time``:
    the connect timeout (see :func:`handshake_discover`)."""
    if mode == "auto":
        return LegacyFirstClient(transport, mode="legacy", **options)
    if mode == LATEST_MODERN_VERSION:
        client = DiscoverClient(transport, mode="legacy", **options)
        if handshake_time is not None:
            client.handshake_time = handshake_time
        return client
    return Client(transport, mode=mode, **options)
