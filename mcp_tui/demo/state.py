"""What the demo server remembers: its projects and whether the demo account is connected.

One `DemoState` belongs to one `build_server()` result, so every test that builds its own server
starts clean, and all clients of one HTTP demo share a world (as they would on a real service).

The account connection is the URL-mode story. A *link* is the page the user visits
(`/connect/<token>` on the local page server); while the account is not connected, every tool
that needs it hands out the same pending link, so a client that retries without the user having
finished sees the same URL again and can notice the loop. Each URL-mode elicitation gets its own
`elicitationId`; on 2025-11-25 the elicitations waiting on a link are remembered with the session
that asked, so pressing the page's button can send `notifications/elicitation/complete` for each.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import anyio
from mcp.server.session import ServerSession
from mcp_types import RequestId

logger = logging.getLogger(__name__)

ACCOUNT_NAME = "demo-user@example.com"
"""The account the connect page pretends to sign in."""

MAX_WAITERS = 32
"""Elicitations remembered per link for their completion notification."""

NOTIFY_TIMEOUT_SECONDS = 5.0
"""How long one completion notification may take before the page stops waiting for it."""


@dataclass
class Project:
    """A fake project for the delete / open flows and the project resources."""

    name: str
    title: str
    description: str
    environments: int
    files: int
    updated: str


def default_projects() -> dict[str, Project]:
    """Five projects, three of which match "api" (the ambiguity the open flow resolves)."""
    projects = [
        Project(
            "payments-api", "Payments API", "REST API for card payments", 3, 1204, "2 days ago"
        ),
        Project(
            "api-gateway", "API gateway", "Edge routing and rate limits", 2, 311, "5 hours ago"
        ),
        Project(
            "legacy-api-v1",
            "Legacy API v1",
            "Read-only; retired next quarter",
            1,
            5120,
            "8 months ago",
        ),
        Project("website", "Website", "Marketing site and docs", 2, 877, "yesterday"),
        Project("mobile-app", "Mobile app", "iOS and Android client", 4, 2950, "3 weeks ago"),
    ]
    return {p.name: p for p in projects}


@dataclass
class Waiter:
    """A 2025-11-25 URL elicitation to announce as complete when its link's page is done.

    `related_request_id` is set while the tool that asked is still running (the notification then
    travels with that request, e.g. on its HTTP response stream) and `None` afterwards (the
    connection's standalone channel).
    """

    elicitation_id: str
    session: ServerSession
    related_request_id: RequestId | None


@dataclass
class AccountLink:
    """One connect page: its secret token, whether it was completed, and who waits for it."""

    token: str
    done: anyio.Event = field(default_factory=anyio.Event)
    waiters: list[Waiter] = field(default_factory=list)


class DemoState:
    """The demo's mutable world. Only ever touched from the server's event loop."""

    def __init__(self) -> None:
        self.projects = default_projects()
        self.account: str | None = None
        self._pending: AccountLink | None = None
        self._links: dict[str, AccountLink] = {}
        self._elicitations = 0
        #: The level the client asked for with ``logging/setLevel`` (2025-11-25), if any.
        self.log_level: str | None = None

    @property
    def connected(self) -> bool:
        return self.account is not None

    def pending_link(self) -> AccountLink:
        """The link to hand out now: the same one until it is completed or the user disconnects."""
        if self._pending is None or self._pending.done.is_set():
            self._pending = AccountLink(token=secrets.token_urlsafe(16))
            self._links[self._pending.token] = self._pending
        return self._pending

    def link(self, token: str) -> AccountLink | None:
        return self._links.get(token)

    def new_elicitation_id(self) -> str:
        """A fresh `elicitationId`: unique per elicitation, unguessable, readable in a log."""
        self._elicitations += 1
        return f"connect-{self._elicitations}-{secrets.token_hex(4)}"

    def add_waiter(self, link: AccountLink, waiter: Waiter) -> None:
        """Remember `waiter` until `link` completes (only the newest few: a client that keeps
        retrying without the user ever finishing must not grow this without bound)."""
        link.waiters.append(waiter)
        del link.waiters[:-MAX_WAITERS]

    def forget(self, link: AccountLink, waiter: Waiter) -> None:
        """The user declined: there will be no completion to announce for this elicitation."""
        if waiter in link.waiters:
            link.waiters.remove(waiter)

    @contextmanager
    def waiting(self, link: AccountLink, waiter: Waiter) -> Iterator[None]:
        """Register `waiter` on `link`; when the asking request ends first, detach it from that
        request so a later completion is still announced, on the standalone channel."""
        self.add_waiter(link, waiter)
        try:
            yield
        finally:
            waiter.related_request_id = None

    async def complete(self, token: str) -> bool:
        """The page's button was pressed: connect the account and announce every elicitation
        waiting on this link. False for an unknown or expired token."""
        link = self._links.get(token)
        if link is None:
            return False
        if link.done.is_set():
            return True
        self.account = ACCOUNT_NAME
        waiters, link.waiters = link.waiters, []
        for waiter in waiters:
            await self._announce(waiter)
        # Set after the notifications, so a tool that waits on the link returns its result after
        # the client has heard that the elicitation completed.
        link.done.set()
        return True

    async def _announce(self, waiter: Waiter) -> None:
        with anyio.move_on_after(NOTIFY_TIMEOUT_SECONDS):
            try:
                await waiter.session.send_elicit_complete(
                    waiter.elicitation_id, related_request_id=waiter.related_request_id
                )
            except Exception:  # the client may be gone; the account is connected regardless
                logger.info(
                    "Could not announce %s as complete", waiter.elicitation_id, exc_info=True
                )

    def disconnect(self) -> bool:
        """Forget the connection and every link, so the URL flow can be shown again."""
        was = self.connected
        self.account = None
        self._pending = None
        self._links.clear()
        return was
