"""Helpers for the tests in this folder: drive the demo server with the SDK's own `mcp.Client`.

Every flow is run on both protocol eras: `mode="legacy"` negotiates 2025-11-25 (the server sends
`elicitation/create` mid-call) and `mode="auto"` negotiates 2026-07-28 (the server returns
`input_required` results and `Client` repeats the call). A `Script` answers the elicitations in
order and records exactly what the client was asked.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any
from urllib.parse import urljoin

# Before any MCPServer exists: it would otherwise install a Rich handler on the root logger.
if not logging.getLogger().handlers:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)

import anyio
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client import ClientRequestContext

from mcp_tui.demo.server import build_server

MODES = ["legacy", "auto"]
"""Client modes: legacy gives 2025-11-25, auto gives 2026-07-28 against the demo."""

ERA = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}

Answer = types.ElicitResult | Callable[[types.ElicitRequestParams], Awaitable[types.ElicitResult]]


def accept(**content: Any) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content=content)


def decline() -> types.ElicitResult:
    return types.ElicitResult(action="decline")


def cancel() -> types.ElicitResult:
    return types.ElicitResult(action="cancel")


@dataclass
class Asked:
    """One elicitation as the client's callback saw it."""

    key: str | int
    """`ctx.request_id`: the JSON-RPC id (2025) or the `inputRequests` key (2026)."""
    params: types.ElicitRequestParams

    @property
    def form(self) -> types.ElicitRequestFormParams:
        assert isinstance(self.params, types.ElicitRequestFormParams), self.params
        return self.params

    @property
    def url(self) -> types.ElicitRequestURLParams:
        assert isinstance(self.params, types.ElicitRequestURLParams), self.params
        return self.params


@dataclass
class Script:
    """Answers elicitations in order; an unexpected extra question is recorded and cancelled."""

    answers: list[Answer]
    asked: list[Asked] = field(default_factory=list)
    unexpected: int = 0

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        self.asked.append(Asked(context.request_id, params))
        if not self.answers:
            self.unexpected += 1
            return cancel()
        answer = self.answers.pop(0)
        if isinstance(answer, types.ElicitResult):
            return answer
        return await answer(params)

    def assert_done(self) -> None:
        assert self.answers == [], f"{len(self.answers)} scripted answers were never asked for"
        assert self.unexpected == 0, "the server asked more questions than scripted"


def script(*answers: Answer) -> Script:
    return Script(list(answers))


@dataclass
class Events:
    """Completion notifications and call results in arrival order, for ordering assertions."""

    seen: list[tuple[str, str]] = field(default_factory=list)
    changed: anyio.Event = field(default_factory=anyio.Event)

    async def on_message(self, message: object) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            self.seen.append(("complete", message.params.elicitation_id))
            self.changed.set()
            self.changed = anyio.Event()

    def result(self, name: str) -> None:
        self.seen.append(("result", name))

    def completed(self) -> list[str]:
        return [detail for kind, detail in self.seen if kind == "complete"]

    async def wait_for_completion(self, elicitation_id: str) -> None:
        """Wait (with a generous hang guard, not a timing assertion) for that id's notice."""
        with anyio.fail_after(10):
            while elicitation_id not in self.completed():
                await self.changed.wait()


@asynccontextmanager
async def demo_client(
    mode: str, answers: Script | None = None, server: Any = None, **kwargs: Any
) -> AsyncIterator[Client]:
    """An in-memory `Client` on a fresh demo server, checked to be on the expected era."""
    target = server if server is not None else build_server()
    if answers is not None:
        kwargs.setdefault("elicitation_callback", answers)
    async with Client(target, mode=mode, **kwargs) as client:
        assert client.protocol_version == ERA[mode]
        yield client


def text_of(result: types.CallToolResult) -> str:
    """The single text block of a tool result."""
    assert len(result.content) == 1, result.content
    block = result.content[0]
    assert isinstance(block, types.TextContent), block
    return block.text


def next_weekday(weekday: int, after: date | None = None) -> date:
    """The first day strictly after `after` (default today) that falls on `weekday` (Mon=0)."""
    day = (after or date.today()) + timedelta(days=1)
    while day.weekday() != weekday:
        day += timedelta(days=1)
    return day


def spelled(day: date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


# -- the connect page, pressed like a browser would ---------------------------------------------

CONNECT_URL = re.compile(r"http://127\.0\.0\.1:(\d+)/connect/([A-Za-z0-9_-]{16,})")


def page_client() -> httpx2.AsyncClient:
    """Plain HTTP to the loopback page: no proxies from the environment, a hang guard."""
    return httpx2.AsyncClient(trust_env=False, timeout=10)


async def press_connect(url: str) -> str:
    """Open the connect page at `url`, then submit its form; returns the resulting page."""
    assert CONNECT_URL.fullmatch(url), url
    async with page_client() as http:
        page = await http.get(url)
        assert page.status_code == 200, page.text
        action = re.search(r"<form method='post' action='([^']+)'>", page.text)
        assert action is not None, page.text
        done = await http.post(urljoin(url, action.group(1)))
    assert done.status_code == 200, done.text
    return done.text


def complete_url(url: str) -> str:
    return url.replace("/connect/", "/complete/")
