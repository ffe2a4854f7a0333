"""The Python API: connect, call, answer by a function, check like a case's ``expect``."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.errors import ConnectionFailed
from mcp_tui.testing import Request, accept, connect, decline, expect, reply
from mcp_tui.testing.plugin import mcp_connect  # noqa: F401  (the fixture, as a plugin gives it)


def _booking(request: Request) -> Any:
    if "step 1 of 3" in request.message:
        assert request.schema is not None and "party_size" in request.schema["properties"]
        return {"date": "2031-05-17", "party_size": 4}
    if request.message.startswith("Step 2"):
        return {"time": "19:30"}
    return accept()


@pytest.mark.parametrize("era", ["2025-11-25", "2026-07-28"])
def test_a_flow_answered_by_a_function(era: Any) -> None:
    with connect(demo=True, era=era) as server:
        assert server.protocol_version == era
        assert "book_table" in server.tools
        result = server.call_tool("book_table", answer=_booking)
        expect(result, outcome="ok", elicitation_count=3, text_regex="at 19:30 - dinner")
        assert [e.action for e in result.elicitations] == ["accept"] * 3
        assert result.elicitations[2].content == {"dietary": []}

        summary = server.call_tool("summarize_issue", {"number": 103}, answer=lambda r: "Short.")
        assert summary.text == "Summary of #103 by human: Short."
        assert summary.sampling[0].message.startswith("Summarise issue #103")

        kept = server.call_tool("delete_project", {"name": "website"}, answer=lambda r: decline())
        expect(kept, text_contains="Kept website")


def test_a_function_answer_that_does_not_fit_is_never_sent() -> None:
    with connect(demo=True, era="2025-11-25") as server:
        result = server.call_tool(
            "delete_project", {"name": "website"}, answer=lambda r: {"confirm": "yes"}
        )
        assert result.outcome == "answer_refused"
        assert result.answer_problem is not None and "'confirm'" in result.answer_problem
        assert result.elicitations[0].action == "cancel"
        with pytest.raises(AssertionError) as caught:
            expect(result, outcome="ok")
        assert "the call ended answer_refused, not ok" in str(caught.value)


def test_answers_entries_prompts_and_resources() -> None:
    with connect(demo=True) as server:
        result = server.call_tool(
            "summarize_issue",
            answers=[{"sampling": {"text": "Fine.", "model": "m"}}],
        )
        assert result.text == "Summary of #101 by m: Fine."
        assert reply("x").sampling is not None
        prompt = server.get_prompt("triage_issue", {"number": "101"})
        expect(prompt, text_regex="^Triage issue #101")
        menu = server.read_resource("demo://menu.json")
        expect(menu, text_contains="Trattoria Demo")


def test_the_fixture_closes_its_servers(mcp_connect: Any) -> None:  # noqa: F811
    server = mcp_connect(demo=True, era="2026-07-28")
    assert server.call_tool("confirm_action", answer=lambda r: "accept").ok


def test_a_server_that_cannot_start_says_why(tmp_path: Any) -> None:
    with (
        pytest.raises(ConnectionFailed, match="cannot connect"),
        connect(command=["python3", "-c", "import sys; sys.exit(3)"]),
    ):
        pass
