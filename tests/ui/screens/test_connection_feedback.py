"""What the session screen says about connections: "connecting 12 s", retry after a failure,
and what changed after ``r`` or a ``list_changed`` notification."""

from __future__ import annotations

import time

import pytest

from mcp_tui.session.events import CatalogChanged, ConnectionState, ToolInfo
from mcp_tui.ui.widgets.session.catalog_tree import server_label
from tests.ui.app_testkit import Script, make_app, session_of, transcript_text, wait_for

pytestmark = pytest.mark.anyio


async def test_a_slow_handshake_shows_the_seconds_it_has_been_connecting() -> None:
    app, _ = make_app({"demo": Script(delay=30.0)})
    async with app.run_test(size=(80, 24)) as pilot:
        entry = app.entries["demo"]
        await wait_for(pilot, lambda: session_of(app).areas.panels_ready)
        # The seconds count up once a second, from the state's start.
        await wait_for(pilot, lambda: "connecting 1 s" in str(tree_label(app)), timeout=30)
        entry.since = time.monotonic() - 12.4  # as if it had been connecting for 12 s
        # The next tick's label: waited for itself (the label between may say "connecting").
        await wait_for(
            pilot,
            lambda: str(tree_label(app)).endswith(("connecting 12 s", "connecting 13 s")),
            timeout=30,
        )
        assert "connecting 1" in str(session_of(app).query_one("#info").render())


def tree_label(app: object) -> object:
    session = session_of(app)  # type: ignore[arg-type]
    node = session.areas.catalog._server_nodes["demo"]
    return node.label


def test_a_failed_server_says_how_to_retry() -> None:
    from mcp_tui.config.servers import ServerSpec, StdioTarget
    from mcp_tui.ui.server_state import ServerEntry

    entry = ServerEntry(ServerSpec("demo", StdioTarget("x")), state=ConnectionState.FAILED)
    assert "R retries" in server_label(entry).plain
    entry.state = ConnectionState.READY
    assert "R retries" not in server_label(entry).plain


async def test_refresh_and_list_changed_say_what_changed() -> None:
    app, factory = make_app({"demo": Script()})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        await wait_for(pilot, lambda: session.areas.panels_ready)
        assert "refreshed" not in transcript_text(app), "the first listing is not a change"
        # r: the same lists again.
        session.areas.catalog.focus()
        await pilot.press("r")
        await wait_for(pilot, lambda: "refreshed" in transcript_text(app))
        text = transcript_text(app)
        assert "demo: refreshed: 3 tools (no change), 0 prompts (no change)" in text
        # list_changed: one kind listed again, with a new tool and one gone.
        connection = factory.made[-1]
        tools = (*connection.tools[1:], ToolInfo("weather", "New", input_schema={}))
        connection.sink(CatalogChanged("demo", tools=tools))
        await wait_for(pilot, lambda: "tools list changed" in transcript_text(app))
        assert "demo: tools list changed: 3 tools (1 new: weather; 1 removed: echo)" in (
            transcript_text(app)
        )


async def test_r_on_a_server_that_is_not_ready_says_so() -> None:
    app, _ = make_app({"demo": Script(fail="boom")})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.FAILED)
        await wait_for(pilot, lambda: session_of(app).areas.panels_ready)
        session_of(app).areas.catalog.focus()
        await pilot.press("r")
        await wait_for(
            pilot, lambda: any("not ready" in str(n.message) for n in app._notifications)
        )


async def test_the_log_panel_goes_full_screen_and_back_and_names_its_stderr_file() -> None:
    from mcp_tui.session.events import StderrReceived

    app, factory = make_app({"demo": Script()})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        await wait_for(pilot, lambda: session.areas.panels_ready)
        logs = session.areas.logs
        assert "stderr file: /var/log/mcp-tui-tests/stderr.log" in str(logs.border_subtitle)
        small = logs.size.height
        await pilot.press("L")
        await wait_for(pilot, lambda: logs.size.height > 15)
        assert session.maximized is logs and small < 8
        assert "L or Esc: back" in str(logs.border_title)
        await pilot.press("L")
        await wait_for(pilot, lambda: session.maximized is None)
        await wait_for(pilot, lambda: logs.size.height == small)
        # A traceback on stderr stays together: its lines sit under its first line.
        sink = factory.made[-1].sink
        for line in (
            "Traceback (most recent call last):",
            '  File "server.py", line 3, in boom',
            "    raise ValueError('boom')",
            "ValueError: boom",
            "INFO: next request",
        ):
            sink(StderrReceived("demo", line))
        await wait_for(pilot, lambda: "next request" in "\n".join(s.text for s in logs.lines))
        text = [s.text for s in logs.lines]
        first = next(i for i, t in enumerate(text) if "Traceback" in t)
        assert text[first].startswith("stderr   demo Traceback")
        assert [t.startswith("         │ ") for t in text[first + 1 : first + 4]] == [True] * 3
        assert text[first + 4].startswith("stderr   demo INFO: next request")


async def test_the_traffic_table_filters_and_keeps_one_line_per_message() -> None:
    from mcp_tui.session.events import TrafficRecorded

    app, factory = make_app({"demo": Script()})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        await wait_for(pilot, lambda: session.areas.panels_ready)
        sink = factory.made[-1].sink
        for n in range(30):
            method = "tools/call" if n % 3 else "ping"
            sink(TrafficRecorded("demo", "out", {"jsonrpc": "2.0", "id": n, "method": method}))
            sink(TrafficRecorded("demo", "in", {"jsonrpc": "2.0", "id": n, "result": {}}))
        await pilot.press("t")
        traffic = session.areas.traffic
        await wait_for(pilot, lambda: traffic.table.row_count >= 60)
        assert traffic.table.row_count == 60
        traffic.focus()
        await pilot.press("slash", *"ping result")
        await wait_for(pilot, lambda: traffic.table.row_count == 10)
        await pilot.press("enter")  # back to the table
        await wait_for(pilot, lambda: app.focused is traffic.table)


async def test_a_long_progress_message_wraps_at_80_columns_instead_of_being_cut() -> None:
    import asyncio

    from mcp_tui.session.events import CallOutcome, ProgressReceived

    release = asyncio.Event()

    async def slow(connection: object, arguments: object, call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome()

    message = "step 3 of 8: copying the quarterly reports to the archive in zanzibar"
    app, factory = make_app({"demo": Script(results={"echo": slow})})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        await wait_for(pilot, lambda: session.areas.panels_ready)
        call_id = session.calls.call_tool("demo", "echo", {"text": "x"})
        assert call_id is not None
        factory.made[-1].sink(ProgressReceived("demo", call_id, 3, 8, message))
        await wait_for(pilot, lambda: "quarterly" in app.export_screenshot())
        screen = app.export_screenshot()
        assert "zanzibar" in screen, "the end of the message is on screen too"
        release.set()


async def test_a_progress_message_longer_than_its_two_lines_ends_with_an_ellipsis() -> None:
    """At 80x24 a running call has four lines: heading, bar, and two for the message. A longer
    message (up to 160 characters are kept) used to stop mid-word at the second line, with no
    sign that more was sent; its second line now ends with '…'."""
    import asyncio

    from mcp_tui.session.events import CallOutcome, ProgressReceived
    from mcp_tui.ui.widgets.session.running_calls import RunningCall

    release = asyncio.Event()

    async def slow(connection: object, arguments: object, call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome()

    message = "Copying " + " ".join(f"part{n:02d}" for n in range(30)) + " to the archive"
    app, factory = make_app({"demo": Script(results={"echo": slow})})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        await wait_for(pilot, lambda: session.areas.panels_ready)
        call_id = session.calls.call_tool("demo", "echo", {"text": "x"})
        assert call_id is not None
        factory.made[-1].sink(ProgressReceived("demo", call_id, 3, 8, message))
        await wait_for(pilot, lambda: "part00" in app.export_screenshot())
        row = app.query_one(RunningCall)
        shown = row.query_one(".running-message")
        await wait_for(pilot, lambda: str(shown.render()).rstrip().endswith("…"))
        assert shown.region.height == 2 and row.region.contains_region(shown.region)
        assert "part00" in str(shown.render()) and "archive" not in str(shown.render())
        release.set()


async def test_a_second_running_call_is_scrolled_to_not_cut_out_of_sight() -> None:
    """At 80x24 the running calls get four lines, which one call with a progress message fills:
    a second call's row was laid out under them and never seen. The panel now scrolls, and its
    scrollbar says there is more."""
    import asyncio

    from mcp_tui.session.events import CallOutcome, ProgressReceived
    from mcp_tui.ui.widgets.session.running_calls import RunningCall, RunningCalls

    release = asyncio.Event()

    async def slow(connection: object, arguments: object, call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome()

    app, factory = make_app({"demo": Script(results={"echo": slow})})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        await wait_for(pilot, lambda: session.areas.panels_ready)
        first = session.calls.call_tool("demo", "echo", {"text": "x"})
        second = session.calls.call_tool("demo", "echo", {"text": "y"})
        assert first is not None and second is not None
        factory.made[-1].sink(ProgressReceived("demo", first, 1, 8, "copying " + "words " * 20))
        await wait_for(pilot, lambda: len(app.query(RunningCall)) == 2)
        panel = app.query_one(RunningCalls)
        await wait_for(pilot, lambda: panel.virtual_size.height > panel.region.height > 0)
        await wait_for(pilot, lambda: panel.show_vertical_scrollbar)
        last = app.query(RunningCall).last()
        panel.scroll_to_widget(last, animate=False, immediate=True)
        await wait_for(pilot, lambda: panel.region.contains_region(last.region))
        release.set()


def test_a_tool_redefined_under_the_same_name_is_named_as_changed() -> None:
    from mcp_tui.ui.app.catalog_notes import describe_kind

    old = (ToolInfo("echo", "Echo", input_schema={}), ToolInfo("ping", "Ping", input_schema={}))
    new = (ToolInfo("echo", "Echo, louder", input_schema={}), old[1])
    assert describe_kind("tools", old, new) == "2 tools (1 changed: echo)"
    assert describe_kind("tools", old, old) == "2 tools (no change)"
    new_schema = (old[0], ToolInfo("ping", "Ping", input_schema={"type": "object"}))
    assert describe_kind("tools", old, new_schema) == "2 tools (1 changed: ping)"
