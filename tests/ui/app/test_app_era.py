"""The app and the protocol era (``session/era.py``), against an ``mcp`` 2.3 server whose tool asks
with ``ctx.elicit()`` as its documentation shows (``tests/fixtures/elicit_server.py``'s
``book_table``).

In the default mode its form shows with no flag; the info panel names the era; ``E`` (and the
palette's "Reconnect on ...") moves the server to the other era, where the same call fails and the
transcript says why in one sentence with the fix; ``E`` again moves it back.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.app.commands import verbs
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from tests.ui.app_testkit import session_of, transcript_text, wait_for

pytestmark = pytest.mark.anyio

SDK_SERVER = Path(__file__).resolve().parents[2] / "fixtures" / "elicit_server.py"
ANSWER = '{"action": "accept", "content": {"name": "Ada", "party": 2, "terrace": false}}'
HINT = (
    "This server asks questions with server-initiated requests, which 2026-07-28 connections "
    "cannot carry: press E to reconnect on 2025-11-25 (or run with --mode legacy)."
)


async def test_ctx_elicit_form_in_the_default_mode_and_e_switches_era(tmp_path: Path) -> None:
    spec = ServerSpec("sdk", StdioTarget(sys.executable, (str(SDK_SERVER),)))
    app = McpTuiApp([spec], AppOptions(stderr_log=tmp_path / "stderr.log"))
    async with app.run_test(size=(120, 40)) as pilot:
        entry = app.entries["sdk"]
        await wait_for(pilot, lambda: entry.state is ConnectionState.READY, 90)
        await wait_for(pilot, lambda: bool(entry.tools), 30)
        assert entry.info is not None and entry.info.protocol_version == "2025-11-25"
        session = session_of(app)
        info = str(session.query_one("#info").render())
        assert "protocol 2025-11-25" in info and "E other era" in info

        session.calls.call_tool("sdk", "book_table", {})
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 50)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: ANSWER in transcript_text(app, full=True), 50)

        [verb] = [v for v in verbs(app, session) if v.verb.startswith("Reconnect on")]
        assert (verb.verb, verb.subject) == ("Reconnect on 2026-07-28", "sdk")

        session.areas.catalog.focus()
        await pilot.press("E")
        await wait_for(pilot, lambda: entry.spec.mode == "2026-07-28", 10)
        await wait_for(
            pilot,
            lambda: (
                entry.state is ConnectionState.READY
                and entry.info is not None
                and entry.info.protocol_version == "2026-07-28"
            ),
            90,
        )
        assert "reconnecting on 2026-07-28" in transcript_text(app, full=True)
        await wait_for(
            pilot, lambda: "protocol 2026-07-28" in str(session.query_one("#info").render()), 30
        )

        session.calls.call_tool("sdk", "book_table", {})
        await wait_for(pilot, lambda: HINT in transcript_text(app, full=True), 50)
        assert not isinstance(app.screen, ElicitationScreen)
        [verb] = [v for v in verbs(app, session) if v.verb.startswith("Reconnect on")]
        assert verb.verb == "Reconnect on 2025-11-25"

        verb.run()  # the palette's verb: back to 2025-11-25
        await wait_for(pilot, lambda: entry.spec.mode == "legacy", 10)
        await wait_for(
            pilot,
            lambda: (
                entry.state is ConnectionState.READY
                and entry.info is not None
                and entry.info.protocol_version == "2025-11-25"
            ),
            90,
        )
        session.calls.call_tool("sdk", "book_table", {})
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen), 50)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: transcript_text(app, full=True).count(ANSWER) == 2, 50)
