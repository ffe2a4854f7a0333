"""The SDK's ``sampling_callback``: from ``CreateMessageRequestParams`` to a person and back.

One :class:`SamplingBridge` per connection, next to its :class:`ElicitationBridge`, whose front
door it shares (:meth:`ElicitationBridge.guarded`): the handshake check, the repeated-id check,
the anti-spam gate and its "stop asking" toggle are the same for both kinds of request, so a
server cannot get round the rate limit by switching from forms to sampling. Then:

1. the server's policy (``sampling = "decline" | "cancel"``) answers at once, with a notice;
2. the request becomes a :class:`SamplingRequest` (:func:`to_request`): plain, readable data;
   images and audio are described, never decoded;
3. the handler's :class:`SamplingOutcome` becomes the wire answer in one function,
   :func:`to_result`: accept is a ``CreateMessageResult`` with the person's text, the model name
   they chose and the stop reason; decline and cancel are the error the spec names for a
   rejected request (-1), with a message saying which.

Never raises (cancellation aside): a failure becomes the -1 error plus a notice.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Literal

import mcp_types as types
from mcp.client.session import ClientRequestContext

from mcp_tui.config.servers import ElicitationPolicy
from mcp_tui.session.elicitation_bridge import ElicitationBridge, related_task
from mcp_tui.session.events import Notice
from mcp_tui.session.sampling import (
    SamplingHandler,
    SamplingMessage,
    SamplingOutcome,
    SamplingPart,
    SamplingRequest,
    SamplingTool,
    new_tool_use_id,
)
from mcp_tui.untrusted import one_line

log = logging.getLogger(__name__)

#: The spec's error code for "User rejected sampling request" (outside JSON-RPC's range).
USER_REJECTED = -1
Severity = Literal["information", "warning", "error"]

_REFUSALS = {
    "decline": "User rejected sampling request",
    "cancel": "User dismissed the sampling request without answering",
}


def _size(data: str) -> str:
    """The decoded size of base64 ``data``, readable ("3.1 kB"); never decodes it."""
    size = len(data) * 3 // 4
    if size < 1000:
        return f"{size} B"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB"
    return f"{size / 1_000_000:.1f} MB"


def _json(value: Any) -> str:
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        return repr(value)


def describe_block(block: Any) -> SamplingPart:
    """One content block as text a person can read (see :class:`SamplingPart`)."""
    kind = str(getattr(block, "type", "unknown"))
    if isinstance(block, types.TextContent):
        return SamplingPart("text", block.text)
    if isinstance(block, types.ImageContent | types.AudioContent):
        what = "image" if kind == "image" else "audio"
        return SamplingPart(
            kind,
            f"[{what}: {one_line(block.mime_type, limit=80)}, {_size(block.data)}; not shown]",
        )
    if isinstance(block, types.ToolUseContent):
        return SamplingPart(
            kind,
            f"[tool use {one_line(block.name, limit=80)} (id {one_line(block.id, limit=80)})]\n"
            + _json(block.input),
        )
    if isinstance(block, types.ToolResultContent):
        inner = [describe_block(b).text for b in block.content]
        if block.structured_content is not None:
            inner.append(_json(block.structured_content))
        error = " (error)" if block.is_error else ""
        head = f"[tool result for {one_line(block.tool_use_id, limit=80)}{error}]"
        return SamplingPart(kind, "\n".join([head, *inner]))
    return SamplingPart(kind, f"[{one_line(kind, limit=40)} content; not shown]")


def to_request(
    server: str,
    params: types.CreateMessageRequestParams,
    *,
    tool: str | None = None,
    call_id: int | None = None,
    request_key: str | int | None = None,
    protocol_version: str | None = None,
    meta: Any = None,
) -> SamplingRequest:
    """The request as plain data for a person (or an answers file) to answer."""
    prefs = params.model_preferences
    hints = tuple(h.name for h in (prefs.hints or []) if h.name) if prefs else ()
    tools = tuple(
        SamplingTool(t.name, t.description, _json(t.input_schema)) for t in params.tools or ()
    )
    return SamplingRequest(
        server=server,
        messages=tuple(
            SamplingMessage(m.role, tuple(describe_block(b) for b in m.content_as_list))
            for m in params.messages
        ),
        max_tokens=params.max_tokens,
        system_prompt=params.system_prompt,
        temperature=params.temperature,
        stop_sequences=tuple(params.stop_sequences or ()),
        model_hints=hints,
        cost_priority=prefs.cost_priority if prefs else None,
        speed_priority=prefs.speed_priority if prefs else None,
        intelligence_priority=prefs.intelligence_priority if prefs else None,
        include_context=params.include_context,
        tools=tools,
        tool_choice=params.tool_choice.mode if params.tool_choice else None,
        metadata=_json(params.metadata) if params.metadata is not None else None,
        tool=tool,
        call_id=call_id,
        request_key=request_key,
        protocol_version=protocol_version,
        related_task=related_task(meta if meta is not None else params.meta),
        params=params.model_dump(mode="json", by_alias=True, exclude_none=True),
    )


def to_result(
    outcome: SamplingOutcome,
) -> types.CreateMessageResult | types.CreateMessageResultWithTools | types.ErrorData:
    """The one mapping from the person's outcome to the wire answer. A tool use is a
    ``CreateMessageResultWithTools`` (the text first when there is any, then the ``tool_use``
    block with a fresh id), stop reason ``toolUse``."""
    if outcome.action != "accept":
        return types.ErrorData(code=USER_REJECTED, message=_REFUSALS[outcome.action])
    if outcome.tool_use is not None:
        blocks: list[types.SamplingMessageContentBlock] = []
        if outcome.text.strip():
            blocks.append(types.TextContent(type="text", text=outcome.text))
        blocks.append(
            types.ToolUseContent(
                type="tool_use",
                name=outcome.tool_use.name,
                id=outcome.tool_use.id or new_tool_use_id(),
                input=dict(outcome.tool_use.input),
            )
        )
        return types.CreateMessageResultWithTools(
            role="assistant",
            content=blocks,
            model=outcome.model.strip() or "human",
            stop_reason="toolUse",
        )
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text=outcome.text),
        model=outcome.model.strip() or "human",
        stop_reason=outcome.stop_reason or None,
    )


def result_json(outcome: SamplingOutcome) -> dict[str, Any]:
    """:func:`to_result` as the JSON the server receives: what the wire panel shows."""
    return to_result(outcome).model_dump(mode="json", by_alias=True, exclude_none=True)


class SamplingBridge:
    """The ``sampling_callback`` of one connection (see the module docstring)."""

    def __init__(
        self,
        front: ElicitationBridge,
        handler: SamplingHandler,
        *,
        policy: ElicitationPolicy = "ask",
    ) -> None:
        self.front = front
        self.handler = handler
        self.policy = policy

    @property
    def server(self) -> str:
        return self.front.server

    async def __call__(
        self, context: ClientRequestContext, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult | types.CreateMessageResultWithTools | types.ErrorData:
        summary = _summary(params)
        try:
            return await self.front.guarded(
                context,
                summary,
                lambda: self._answer(context, params, summary),
                lambda: to_result(SamplingOutcome.cancel()),
                what="a sampling request",
            )
        except Exception as exc:  # never raise into the SDK: the server gets "rejected"
            log.exception("sampling for %s failed", self.server)
            self._notice(f"a sampling request was refused after an error: {exc}", "error")
            return to_result(SamplingOutcome.cancel())

    async def _answer(
        self,
        ctx: ClientRequestContext,
        params: types.CreateMessageRequestParams,
        summary: str,
    ) -> types.CreateMessageResult | types.CreateMessageResultWithTools | types.ErrorData:
        if self.policy != "ask":
            verb = "declined" if self.policy == "decline" else "cancelled"
            self._notice(
                f"{verb} a sampling request automatically (sampling = {self.policy!r} for this "
                f"server): {one_line(summary, limit=120)}"
            )
            return to_result(SamplingOutcome(self.policy))
        call = self.front.calls.attribute()
        request = to_request(
            self.server,
            params,
            tool=call.tool if call else None,
            call_id=call.call_id if call else None,
            request_key=ctx.request_id if isinstance(ctx.request_id, str | int) else None,
            protocol_version=self.front.protocol_version(),
            meta=ctx.meta,
        )
        outcome = await self.handler.sample(request)
        if outcome.action == "accept" and outcome.tool_use is None and not outcome.text.strip():
            # A blank reply is no model answer, whoever gave it (an answers file, a chat model
            # that said nothing): the server must not take it for one.
            self._notice(
                "a sampling reply was blank, so it was not sent as the model's answer (the "
                f"request was cancelled): {one_line(summary, limit=120)}",
                "warning",
            )
            return to_result(SamplingOutcome.cancel())
        return to_result(outcome)

    def _notice(self, text: str, severity: Severity = "information") -> None:
        self.front.sink(Notice(self.server, text, severity))


def _summary(params: types.CreateMessageRequestParams) -> str:
    """The last message's first text, to name the request in notices."""
    for message in reversed(params.messages):
        for block in message.content_as_list:
            if isinstance(block, types.TextContent):
                return block.text
    return f"{len(params.messages)} message(s)"
