"""Results with text and structuredContent read once (issue 28, item 16).

The shapes come from the SDK's own ``func_metadata`` (what an ``MCPServer`` tool sends), not from
hand-built guesses, plus the spec's "serialized JSON in a text block" shape.
"""

from __future__ import annotations

import io
import json
from typing import Any

from mcp.server.mcpserver.utilities.func_metadata import func_metadata

from mcp_tui.headless.output import print_outcome
from mcp_tui.session.convert import tool_outcome
from mcp_tui.session.events import CallOutcome, ContentItem
from mcp_tui.session.structured import result_view
from mcp_tui.ui.render import outcome_entry


def _sdk_outcome(func: Any, value: Any) -> CallOutcome:
    meta = func_metadata(func, structured_output=True)
    return tool_outcome(meta.convert_result(value))  # type: ignore[arg-type]


def _weather() -> dict[str, Any]:
    return {}


def _poem() -> str:
    return ""


def _printed(outcome: CallOutcome) -> str:
    out = io.StringIO()
    print_outcome(outcome, None, out, lambda _: None, json_output=False)
    return out.getvalue()


def test_sdk_dict_result_is_shown_once_as_indented_json() -> None:
    outcome = _sdk_outcome(_weather, {"city": "Oslo", "temp": 3})
    shown = outcome_entry("#1 s › weather", outcome).full
    assert shown.count('"city"') == 1
    assert '  "city": "Oslo"' in shown
    printed = _printed(outcome)
    assert printed.count('"city"') == 1
    assert json.loads(printed) == {"city": "Oslo", "temp": 3}


def test_sdk_wrapped_string_is_shown_once_unescaped() -> None:
    outcome = _sdk_outcome(_poem, "line one\nline two")
    shown = outcome_entry("#1 s › poem", outcome).full
    assert shown.count("line one") == 1
    assert "\\n" not in shown
    assert _printed(outcome) == "line one\nline two\n"


def test_spec_serialized_text_block_is_not_repeated() -> None:
    data = {"a": [1, 2], "b": "x"}
    outcome = CallOutcome(items=(ContentItem("text", text=json.dumps(data)),), structured=data)
    view = result_view(outcome)
    assert view.items == () and view.show_structured and view.echoes == 1
    assert outcome_entry("h", outcome).full.count('"a"') == 1


def test_different_text_and_structured_both_stay() -> None:
    outcome = CallOutcome(items=(ContentItem("text", text="It is 3 degrees"),), structured={"t": 3})
    view = result_view(outcome)
    assert view.items == outcome.items and view.show_structured
    shown = outcome_entry("h", outcome).full
    assert "It is 3 degrees" in shown and '"t": 3' in shown
