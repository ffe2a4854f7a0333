"""The demo's sampling tool: `summarize_issue` asks the client's model for one sentence.

Sampling (`sampling/createMessage`) on both eras, as elicitation is: on 2025-11-25 the tool sends
the request while the call is in flight and awaits the reply; on 2026-07-28 (where sampling is
deprecated but still defined) it returns an `input_required` result holding the request and reads
the reply from the retried call's `inputResponses`. In mcp-tui the "model" is the person (the
sampling review screen) or an answers file, so the tool is also what a test of a sampling path
looks like.
"""

from __future__ import annotations

import warnings
from typing import Annotated, Any

import mcp_types as types
from mcp.server.mcpserver import MCPServer
from pydantic import Field

from mcp_tui.demo.asking import DemoContext, is_modern
from mcp_tui.demo.catalog import ISSUES

SYSTEM_PROMPT = "You summarise issues of a bug tracker in one plain sentence."
MAX_TOKENS = 120


def _params(number: int) -> types.CreateMessageRequestParams:
    issue = next((i for i in ISSUES if i.number == number), None)
    if issue is None:
        text = f"Issue #{number} does not exist; say so in one sentence."
    else:
        labels = ", ".join(issue.labels) or "none"
        text = (
            f"Summarise issue #{issue.number} in one sentence: {issue.title!r} ({issue.state}, "
            f"labels: {labels}, {issue.comments} comments)."
        )
    return types.CreateMessageRequestParams(
        messages=[
            types.SamplingMessage(role="user", content=types.TextContent(type="text", text=text))
        ],
        system_prompt=SYSTEM_PROMPT,
        max_tokens=MAX_TOKENS,
        temperature=0.2,
    )


def _reply(number: int, result: Any) -> str:
    if not isinstance(result, types.CreateMessageResult):
        return f"No summary of #{number}: the client did not reply ({result})."
    content = result.content
    text = content.text if isinstance(content, types.TextContent) else f"({content.type})"
    return f"Summary of #{number} by {result.model}: {text}"


def register(server: MCPServer[Any]) -> None:
    """Add `summarize_issue`."""

    @server.tool(
        structured_output=False,
        title="Summarize an issue",
        description=(
            "Demonstrates sampling: asks the client's model (you, in mcp-tui: a review screen "
            "where you write the reply) to summarise one issue of the demo tracker in a sentence "
            "(sampling/createMessage; inside an input_required result on 2026-07-28), then "
            "returns the reply with the model name reported."
        ),
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    async def summarize_issue(
        ctx: DemoContext,
        number: Annotated[int, Field(description="The issue to summarise (101-112).")] = 101,
    ) -> str | types.InputRequiredResult:
        params = _params(number)
        if not is_modern(ctx):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # sampling is deprecated on 2026-07-28 only
                    result = await ctx.session.create_message(
                        params.messages,
                        max_tokens=params.max_tokens,
                        system_prompt=params.system_prompt,
                        temperature=params.temperature,
                        related_request_id=ctx.request_id,
                    )
            except Exception as exc:  # the client declined or cancelled (error -1)
                return _reply(number, getattr(getattr(exc, "error", None), "message", str(exc)))
            return _reply(number, result)
        answer = (ctx.input_responses or {}).get("summary")
        if answer is None:
            request = types.CreateMessageRequest(params=params)
            return types.InputRequiredResult(input_requests={"summary": request})
        return _reply(number, answer)
