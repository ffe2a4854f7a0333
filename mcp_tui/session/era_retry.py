"""A tool written only for 2026-07-28, called on a 2025-11-25 connection: called again on 2026.

``auto`` connects with ``initialize`` (``era.py`` says why), so on a server that speaks both eras a
tool that returns ``input_required`` whatever the era fails: the ``mcp`` 2.x SDK refuses the result
with -32603 "Handler returned an invalid result", FastMCP with "... only exists at MCP
2026-07-28". Both happen *before* the tool does anything the 2026 pattern would let it do (its
first round only asks), so calling it again is safe where re-running an arbitrary failed call is
not. :class:`ModernRetry` does that: on the first such failure it opens a second connection to the
same server, pinned to 2026-07-28 (``server/discover``, so a server that does not speak 2026 is
never used), calls the tool there and keeps that connection for the tools that needed it, whose
later calls go straight to it. Forms the tool asks for go to the same handler as the main
connection's; its notices, logs, stderr and traffic go to the same sink, its state and catalog
do not (the catalog shown stays the main connection's).

Only in ``auto``: a pinned ``--mode legacy`` means the user wants that era and gets the hint.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import anyio
from anyio.abc import TaskGroup
from msgspec.structs import replace

from mcp_tui.session.era import MODERN_ERA, is_modern
from mcp_tui.session.events import (
    CallOutcome,
    CatalogChanged,
    ConnectionState,
    EventSink,
    Notice,
    ServerInfo,
    ServerStateChanged,
    SessionEvent,
)


class ModernConnection(Protocol):
    """What this module needs of the second ``ServerConnection`` (it is built by the first)."""

    @property
    def state(self) -> ConnectionState: ...
    @property
    def detail(self) -> str | None: ...
    @property
    def info(self) -> ServerInfo | None: ...
    @property
    def discover_refusal(self) -> str | None: ...

    async def run(self) -> None: ...
    async def wait_ready(self, timeout: float | None = None) -> bool: ...
    async def close(self) -> None: ...
    def cancel_call(self, call_id: int) -> bool: ...
    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        call_id: int | None = None,
        as_task: bool | None = None,
    ) -> CallOutcome: ...


log = logging.getLogger(__name__)

#: How long the second connection may take to connect (a cold Python server start).
CONNECT_WAIT = 60.0


def retry_applies(outcome: CallOutcome, mode: str) -> bool:
    """True when ``outcome`` is a call that failed for want of 2026-07-28 in mode ``auto``."""
    return mode == "auto" and outcome.needs_era == MODERN_ERA and not outcome.cancelled


class ModernRetry:
    """The 2026-07-28 connection of one server's 2026-only tools (see the module docstring)."""

    def __init__(
        self, server: str, sink: EventSink, factory: Callable[[EventSink], ModernConnection]
    ) -> None:
        self._server = server
        self._sink = sink
        self._factory = factory
        self._tasks: TaskGroup | None = None
        self._connection: ModernConnection | None = None
        self._opening = anyio.Lock()
        #: The tools that failed on 2025-11-25 and worked on 2026-07-28: called there directly.
        self.tools: set[str] = set()

    def attach(self, tasks: TaskGroup) -> None:
        """The main connection's task group, which runs the second connection while it lasts."""
        self._tasks = tasks

    def _forward(self, event: SessionEvent) -> None:
        if isinstance(event, ServerStateChanged | CatalogChanged):
            return  # the server's state and catalog are the main connection's
        if isinstance(event, Notice):
            event = replace(event, text=f"(its {MODERN_ERA} connection) {event.text}")
        self._sink(event)

    async def _open(self) -> ModernConnection | str:
        """The 2026-07-28 connection, opened the first time; a sentence when there is none."""
        async with self._opening:
            conn = self._connection
            if conn is not None and conn.state is ConnectionState.READY:
                return conn
            if self._tasks is None:
                return "the connection is closing"
            conn = self._factory(self._forward)
            self._connection = conn
            self._tasks.start_soon(conn.run)
            if not await conn.wait_ready(CONNECT_WAIT):
                return f"it could not be reached on {MODERN_ERA}: {conn.detail or conn.state.value}"
            version = conn.info.protocol_version if conn.info else None
            if conn.discover_refusal is not None or not is_modern(version):
                await conn.close()
                return f"it does not speak {MODERN_ERA} (server/discover: {conn.discover_refusal})"
            return conn

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        call_id: int | None,
        as_task: bool | None,
        failed: CallOutcome | None,
    ) -> CallOutcome | None:
        """Call ``name`` on the 2026-07-28 connection; ``None`` when there is none (the caller
        keeps ``failed``, whose hint then applies). ``failed``: the 2025-11-25 outcome that led
        here (``None``: the tool is known to need 2026-07-28)."""
        if failed is not None:
            why = failed.error or "; ".join(i.text for i in failed.items if i.text) or "failed"
            self._sink(
                Notice(
                    self._server,
                    f"{name} failed on 2025-11-25 ({why}), as a tool written only for "
                    f"{MODERN_ERA} does: calling it again on a {MODERN_ERA} connection "
                    "(--mode legacy turns this off)",
                )
            )
        conn = await self._open()
        if isinstance(conn, str):
            self._sink(Notice(self._server, f"{name} was not called again: {conn}", "warning"))
            return None
        outcome = await conn.call_tool(name, arguments, call_id=call_id, as_task=as_task)
        if failed is not None and outcome.needs_era is None:
            self.tools.add(name)
        return outcome

    def cancel_call(self, call_id: int) -> bool:
        """Cancel a call running on the 2026-07-28 connection (``False``: not running there)."""
        conn = self._connection
        return conn is not None and conn.cancel_call(call_id)

    async def close(self) -> None:
        """Close the 2026-07-28 connection with the main one."""
        self._tasks = None
        conn, self._connection = self._connection, None
        if conn is not None:
            await conn.close()
