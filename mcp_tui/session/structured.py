"""Which text blocks of a tool result only repeat its ``structuredContent``.

The spec asks a tool that returns ``structuredContent`` to also send it serialized in a text block
for older clients, and the SDK's ``MCPServer`` wraps a non-object return value as
``{"result": value}`` next to the value as text. Shown naively, a result then reads twice: once as
text and once as JSON (a string value escaped, with ``\\n`` for each newline). The display keeps
one copy: the structured part as indented JSON, or, when the structured part only wraps the very
text shown, that text alone.
"""

from __future__ import annotations

import json
from typing import Any

from msgspec import Struct

from mcp_tui.session.events import CallOutcome, ContentItem


class ResultView(Struct, frozen=True):
    """What to show of one outcome: the items, and whether to show ``structured`` after them."""

    items: tuple[ContentItem, ...]
    show_structured: bool
    #: Items left out because they repeat the structured part (so the display can say so).
    echoes: int = 0


def _parsed(text: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None


def _wrapped(structured: Any) -> tuple[bool, Any]:
    """``{"result": value}``, the SDK's wrapping of a non-object return value."""
    if isinstance(structured, dict) and len(structured) == 1 and "result" in structured:
        return True, structured["result"]
    return False, None


def result_view(outcome: CallOutcome) -> ResultView:
    """Drop text blocks that only repeat ``structuredContent``; keep everything else as sent."""
    structured = outcome.structured
    if structured is None:
        return ResultView(outcome.items, show_structured=False)
    texts = [i for i in outcome.items if i.kind == "text" and i.role is None]
    others = [i for i in outcome.items if not (i.kind == "text" and i.role is None)]
    if not texts or others:
        return ResultView(outcome.items, show_structured=True)
    is_wrapped, inner = _wrapped(structured)
    if is_wrapped and isinstance(inner, str) and "".join(i.text or "" for i in texts) == inner:
        # {"result": "the text"}: the text says it all, unescaped.
        return ResultView(outcome.items, show_structured=False, echoes=1)
    parsed = [_parsed(i.text or "") for i in texts]
    if all(ok for ok, _ in parsed):
        values = [value for _, value in parsed]
        whole = values[0] if len(values) == 1 else values
        if whole == structured or (is_wrapped and (whole == inner or values == inner)):
            return ResultView((), show_structured=True, echoes=len(texts))
    return ResultView(outcome.items, show_structured=True)
