"""Helpers for the tests in this folder: drive the demo server with the SDK's own `mcp.Client`.

Every flow is run on both protocol eras: `mode="legacy"` negotiates 2025-11-25 (the server sends
`elicitation/create` mid-call) and `mode="auto"` negotiates 2026-07-28 (the server returns
`input_required` results and `Client` repeats the call). A `Script` answers the elicitations in
order and records exactly what the client was asked.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

# Before any MCPServer exists: it would otherwise install a Rich handler on the root logger.
if not logging.getLogger().handlers:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)

import mcp_types as types
from mcp import Client
from mcp.client import ClientRequestContext

from mcp_tui.demo.server import build_server

MODES = ["legacy", "auto"]
"""Client modes: legacy gives 2025-11-25, auto gives 2026-07-28 against the demo."""

ERA = {"legacy": "2025-11-25", "auto": "2026-07-28"}

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
        self, ctx: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        self.asked.append(Asked(ctx.request_id, params))
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
    """Notifications in arrival order (as `(kind, detail)`), for ordering assertions."""

    seen: list[tuple[str, str]] = field(default_factory=list)

    async def on_message(self, message: object) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            self.seen.append(("complete", message.params.elicitation_id))

    def completed(self) -> list[str]:
        return [detail for kind, detail in self.seen if kind == "complete"]


@asynccontextmanager
async def demo_client(
    mode: str, answers: Script | None = None, server: Any = None, **kwargs: Any
) -> AsyncIterator[Client]:
    """An in-memory `Client` on a fresh demo server, checked to be on the expected era."""
    target = server if server is not None else build_server()
    if answers is not None:
        kwargs.setdefault("elicitation_callback", answers)
    async with Client(target, mode=mode, **kwargs) as client:  # type: ignore[arg-type]
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
