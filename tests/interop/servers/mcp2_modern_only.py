"""A server with the ``mcp`` 2.3 SDK whose tool is written only for 2026-07-28, as the SDK's
``stories/mrtr`` server and fast-agent's ``url_server.py`` are: ``confirm_order`` returns an
``InputRequiredResult`` on its first round whatever the era, and the answer on the next one.
On a 2025-11-25 connection the SDK refuses that result with -32603 "Handler returned an invalid
result". ``echo`` works on both eras. Runs over stdio in its own virtualenv.
"""

from __future__ import annotations

import json

import mcp_types as types
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("modern-only")

SCHEMA = {
    "type": "object",
    "properties": {"quantity": {"type": "integer", "minimum": 1, "default": 1}},
    "required": ["quantity"],
}


@mcp.tool()
async def confirm_order(item: str, ctx: Context) -> str | types.InputRequiredResult:
    """Order ITEM after asking how many (2026-07-28 only)."""
    answer = (ctx.input_responses or {}).get("quantity")
    if answer is None:
        ask = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message=f"How many {item}?", requested_schema=SCHEMA
            )
        )
        return types.InputRequiredResult(input_requests={"quantity": ask}, request_state="r1")
    content = getattr(answer, "content", None)
    return json.dumps({"item": item, "action": answer.action, "content": content})


@mcp.tool()
async def echo(text: str) -> str:
    """Say TEXT back (both eras)."""
    return text


if __name__ == "__main__":
    mcp.run()
