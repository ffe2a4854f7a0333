"""A server with background tasks on 2026-07-28, written as FastMCP's documentation shows: the
``fastmcp-tasks`` extension (``io.modelcontextprotocol/tasks``, SEP-2663) registered on a
``FastMCP`` server, tools marked ``task=TaskConfig(...)``, progress with ``ctx.report_progress``
(it becomes the task's ``statusMessage``), and input asked by the guard pattern (return an
``InputRequiredResult``; the task waits in ``input_required`` until ``tasks/update`` answers,
then the tool runs again with ``ctx.input_responses``). The backend is the in-memory one
(``memory://``, no Redis). Runs over stdio, in its own virtualenv (``tests/interop/venvs``).

Tools:
- ``count(n)``: counts to ``n`` slowly, one progress message per step;
- ``confirm_delete(filename)``: asks "Delete FILE?" (a boolean form), then says what it did;
- ``write_haiku(topic)``: asks the client's model for a haiku (``sampling/createMessage``);
- ``wait_forever()``: works until cancelled;
- ``plain()``: no task support (an ordinary call).

With ``PORT`` set it serves Streamable HTTP on 127.0.0.1 instead of stdio, and records the routing
headers of each POST in ``HEADERS_LOG``.
"""

from __future__ import annotations

import asyncio
import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import uvicorn
from fastmcp import Context, FastMCP
from fastmcp.utilities.tasks import TaskConfig
from fastmcp_tasks import TasksExtension
from mcp_types import (
    CreateMessageRequest,
    CreateMessageRequestParams,
    ElicitRequest,
    ElicitRequestFormParams,
    InputRequiredResult,
    SamplingMessage,
    TextContent,
)

mcp = FastMCP("fastmcp-tasks-demo")
mcp.add_extension(TasksExtension(url="memory://"))

#: Polling this server asks for (``pollIntervalMs``): short, so the tests end quickly.
POLL = timedelta(milliseconds=200)


@mcp.tool(task=TaskConfig(mode="required", poll_interval=POLL))
async def count(n: int, ctx: Context) -> str:
    for i in range(1, n + 1):
        await ctx.report_progress(i, n, f"step {i} of {n}")
        await asyncio.sleep(0.3)
    return f"counted to {n}"


CONFIRM = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "title": "Delete it?"}},
    "required": ["confirm"],
}


@mcp.tool(task=TaskConfig(mode="required", poll_interval=POLL), output_schema=None)
async def confirm_delete(filename: str, ctx: Context) -> str | InputRequiredResult:
    answer = (ctx.input_responses or {}).get("confirm")
    if answer is None:
        ask = ElicitRequestFormParams(message=f"Delete {filename}?", requested_schema=CONFIRM)
        return InputRequiredResult(input_requests={"confirm": ElicitRequest(params=ask)})
    action = getattr(answer, "action", None)
    content = getattr(answer, "content", None) or {}
    if action == "accept" and content.get("confirm") is True:
        return f"Deleted {filename!r}"
    return f"Kept {filename!r} ({action})"


@mcp.tool(task=TaskConfig(mode="required", poll_interval=POLL), output_schema=None)
async def write_haiku(topic: str, ctx: Context) -> str | InputRequiredResult:
    reply = (ctx.input_responses or {}).get("haiku")
    if reply is None:
        message = SamplingMessage(
            role="user", content=TextContent(type="text", text=f"A haiku about {topic}")
        )
        ask = CreateMessageRequestParams(messages=[message], max_tokens=60)
        return InputRequiredResult(input_requests={"haiku": CreateMessageRequest(params=ask)})
    content = getattr(reply, "content", None)
    return f"Haiku:\n{getattr(content, 'text', '')}"


@mcp.tool(task=TaskConfig(mode="required", poll_interval=POLL))
async def wait_forever(ctx: Context) -> str:
    await ctx.report_progress(0, None, "waiting")
    await asyncio.sleep(3600)
    return "woke up"


@mcp.tool
def plain() -> str:
    return "plain result"


def record_routing_headers(app: Any, log: Path) -> Any:
    """An ASGI wrapper that appends each POST's ``Mcp-Method`` and ``Mcp-Name`` headers to
    ``log`` (one JSON line each), for the tests to read what a client routes a task request by."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            got = {k: headers.get(k) for k in ("mcp-method", "mcp-name")}
            with log.open("a", encoding="utf-8") as out:
                out.write(json.dumps(got) + "\n")
        await app(scope, receive, send)

    return wrapped


if __name__ == "__main__":
    port = os.environ.get("PORT")
    if port is None:
        mcp.run(show_banner=False)
    else:  # Streamable HTTP on loopback only
        app = record_routing_headers(mcp.http_app(), Path(os.environ["HEADERS_LOG"]))
        uvicorn.run(app, host="127.0.0.1", port=int(port), log_level="warning")
