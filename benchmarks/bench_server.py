"""The stdio MCP server every benchmark talks to: the floors and mcp-tui see the same server.

Tools:

- ``bench_ready_marker`` and a few ordinary tools: their names are what "tools listed on screen"
  waits for (the marker name appears nowhere else).
- ``ask(fields, count, options)``: ``count`` elicitations in a row, each a form of ``fields``
  string fields with defaults (or, with ``options > 0``, one enum field of that many options).
  The server times each round trip itself (send -> answer received), so a floor client and
  mcp-tui are timed by the same clock in the same place. Both protocol eras: 2025 eras send
  ``elicitation/create`` mid-call; 2026-07-28 returns ``input_required`` rounds.
- ``flood(rate, seconds)``: ``rate`` log notifications per second for ``seconds``, in ticks of
  10 ms, then returns how many it sent.

Run: ``python benchmarks/bench_server.py`` (stdio). Used only by ``benchmarks/``.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

import anyio
import mcp_types as types
from mcp.server.mcpserver import Context, MCPServer
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

server = MCPServer("bench", version="1.0")


def form_schema(fields: int, options: int) -> dict[str, Any]:
    """``fields`` text fields with defaults, or one select of ``options`` options."""
    if options > 0:
        values = [f"option {i:05d}" for i in range(1, options + 1)]
        properties: dict[str, Any] = {
            "choice": {"type": "string", "title": "Choice", "enum": values, "default": values[0]}
        }
        return {"type": "object", "properties": properties, "required": ["choice"]}
    properties = {
        f"field_{i:03d}": {
            "type": "string",
            "title": f"Field {i}",
            "description": f"text field number {i}",
            "default": f"value {i}",
        }
        for i in range(1, fields + 1)
    }
    return {"type": "object", "properties": properties}


def summary(rtts: list[float], actions: list[str]) -> str:
    ms = [round(r * 1000, 3) for r in rtts]
    return json.dumps(
        {
            "count": len(ms),
            "median_ms": statistics.median(ms) if ms else None,
            "rtt_ms": ms,
            "actions": actions,
        }
    )


@server.tool()
async def bench_ready_marker() -> str:
    """Does nothing; its name marks "the tool list is on screen"."""
    return "ready"


@server.tool()
async def echo(text: str = "hello") -> str:
    """Returns its text."""
    return text


@server.tool()
async def add(a: int = 1, b: int = 2) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
async def ask(
    ctx: Context, fields: int = 1, count: int = 1, options: int = 0
) -> str | types.InputRequiredResult:
    """Ask ``count`` forms in a row; return the round-trip times measured here."""
    schema = form_schema(fields, options)
    message = f"bench form: {fields} fields, {options} options"
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return _ask_rounds(ctx, schema, message, count)
    rtts: list[float] = []
    actions: list[str] = []
    for _ in range(count):
        started = time.perf_counter()
        result = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
        rtts.append(time.perf_counter() - started)
        actions.append(result.action)
    return summary(rtts, actions)


def _ask_rounds(
    ctx: Context, schema: dict[str, Any], message: str, count: int
) -> str | types.InputRequiredResult:
    """2026-07-28: one ``input_required`` round per form; the state carries the timings."""
    state = json.loads(ctx.request_state) if ctx.request_state else {"rtts": [], "actions": []}
    answer = (ctx.input_responses or {}).get("form")
    if answer is not None and "sent" in state:
        state["rtts"].append(time.monotonic() - state.pop("sent"))
        state["actions"].append(getattr(answer, "action", "?"))
    if len(state["rtts"]) >= count:
        return summary(state["rtts"], state["actions"])
    state["sent"] = time.monotonic()
    request = types.ElicitRequest(
        params=types.ElicitRequestFormParams(message=message, requested_schema=schema)
    )
    return types.InputRequiredResult(
        input_requests={"form": request}, request_state=json.dumps(state)
    )


@server.tool()
async def flood(ctx: Context, rate: int = 1000, seconds: float = 5.0) -> str:
    """Send ``rate`` log notifications per second for ``seconds``."""
    tick = 0.01
    per_tick = max(1, round(rate * tick))
    sent = 0
    started = time.monotonic()
    deadline = started + seconds
    next_tick = started
    while time.monotonic() < deadline:
        for _ in range(per_tick):
            sent += 1
            await ctx.info(f"flood line {sent}: the quick brown fox jumps over the lazy dog")
        next_tick += tick
        await anyio.sleep(max(0.0, next_tick - time.monotonic()))
    elapsed = time.monotonic() - started
    return json.dumps({"sent": sent, "seconds": round(elapsed, 3), "rate": round(sent / elapsed)})


if __name__ == "__main__":
    server.run("stdio")
