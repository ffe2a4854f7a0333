"""The model knows a generic-named server's tools by the name the server announced
(``session/naming.py``): ``weather__forecast``, not ``server__forecast``; the call still goes to
the server's key."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from mcp_tui.chat.tools import ToolCatalog
from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import ConnectionState, ToolInfo
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.chat_screen import ChatScreen
from tests.ui.app_testkit import FakeFactory, Script, mounted_screen, wait_for

FORECAST = ToolInfo("forecast", "Forecast", input_schema={"type": "object"})


def test_a_shown_name_names_the_tool_for_the_model_and_the_screen() -> None:
    (tool,) = ToolCatalog([("server", FORECAST)], {"server": "weather"})
    assert tool.name == "weather__forecast"
    assert tool.server == "server"  # where the call goes
    assert tool.label == "weather › forecast"


def test_without_one_the_key_names_it() -> None:
    (tool,) = ToolCatalog([("demo", FORECAST)], {"demo": "demo"})
    assert (tool.name, tool.label) == ("demo__forecast", "demo › forecast")
    (plain,) = ToolCatalog([("demo", FORECAST)])
    assert plain == tool


@pytest.mark.anyio
async def test_the_chat_offers_a_generic_named_servers_tools_by_its_announced_name() -> None:
    script = Script()
    script.info = msgspec.structs.replace(script.info, name="weather")
    script.tools = (FORECAST,)
    spec = ServerSpec("server", StdioTarget("python", ("server.py",)), name_is_generic=True)
    options = AppOptions(stderr_log=Path("/var/log/mcp-tui-tests/stderr.log"))
    app = McpTuiApp([spec], options, connection_factory=FakeFactory({"server": script}))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["server"].state is ConnectionState.READY)
        await wait_for(pilot, lambda: app.session is not None and app.session.areas.panels_ready)
        await pilot.press("m")
        await wait_for(pilot, lambda: mounted_screen(app, ChatScreen) is not None, timeout=90)
        chat = app.screen
        assert isinstance(chat, ChatScreen)
        (tool,) = chat.tool_catalog()
        assert (tool.name, tool.server, tool.label) == (
            "weather__forecast",
            "server",
            "weather › forecast",
        )
