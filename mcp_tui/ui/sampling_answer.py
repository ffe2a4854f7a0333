"""What Ctrl+S on the sampling review screen sends now, or why it sends nothing.

One function, :func:`answer`, from the values on the screen to the :class:`SamplingOutcome` the
screen dismisses with; the screen's accept and the wire panel (F6) both call it, so the panel
shows the very reply that goes out (through ``sampling_bridge.result_json``, the JSON of the one
``to_result``), never a second computation. No Textual here: plain values in, plain values out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from mcp_tui.session.sampling import (
    STOP_REASONS,
    TOOL_USE,
    SamplingOutcome,
    SamplingTool,
    ToolUse,
)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why nothing is sent: each problem by the part of the screen it is in (``reply``,
    ``model``, ``tool input``, ``tool``), and the widget the person fixes the first one in."""

    problems: dict[str, str]
    focus: str | None


@dataclass(frozen=True, slots=True)
class ReplyValues:
    """The screen's widgets, read once: the reply, the model name, the stop reason chosen and,
    when the request offers tools, the tool chosen and its raw JSON input."""

    text: str
    model: str
    stop: object
    tool_index: object = None
    tool_input: str = "{}"


def answer(
    values: ReplyValues, tools: tuple[SamplingTool, ...], tool_use_id: str
) -> SamplingOutcome | Refusal:
    """The outcome accept sends, or the :class:`Refusal` that stops it.

    A reply of nothing or only blanks is no model answer (unless the reply is a tool use); a
    model name is required. ``tool_use_id`` is drawn once per screen, so what the panel showed
    a moment ago is what is sent."""
    text = values.text
    model = values.model.strip()
    problems: dict[str, str] = {}
    if not text.strip() and values.stop != TOOL_USE:
        problems["reply"] = "write the reply first (or decline with Ctrl+R)"
    if not model:
        problems["model"] = "name the model the reply is reported from (e.g. human)"
    if problems:
        return Refusal(problems, "#sampling-reply" if "reply" in problems else "#sampling-model")
    reason = values.stop if isinstance(values.stop, str) else STOP_REASONS[0]
    if reason != TOOL_USE:
        return SamplingOutcome("accept", text=text, model=model, stop_reason=reason)
    use = _tool_use(values, tools, tool_use_id)
    if isinstance(use, Refusal):
        return use
    return SamplingOutcome("accept", text, model, TOOL_USE, tool_use=use)


def _tool_use(
    values: ReplyValues, tools: tuple[SamplingTool, ...], tool_use_id: str
) -> ToolUse | Refusal:
    """The tool chosen and its input (a JSON object), or what is wrong with them."""
    try:
        value = json.loads(values.tool_input or "{}")
    except json.JSONDecodeError as exc:
        problem = f"the tool input is not JSON: {exc.msg} (line {exc.lineno})"
        return Refusal({"tool input": problem}, "#sampling-tool-input")
    if not isinstance(value, dict):
        problem = "the tool input must be a JSON object, such as {}"
        return Refusal({"tool input": problem}, "#sampling-tool-input")
    index = values.tool_index
    if not isinstance(index, int) or not 0 <= index < len(tools):
        return Refusal({"tool": "choose the tool the reply uses"}, None)
    return ToolUse(tools[index].name, value, id=tool_use_id)
