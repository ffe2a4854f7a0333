"""A server started as ``python server.py`` is shown by the name it announces in ``serverInfo``
(``session/naming.py``), while its key (``server``: the stderr log, lookups) stays."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest
from app_testkit import FakeFactory, Script, session_of, transcript_text, wait_for
from textual.content import Content

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import ConnectionState, Notice
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.widgets.session.catalog_tree import NodeRef, server_label
from mcp_tui.ui.widgets.session.info_panel import details

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _announcing(name: str) -> Script:
    script = Script()
    script.info = msgspec.structs.replace(script.info, name=name)
    return script


def _app() -> tuple[McpTuiApp, FakeFactory]:
    specs = [
        ServerSpec("server", StdioTarget("python", ("a/server.py",)), name_is_generic=True),
        ServerSpec("server-2", StdioTarget("python", ("b/server.py",)), name_is_generic=True),
        ServerSpec("main", StdioTarget("python", ("main.py",))),  # --name main: kept
    ]
    factory = FakeFactory(
        {
            "server": _announcing("weather"),
            "server-2": _announcing("weather"),
            "main": _announcing("calendar"),
        }
    )
    options = AppOptions(stderr_log=Path("/var/log/mcp-tui-tests/stderr.log"))
    return McpTuiApp(specs, options, connection_factory=factory), factory


async def test_a_generic_name_gives_way_to_the_announced_one() -> None:
    app, factory = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot, lambda: all(e.state is ConnectionState.READY for e in app.entries.values())
        )
        entries = app.entries
        assert [e.shown_name for e in entries.values()] == ["weather", "weather-2", "main"]
        assert list(entries) == ["server", "server-2", "main"]  # the keys stay
        assert "weather  ready" in server_label(entries["server"]).plain
        await wait_for(pilot, lambda: "weather-2: ready" in transcript_text(app))
        text = transcript_text(app)
        assert "weather: ready" in text and "main: ready" in text
        assert "shown by its serverInfo name (the command line names it server)" in text
        title, full = details(NodeRef("server", "server"), entries["server"])
        assert title == "weather"
        assert "the command line names it server" in full

        # a notice and a form from it name it so, and the form header too
        factory.latest("server").sink(Notice("server", "hello"))
        await wait_for(pilot, lambda: "weather: hello" in transcript_text(app))
        fields = (FieldSpec("city", FieldKind.TEXT, "City"),)
        request = ElicitationRequest("server", "Where?", "form", form=FormSpec(fields))
        assert app.handler is not None
        answer = asyncio.create_task(app.handler.elicit(request))
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        screen = app.screen
        assert isinstance(screen, ElicitationScreen)
        header = screen.header.content()
        assert isinstance(header, Content) and header.plain.startswith("Server weather asks")
        await pilot.press("escape")
        assert (await answer).action == "cancel"
        assert session_of(app) is not None
