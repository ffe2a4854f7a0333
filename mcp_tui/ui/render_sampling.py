"""Transcript entries for sampling requests: what the server asked, and the reply sent.

The same shape as the elicitation entries in ``render.py`` (an answer is drawn by its
``answered_entry``): a bounded literal summary inline and the full text for the detail
view. Every server string goes through :mod:`mcp_tui.ui.literal`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from textual.content import Content

from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.render import (
    ANSWERED,
    Block,
    Entry,
    answered_entry,
    block,
    entry_from,
    server_block,
)
from mcp_tui.ui.shown_names import shown_name


def _conversation(request: SamplingRequest) -> str:
    lines = []
    if request.system_prompt:
        lines.append(f"[system] {request.system_prompt}")
    for message in request.messages:
        for part in message.parts:
            lines.append(f"[{message.role}] {part.text}")
    return "\n".join(lines)


def sampling_shown_entry(request: SamplingRequest, waiting: int) -> Entry:
    """The request arrived and is on screen: who asks, and the conversation to answer."""
    count = len(request.messages)
    heading = (
        f"{shown_name(request.server)} asks for a model reply (sampling, {count} message"
        f"{'s' if count != 1 else ''}, maxTokens {request.max_tokens})"
        + (f" — {waiting} more waiting" if waiting else "")
        + (f" during {request.tool}" if request.tool else "")
    )
    conversation = _conversation(request)
    parts: list[Content | Block] = [
        Content.assemble(("? ", "bold $warning"), literal_line(heading, style="bold")),
        server_block(block(conversation)),
    ]
    return entry_from("elicitation", parts, f"{heading}\n{conversation}", heading)


def sampling_finished_entry(
    request: SamplingRequest,
    outcome: SamplingOutcome,
    abandoned_input: Mapping[str, str] | None,
) -> Entry:
    """The reply exactly as sent (text, model, stop reason), or decline / cancel."""
    verb = "replied" if outcome.action == "accept" else ANSWERED[outcome.action]
    heading = f"{shown_name(request.server)}: sampling {verb}"
    sent = []
    if outcome.action == "accept":
        heading += f" as model {outcome.model!r}, stopReason {outcome.stop_reason}"
        sent.append(outcome.text)
        if outcome.tool_use is not None:
            sent.append(f"tool use {outcome.tool_use.name} {json.dumps(outcome.tool_use.input)}")
    typed = "\n".join(abandoned_input.values()) if abandoned_input else None
    closed = "the request closed before the reply was sent"
    return answered_entry(heading, outcome, sent, typed, closed)
