"""Repeated ``notifications/resources/updated`` for one URI are one transcript entry with a count
and the last time (issue 28, item 15), so they no longer push call results off screen."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from mcp_tui.session.events import ResourceUpdated
from mcp_tui.ui.render import notice_entry
from mcp_tui.ui.widgets.session.transcript import Transcript
from tests.waits import wait_until

pytestmark = pytest.mark.anyio


class _TranscriptApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Transcript(id="transcript")


async def test_repeated_updates_of_one_uri_are_one_entry_with_a_count() -> None:
    app = _TranscriptApp()
    async with app.run_test(size=(80, 24)) as pilot:
        transcript = app.query_one(Transcript)
        ticker = ResourceUpdated("demo", "demo://ticker")
        transcript.add_entries([notice_entry(ticker)])
        for _ in range(4):
            transcript.add_entries([notice_entry(ticker)])
        transcript.add_entries([notice_entry(ResourceUpdated("demo", "demo://other"))])
        transcript.add_entries([notice_entry(ticker)])
        await wait_until(lambda: len(transcript.children) == len(transcript.entries), pilot=pilot)
        texts = [entry.full for entry in transcript.entries]
        assert len(texts) == 2, texts
        assert "demo://ticker" in texts[0] and "updated 6 times" in texts[0]
        assert "last at" in texts[0]
        assert "demo://other" in texts[1] and "times" not in texts[1]
        first = transcript.children[0]
        await wait_until(lambda: first.query("Static"), pilot=pilot)
        assert "updated 6 times" in str(first.query("Static").first().render())
