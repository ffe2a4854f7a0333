"""Floors made of the bare ``mcp`` SDK client, talking to ``bench_server.py`` over stdio.

``python benchmarks/floor_sdk.py list [--mode M]``: connect, list the tools, print their names,
close. The connection floor: the benchmark times process start -> the marker tool's name printed.

``python benchmarks/floor_sdk.py elicit [--count N] [--fields F] [--mode M]``: call
``ask`` with an elicitation callback that accepts at once with every field's default; prints the
server's JSON summary (per-round-trip times measured by the server). The round-trip floor.

No mcp-tui code is imported: this is what any SDK user would write.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client import ClientRequestContext

SERVER = Path(__file__).with_name("bench_server.py")


def params() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(SERVER)])


async def accept_defaults(
    ctx: ClientRequestContext, request: types.ElicitRequestParams
) -> types.ElicitResult:
    if not isinstance(request, types.ElicitRequestFormParams):
        return types.ElicitResult(action="decline")
    properties: dict[str, Any] = request.requested_schema.get("properties", {})
    content = {name: prop.get("default") for name, prop in properties.items()}
    return types.ElicitResult(action="accept", content=content)


async def list_tools(mode: str) -> None:
    async with Client(params(), mode=mode) as client:  # type: ignore[arg-type]
        result = await client.list_tools()
        print(" ".join(tool.name for tool in result.tools), flush=True)


async def elicit(mode: str, count: int, fields: int) -> None:
    async with Client(params(), mode=mode, elicitation_callback=accept_defaults) as client:  # type: ignore[arg-type]
        result = await client.call_tool("ask", {"fields": fields, "count": count})
        for block in result.content:
            if isinstance(block, types.TextContent):
                print(block.text, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("list", "elicit"))
    parser.add_argument("--mode", default="auto")
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--fields", type=int, default=1)
    args = parser.parse_args()
    if args.what == "list":
        anyio.run(list_tools, args.mode)
    else:
        anyio.run(elicit, args.mode, args.count, args.fields)


if __name__ == "__main__":
    main()
