"""``a`` (and the palette's "Call again"): the last call sent again with its values.

With fake connections: the key is offered only once there is a call to repeat, it sends exactly
the values of the last call, works after a reconnect, and when the tool's schema changed so that
those values no longer fit, sends nothing and opens the form saying why.
"""

from __future__ import annotations

import pytest

from mcp_tui.session.events import ConnectionState, ToolInfo
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from tests.ui.app_testkit import (
    make_app,
    mounted_screen,
    run_from_palette,
    session_of,
    wait_until,
)
from tests.ui.fixtures.fake_connection import ECHO_SCHEMA, Script

pytestmark = pytest.mark.anyio


async def test_a_calls_the_last_tool_again_with_the_same_values() -> None:
    app, factory = make_app({"demo": Script()})
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        await wait_until(lambda: session.areas.panels_ready, pilot=pilot)
        assert not session.check_action("call_again", ()), "nothing to repeat: no key shown"
        session.calls.call_tool("demo", "echo", {"text": "hi", "times": 2})
        connection = factory.latest("demo")
        await wait_until(lambda: len(connection.calls) == 1, pilot=pilot)
        assert session.check_action("call_again", ())
        await pilot.press("a")
        await wait_until(lambda: len(connection.calls) == 2, pilot=pilot)
        assert connection.calls[1][:2] == ("echo", {"text": "hi", "times": 2})
        assert connection.calls[1][2] != connection.calls[0][2], "a new call, its own id"

        # After a reconnect (what --watch does), to the new connection.
        app.reconnect("demo")
        await wait_until(lambda: factory.latest("demo") is not connection, pilot=pilot)
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        await run_from_palette(pilot, app, "call again", "Call again")
        fresh = factory.latest("demo")
        await wait_until(lambda: len(fresh.calls) == 1, pilot=pilot)
        assert fresh.calls[0][:2] == ("echo", {"text": "hi", "times": 2})


async def test_values_that_no_longer_fit_open_the_form_and_send_nothing() -> None:
    script = Script()
    app, factory = make_app({"demo": script})
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        session = session_of(app)
        await wait_until(lambda: session.areas.panels_ready, pilot=pilot)
        session.calls.call_tool("demo", "echo", {"text": "hi"})
        connection = factory.latest("demo")
        await wait_until(lambda: len(connection.calls) == 1, pilot=pilot)
        # The server now wants a number too.
        schema = {
            **ECHO_SCHEMA,
            "properties": {**ECHO_SCHEMA["properties"], "loud": {"type": "boolean"}},
            "required": ["text", "loud"],
        }
        script.tools = (ToolInfo("echo", "Echo", input_schema=schema), *script.tools[1:])
        app.reconnect("demo")
        await wait_until(lambda: factory.latest("demo") is not connection, pilot=pilot)
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.READY, pilot=pilot)
        await wait_until(lambda: app.entries["demo"].tools[0].input_schema == schema, pilot=pilot)
        session.areas.catalog.focus()
        await pilot.press("a")
        await wait_until(lambda: mounted_screen(app, ArgumentsScreen), pilot=pilot)
        notes = [str(n.message) for n in app._notifications]
        assert any("do not fit echo's schema any more" in n and "loud" in n for n in notes), notes
        assert factory.latest("demo").calls == [], "nothing was sent"
