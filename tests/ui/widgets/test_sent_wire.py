"""The wire's last beat: after Ctrl+S, the answer as it went out, on the session screen.

On the real demo over stdio, both eras: the form opens with the wire shown (F6), Ctrl+S sends,
and the session screen's panel shows the very message the ``--log`` file recorded going out
(the response to ``elicitation/create`` on 2025-11-25, the repeated ``tools/call`` with
``inputResponses`` on 2026-07-28). F6 there hides it, and the next form opens without the wire.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.widgets.request.sent_wire import SentWire
from tests.ui.demo_tui_kit import ERAS, demo_app, gone, messages, next_form, wait_until, wire_text

pytestmark = pytest.mark.anyio


def answer_sent(log: Path, era: str) -> dict[str, Any]:
    """The message that carried the answer, as the ``--log`` file recorded it going out."""
    out = messages(log, "out")
    if era == "2025-11-25":
        asked = [m["id"] for m in messages(log, "in") if m.get("method") == "elicitation/create"]
        [sent] = [m for m in out if "method" not in m and m.get("id") in asked]
    else:
        [sent] = [m for m in out if "inputResponses" in (m.get("params") or {})]
    return sent


@pytest.mark.parametrize("era", list(ERAS))
async def test_the_answer_as_sent_stays_on_the_session_screen(tmp_path: Path, era: str) -> None:
    async with demo_app(tmp_path, era, "confirm_action", {"action": "ship it"}) as run:
        pilot = run.pilot
        form = await next_form(run, "Please confirm: ship it.")
        await pilot.press("f6")  # the wire on (remembered for the session)
        await wait_until(pilot, lambda: form.query("#wire-answer"), "the wire beside the form")
        await pilot.press("ctrl+s")
        await gone(run, form)
        session = run.app.screen
        assert isinstance(session, SessionScreen)
        panel = session.query_one("#sent-wire", SentWire)
        await wait_until(pilot, lambda: panel.display and panel.message, "the answer as sent")
        await wait_until(pilot, lambda: "Confirmed: ship it." in run.transcript(), "the result")
        sent = answer_sent(run.log, era)
        assert wire_text(panel.message) == wire_text(sent)
        assert '"action": "accept"' in panel.plain()
        title = str(panel.border_title)
        assert ("elicitation/create" if era == "2025-11-25" else "inputResponses") in title

        await pilot.press("f6")  # the wire off: the panel goes, and the next form has none
        await wait_until(pilot, lambda: not panel.display, "the panel hidden")
        assert not run.app.wire_shown


@pytest.mark.parametrize("era", list(ERAS))
async def test_a_wire_hidden_in_the_form_takes_the_last_answer_away(
    tmp_path: Path, era: str
) -> None:
    """F6 in a form (not on the session screen) hides the wire: the answer given then must not
    leave the previous answer's message standing as if it were this one's."""
    async with demo_app(tmp_path, era, "confirm_action", {"action": "ship it"}) as run:
        pilot = run.pilot
        form = await next_form(run, "Please confirm: ship it.")
        await pilot.press("f6", "ctrl+s")
        await gone(run, form)
        session = run.app.screen
        assert isinstance(session, SessionScreen)
        panel = session.query_one("#sent-wire", SentWire)
        await wait_until(pilot, lambda: panel.display and panel.message, "the answer as sent")
        await wait_until(pilot, lambda: "Confirmed: ship it." in run.transcript(), "the result")
        session.calls.call_tool("demo", "confirm_action", {"action": "ship it twice"})
        form = await next_form(run, "Please confirm: ship it twice.", after=form)
        await pilot.press("f6", "ctrl+r")  # the wire off, in the form; declined
        await gone(run, form)
        await wait_until(pilot, lambda: "Not confirmed" in run.transcript(), "the decline")
        assert not panel.display
