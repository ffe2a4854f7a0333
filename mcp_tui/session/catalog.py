"""A server's tools, prompts and resources (with templates), kept current.

Listed once when the connection is ready, and again for each kind whose ``list_changed``
notification arrives (2025 eras: plain notifications; 2026-07-28: a ``subscriptions/listen``
stream, whose events the SDK also hands to the message handler). Refreshes are coalesced: a burst
of notifications while a listing runs causes one more listing, not one per notification. Listings
follow ``nextCursor`` up to a bound, so a server that paginates forever cannot hang the client.
Failures become a warning ``Notice`` and leave the previous listing in place.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import anyio
import anyio.abc
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcp_tui.session import convert
from mcp_tui.session.events import (
    CatalogChanged,
    EventSink,
    Notice,
    PromptInfo,
    ResourceInfo,
    ToolInfo,
)

log = logging.getLogger(__name__)

Kind = Literal["tools", "prompts", "resources"]
KINDS: tuple[Kind, ...] = ("tools", "prompts", "resources")
#: At most this many pages per listing (and this many items in all).
MAX_PAGES = 100
MAX_ITEMS = 10_000
METHOD_NOT_FOUND = -32601


def _one_kind(server: str, kind: Kind, items: tuple[Any, ...]) -> CatalogChanged:
    """The event of one kind's ``list_changed`` refresh (the other kinds ``None``)."""
    if kind == "tools":
        return CatalogChanged(server, tools=items)
    if kind == "prompts":
        return CatalogChanged(server, prompts=items)
    return CatalogChanged(server, resources=items)


class Catalog:
    def __init__(self, server: str, sink: EventSink) -> None:
        self.server = server
        self._sink = sink
        self.tools: tuple[ToolInfo, ...] = ()
        self.prompts: tuple[PromptInfo, ...] = ()
        self.resources: tuple[ResourceInfo, ...] = ()
        self._client: Client | None = None
        self._tasks: anyio.abc.TaskGroup | None = None
        self._running: set[Kind] = set()
        self._dirty: set[Kind] = set()
        #: 2026-07-28: the resource URIs the listen stream subscribes to, and its scope (cancelled
        #: to re-open the stream when they change).
        self._resource_subscriptions: tuple[str, ...] = ()
        self._listen_scope: anyio.CancelScope | None = None
        #: The last listing of each kind as the SDK's models (``tools``, ``prompts``,
        #: ``resources``, ``templates``), for :meth:`wire` (``mcp-tui check`` in the TUI).
        self._wire: dict[str, Sequence[Any]] = {}

    def attach(self, client: Client, tasks: anyio.abc.TaskGroup) -> None:
        """Use ``client``; background refreshes run in ``tasks`` (the connection's lifetime)."""
        self._client = client
        self._tasks = tasks

    # ---- refreshing -------------------------------------------------------------------------

    async def refresh_all(self) -> None:
        """List every kind the server offers and emit one ``CatalogChanged``."""
        client = self._client
        if client is None:
            return
        caps = client.server_capabilities
        offered = {
            "tools": caps.tools is not None,
            "prompts": caps.prompts is not None,
            "resources": caps.resources is not None,
        }
        # A connection pinned to 2026-07-28 without a discover result knows no capabilities:
        # try every kind, and take "method not found" as "none".
        unknown = not any(offered.values())
        results: dict[str, Any] = {}
        for kind in KINDS:
            if offered[kind] or unknown:
                results[kind] = await self._list(client, kind, quiet_if_missing=unknown)
            else:
                results[kind] = ()
            if results[kind] is not None:
                setattr(self, kind, results[kind])
        self._sink(
            CatalogChanged(
                self.server,
                tools=results["tools"],
                prompts=results["prompts"],
                resources=results["resources"],
                full=True,
            )
        )

    def changed(self, kind: Kind) -> None:
        """A ``list_changed`` notification: refresh that kind in the background (coalesced)."""
        if kind in self._running:
            self._dirty.add(kind)
            return
        if self._tasks is not None:
            self._running.add(kind)
            self._tasks.start_soon(self._refresh_kind, kind)

    async def _refresh_kind(self, kind: Kind) -> None:
        try:
            while True:
                self._dirty.discard(kind)
                client = self._client
                if client is None:
                    return
                value = await self._list(client, kind)
                if value is not None:
                    setattr(self, kind, value)
                    self._sink(_one_kind(self.server, kind, value))
                if kind not in self._dirty:
                    return
        finally:
            self._running.discard(kind)

    def set_subscriptions(self, uris: tuple[str, ...]) -> None:
        """2026-07-28: subscribe to exactly ``uris`` (the listen stream is opened again)."""
        self._resource_subscriptions = uris
        if self._listen_scope is not None:
            self._listen_scope.cancel()

    async def listen(self) -> None:
        """2026-07-28: hold a ``subscriptions/listen`` stream open for the list changes offered
        and the resources subscribed to, opening it again whenever the subscriptions change.

        The events themselves reach ``changed`` (and resource updates the connection) through
        the message handler; this only keeps the subscription alive and drains it.
        """
        client = self._client
        if client is None or client.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return
        caps = client.server_capabilities
        tools = bool(caps.tools and caps.tools.list_changed)
        prompts = bool(caps.prompts and caps.prompts.list_changed)
        resources = bool(caps.resources and caps.resources.list_changed)
        while True:
            uris = self._resource_subscriptions
            with anyio.CancelScope() as self._listen_scope:
                if tools or prompts or resources or uris:
                    try:
                        async with client.listen(
                            tools_list_changed=tools,
                            prompts_list_changed=prompts,
                            resources_list_changed=resources,
                            resource_subscriptions=uris,
                        ) as subscription:
                            async for _event in subscription:
                                pass
                    except Exception as exc:  # the server may not support listen; that is fine
                        log.debug("listen on %s ended: %s", self.server, exc)
                await anyio.sleep_forever()  # until the subscriptions change

    def wire(self) -> dict[str, list[dict[str, Any]] | None]:
        """The last listing of each kind as the JSON it came in (``None``: never listed)."""
        return {
            kind: [_json(item) for item in self._wire[kind]] if kind in self._wire else None
            for kind in ("tools", "prompts", "resources", "templates")
        }

    # ---- listing ----------------------------------------------------------------------------

    async def _list(
        self, client: Client, kind: Kind, *, quiet_if_missing: bool = False
    ) -> tuple[Any, ...] | None:
        try:
            if kind == "tools":
                tools = self._wire["tools"] = await _pages(client.list_tools, "tools")
                return tuple(convert.tool_info(t) for t in tools)
            if kind == "prompts":
                prompts = self._wire["prompts"] = await _pages(client.list_prompts, "prompts")
                return tuple(convert.prompt_info(p) for p in prompts)
            listed = self._wire["resources"] = await _pages(client.list_resources, "resources")
            resources = [convert.resource_info(r) for r in listed]
            try:
                templates = await _pages(client.list_resource_templates, "resource_templates")
            except Exception as exc:  # many servers have resources but no templates
                log.debug("%s: resources/templates/list failed: %s", self.server, exc)
                templates = []
            self._wire["templates"] = templates
            return tuple(resources + [convert.template_info(t) for t in templates])
        except Exception as exc:
            leaf = convert.primary_exception(exc)
            if quiet_if_missing and isinstance(leaf, MCPError) and leaf.code == METHOD_NOT_FOUND:
                return ()
            self._sink(
                Notice(
                    self.server,
                    f"listing {kind} failed: {convert.describe_exception(exc)}",
                    "warning",
                )
            )
            return None


def _json(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    dumped: dict[str, Any] = item.model_dump(by_alias=True, mode="json", exclude_unset=True)
    return dumped


async def _pages(fetch: Callable[..., Awaitable[Any]], field: str) -> Sequence[Any]:
    items: list[Any] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await fetch(cursor=cursor)
        items.extend(getattr(page, field))
        cursor = page.next_cursor
        if not cursor or len(items) >= MAX_ITEMS:
            break
    return items[:MAX_ITEMS]
