"""Pilot tests of the app and the session screen against scripted fake connections."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import ProgressBar, TextArea

from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import (
    CallOutcome,
    CatalogChanged,
    ConnectionState,
    ContentItem,
    ElicitationCompleted,
    ElicitationPauseChanged,
    ElicitationRefused,
    LogReceived,
    Notice,
    ProgressReceived,
    PromptArgumentInfo,
    PromptInfo,
    ResourceInfo,
    StderrReceived,
    ToolInfo,
    TrafficRecorded,
)
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.messages import ElicitationFinished, ElicitationShown
from mcp_tui.ui.render import notice_entry
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.detail import DetailScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.message_tree import MessageTreeScreen
from mcp_tui.ui.widgets.session.log_panel import BATCH_CHARS, MIN_BATCH_LINES
from mcp_tui.ui.widgets.session.running_calls import RunningCall
from tests.ui.app_testkit import (
    Script,
    catalog_has,
    cursor_on,
    events_shown,
    make_app,
    mounted_screen,
    open_node,
    run_from_palette,
    session_of,
    transcript_text,
    tree_node,
    wait_for,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.anyio


# --- start-up --------------------------------------------------------------------------------


def test_app_start_path_does_not_import_mcp() -> None:
    """The first frame must not wait for ``import mcp``: nothing on the UI path imports it.

    Nor for ``TextArea`` (16-33 ms): the arguments and detail screens that use it are imported
    when first opened.
    """
    script = textwrap.dedent(
        """
        import asyncio, sys
        from tests.ui.app_testkit import make_app
        from tests.waits import wait_until
        print("textual.widgets._text_area" in sys.modules)
        async def main():
            app, _ = make_app()
            async with app.run_test() as pilot:
                ready = lambda: app.entries["demo"].state.value == "ready"
                await wait_until(ready, pilot=pilot, message="the server never got ready")
            print("mcp" in sys.modules, "mcp_tui.session.connection" in sys.modules)
        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "False"]


def test_first_frame_imports_only_what_it_paints() -> None:
    """The first frame needs the catalog, title and keys of the session screen, not the SDK, the
    schema engine, the URL checks, the confirmation screen or OAuth: they load when first needed.
    The panels (and their modules: RichLog pulls in rich.pretty) come right after it. No
    dataclass of mcp-tui is made on the way (Python 3.11 compiles six methods for each frozen one;
    the records there are msgspec structs). And the collector pause of
    ``mcp_tui.process.startup`` never applies outside the command line."""
    later = (
        "mcp",
        "mcp_tui.schema",
        "mcp_tui.url.check",
        "mcp_tui.ui.screens.confirm",
        "mcp_tui.session.oauth",
        # The chat extra (pydantic-ai, about a second) loads only when the chat opens.
        "pydantic_ai",
        "mcp_tui.config.chat_settings",
        "mcp_tui.chat.conversation",
        "mcp_tui.ui.screens.chat_screen",
    )
    script = textwrap.dedent(
        f"""
        import asyncio, dataclasses, gc, sys
        records = []  # dataclasses of mcp-tui made before the first frame (0.5 ms each)
        process = dataclasses._process_class
        def counted(cls, *args, **kwargs):
            if cls.__module__.startswith("mcp_tui") and not seen:
                records.append(cls.__qualname__)
            return process(cls, *args, **kwargs)
        dataclasses._process_class = counted
        seen = []
        from textual.app import App
        from mcp_tui.config.options import AppOptions
        from mcp_tui.config.servers import ServerSpec, StdioTarget
        from mcp_tui.ui.app import McpTuiApp
        from tests.waits import wait_until

        class Silent:  # a connection that never connects (imports nothing)
            state = info = None
            tools = prompts = resources = ()
            def __init__(self):
                self.closed = asyncio.Event()
            async def run(self):
                await self.closed.wait()
            async def close(self):
                self.closed.set()
            def set_elicitation_paused(self, paused):
                pass

        original = App._display
        def display(self, screen, renderable):
            original(self, screen, renderable)
            if renderable is not None and not seen:
                seen.append(set(sys.modules))
        App._display = display
        async def main():
            spec = ServerSpec("demo", StdioTarget("demo-server"))
            app = McpTuiApp([spec], AppOptions(), connection_factory=lambda *a, **k: Silent())
            async with app.run_test() as pilot:
                await wait_until(lambda: app.session.areas.panels_ready, pilot=pilot)
                areas = app.session.areas
                assert areas.logs is not None and areas.transcript is not None
            print(gc.isenabled())
            print(sorted(name for name in {later!r} if name in seen[0]))
            print("mcp_tui.ui.widgets.session.log_panel" in seen[0])
            print(app.session.areas.panels_ready)
            print(records)
        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:5] == ["True", "[]", "False", "True", "[]"]


async def test_panels_come_after_the_first_frame_and_events_wait_for_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first frame is the catalog, title and keys; the app mounts the panels next (here held
    back, as a fast typist would see them). Events buffered meanwhile are shown once they exist,
    and a key that needs a panel mounts them itself."""
    held, started, mounted = asyncio.Event(), asyncio.Event(), asyncio.Event()
    mount = McpTuiApp._mount_session_panels
    flushes = 0
    flush = McpTuiApp._flush_events

    async def later(self: McpTuiApp) -> None:
        started.set()
        await held.wait()
        await mount(self)
        mounted.set()

    def counted_flush(self: McpTuiApp) -> None:
        nonlocal flushes
        flushes += 1
        flush(self)

    monkeypatch.setattr(McpTuiApp, "_mount_session_panels", later)
    monkeypatch.setattr(McpTuiApp, "_flush_events", counted_flush)
    app, _ = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        session = session_of(app)
        await wait_until(started.is_set, pilot=pilot, message="the panels were never mounted")
        assert not session.areas.panels_ready and not session.query("#transcript, #logs, #info")
        assert "connecting" in str(tree_node(app, "demo", "").label)
        app._buffer.add(Notice("demo", "a notice before the panels"))
        seen = flushes
        await wait_until(lambda: flushes >= seen + 2, pilot=pilot, message="no flush ran")
        assert app._buffer.pending  # waiting, not dropped
        await pilot.press("l")  # the log panel's key: it mounts the panels first
        await wait_for(pilot, lambda: session.areas.panels_ready)
        assert not session.areas.logs.display  # and then does what it says
        await wait_for(pilot, lambda: "a notice before the panels" in transcript_text(app))
        held.set()
        await wait_until(mounted.is_set, pilot=pilot, message="the held mount never ended")
        await pilot.pause()
        assert len(session.query("#transcript")) == 1  # the app's own call mounted nothing twice


async def test_servers_show_state_and_one_failure_does_not_break_others() -> None:
    app, factory = make_app(
        {"broken": Script(fail="command not found: nope")}, servers=("demo", "broken")
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["broken"].state is ConnectionState.FAILED)
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        assert "command not found: nope" in transcript_text(app)
        assert "broken: failed" in transcript_text(app)
        assert "failed" in str(tree_node(app, "broken", "").label)
        # The healthy server still works.
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_for(pilot, lambda: bool(factory.latest("demo").calls))
        await wait_for(pilot, lambda: "ping got {}" in transcript_text(app))
        # The info panel shows what the server said about itself.
        info = session_of(app).query_one("#info").render()
        assert "fake-server 1.2.3" in str(info) and "2025-11-25" in str(info)


async def test_the_info_panel_says_when_it_is_cut_at_80x24() -> None:
    """A long description filled the info panel's four lines at 80x24 and the tool's arguments
    and the "i details" hint under it were cut without a sign. Now the description is in the
    server's region under mcp-tui's lines, cut to its own lines with a note saying where the
    rest is, and the arguments and the hint stay on screen."""
    from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree
    from mcp_tui.ui.widgets.session.info_panel import InfoPanel
    from mcp_tui.ui.widgets.text.server_text import ServerText
    from tests.ui.fixtures.fake_connection import ECHO_SCHEMA

    long = "Trigger a URL elicitation so the client can direct the user to a browser flow. " * 3
    tools = (
        ToolInfo("long", long + "THE END", input_schema=ECHO_SCHEMA),
        ToolInfo("short", "Echo the text back", input_schema=ECHO_SCHEMA),
    )
    app, _ = make_app({"demo": Script(tools=tools)})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        await wait_for(
            pilot, lambda: session.areas.panels_ready and catalog_has(app, "demo", "long")
        )
        tree = session.query_one(CatalogTree)
        info = session.query_one("#info", InfoPanel)
        prose = session.query_one("#info-text", ServerText)

        def shown() -> list[str]:
            return str(info.render()).splitlines()

        def said() -> list[str]:
            return str(prose.render()).splitlines()

        await cursor_on(pilot, tree, lambda: tree_node(app, "demo", "long"), "the long tool")
        await wait_for(pilot, lambda: bool(shown()) and shown()[0] == "tool long")
        assert shown() == ["tool long", "arguments text*, times", "Enter call · i details"]
        await wait_for(pilot, lambda: bool(said()) and said()[-1] == "… i: the full details")
        assert len(said()) == prose.content_region.height <= 2
        assert "THE END" not in str(prose.render())
        await cursor_on(pilot, tree, lambda: tree_node(app, "demo", "short"), "the short tool")
        await wait_for(pilot, lambda: shown()[0] == "tool short")
        assert said() == ["Echo the text back"]
        assert shown()[1:] == ["arguments text*, times", "Enter call · i details"]


# --- calling tools ---------------------------------------------------------------------------


async def test_call_tool_with_form_sends_typed_arguments() -> None:
    app, factory = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_until(lambda: catalog_has(app, "demo", "echo"), pilot=pilot)
        # Keyboard only: server line, Tools group, echo.
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        await pilot.press("ctrl+s")  # "text" is required: nothing is sent
        await wait_until(
            lambda: "fix the fields" in str(app.screen.query_one("#arguments-errors").render()),
            pilot=pilot,
            message="Ctrl+S with a required field empty showed no error",
        )
        assert isinstance(app.screen, ArgumentsScreen)
        assert factory.latest("demo").calls == []
        await pilot.press(*"hello", "tab", "backspace", "3", "ctrl+s")
        await wait_for(pilot, lambda: bool(factory.latest("demo").calls))
        name, arguments, call_id = factory.latest("demo").calls[0]
        assert (name, arguments) == ("echo", {"text": "hello", "times": 3})
        await wait_for(pilot, lambda: "echo got" in transcript_text(app))
        assert f"#{call_id} demo › echo" in transcript_text(app)
        assert not isinstance(app.screen, ArgumentsScreen)


async def test_json_editor_validates_before_sending() -> None:
    app, factory = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await open_node(pilot, app, "demo", "nested")
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        assert not app.screen.use_editor  # a nested object is a form now; F2 gives the JSON
        await pilot.press("f2")
        editor = await wait_for(pilot, lambda: app.screen.query("#arguments-json"))
        editor = app.screen.query_one("#arguments-json", TextArea)
        editor.text = '{"point": {"y": 2.5}}'
        await pilot.press("ctrl+s")  # point.x is missing
        await wait_until(
            lambda: "point/x: Required" in str(app.screen.query_one("#arguments-errors").render()),
            pilot=pilot,
            message="the missing point.x was never reported",
        )
        assert factory.latest("demo").calls == []
        editor.text = '{"point": {"x": 1, "y": 2.5}}'
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(factory.latest("demo").calls))
        assert factory.latest("demo").calls[0][:2] == ("nested", {"point": {"x": 1, "y": 2.5}})


async def test_errors_and_rich_results_in_transcript() -> None:
    results: dict[str, Any] = {
        "echo": CallOutcome(error="-32602 Invalid params: text is required", error_code=-32602),
        "ping": CallOutcome(
            items=(
                ContentItem("text", text="boom"),
                ContentItem("image", mime_type="image/png", size=5000),
            ),
            is_error=True,
        ),
    }
    app, _ = make_app({"demo": Script(results=results)})
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session_of(app).calls.call_tool("demo", "echo", {})
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_for(pilot, lambda: "the tool reported an error" in transcript_text(app))
        await wait_for(pilot, lambda: "-32602 Invalid params" in transcript_text(app))
        assert "[image: image/png, 4.9 KiB]" in transcript_text(app)


async def start_slow_call(
    app: McpTuiApp, pilot: Any, factory: Any, release: asyncio.Event, progress_steps: int = 0
) -> tuple[int | None, RunningCall]:
    """Call ``echo`` on a fake connection that sends ``progress_steps`` progress notifications
    at once and answers when ``release`` is set; returns the call id and its running row."""
    await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
    connection = factory.latest("demo")

    async def slow(name: str, arguments: Mapping[str, Any], *, call_id: int) -> CallOutcome:
        for step in range(1, progress_steps + 1):
            connection.sink(ProgressReceived("demo", call_id, step, progress_steps, f"step {step}"))
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text="done"),))

    connection.call_tool = slow
    call_id = session_of(app).calls.call_tool("demo", "echo", {"text": "x"})
    await wait_for(pilot, lambda: bool(app.query(RunningCall)))
    return call_id, app.query_one(RunningCall)


async def test_progress_bar_on_running_call() -> None:
    release = asyncio.Event()
    app, factory = make_app()
    async with app.run_test() as pilot:
        # A flood of progress: the bar moves once per flush.
        call_id, row = await start_slow_call(app, pilot, factory, release, progress_steps=300)
        await wait_for(pilot, lambda: bool(row.query(ProgressBar)))
        await wait_for(pilot, lambda: row.query_one(ProgressBar).progress == 300)
        assert row.call_id == call_id and row.query_one(ProgressBar).total == 300
        assert "step 300" in str(row.query_one(".running-message").render())
        release.set()
        await wait_for(pilot, lambda: not app.query(RunningCall))
        await wait_for(pilot, lambda: "done" in transcript_text(app))


async def test_a_call_without_progress_counts_seconds_and_has_no_bar() -> None:
    """No ``ProgressBar`` (and its 15 fps animation) until the server reports progress."""
    release = asyncio.Event()
    app, factory = make_app()
    async with app.run_test() as pilot:
        call_id, row = await start_slow_call(app, pilot, factory, release)
        connection = factory.latest("demo")
        await wait_for(pilot, lambda: bool(row.query(".running-message")))
        message = row.query_one(".running-message")
        await wait_for(pilot, lambda: "running 1 s" in str(message.render()))
        assert not row.query(ProgressBar)
        assert call_id is not None
        connection.sink(ProgressReceived("demo", call_id, 1, 4, "one of four"))
        await wait_for(pilot, lambda: bool(row.query(ProgressBar)))
        assert row.query_one(ProgressBar).total == 4
        assert "one of four" in str(message.render())
        release.set()
        await wait_for(pilot, lambda: not app.query(RunningCall))


async def test_a_running_call_with_a_long_name_shows_its_tool_and_bar_at_80_columns() -> None:
    """server-everything's ``trigger-long-running-operation`` at 80x24: the heading once took
    the whole first line and wrapped out of sight, leaving the tool's name, the bar and the
    progress message unseen. The heading is cut on its own line; the bar and message follow."""
    release = asyncio.Event()
    app, factory = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        connection = factory.latest("demo")
        tool = "trigger-long-running-operation-with-a-longer-name"

        async def slow(name: str, arguments: Mapping[str, Any], *, call_id: int) -> CallOutcome:
            connection.sink(ProgressReceived("demo", call_id, 2, 5, "step 2 of 5"))
            await release.wait()
            return CallOutcome(items=(ContentItem("text", text="done"),))

        connection.call_tool = slow
        session_of(app).calls.call_tool("demo", tool, {})
        await wait_for(pilot, lambda: bool(app.query(ProgressBar)))
        row = app.query_one(RunningCall)
        label = row.query_one(".running-label")
        bar = row.query_one(ProgressBar)
        message = row.query_one(".running-message")
        await wait_for(pilot, lambda: "step 2 of 5" in str(message.render()))
        await wait_for(pilot, lambda: bar.region.width > 0 and message.region.width > 0)
        visible = row.region
        for part in (label, bar, message):
            assert visible.contains_region(part.region), (part, part.region, visible)
        assert label.region.height == 1 and label.region.y < bar.region.y < message.region.y
        shown = str(label.render())
        assert shown.startswith("#") and "trigger" in shown  # the tool's name is in sight
        release.set()
        await wait_for(pilot, lambda: not app.query(RunningCall))


async def test_requested_call_runs_when_server_is_ready() -> None:
    options = AppOptions(call=ToolCallRequest("echo", {"text": "from the CLI"}))
    app, factory = make_app({"slow": Script(delay=0.2)}, servers=("slow",), options=options)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: bool(factory.made) and bool(factory.latest("slow").calls))
        assert factory.latest("slow").calls[0][:2] == ("echo", {"text": "from the CLI"})
        await wait_for(pilot, lambda: "echo got" in transcript_text(app))


async def test_requested_call_without_args_opens_the_form_of_a_tool_with_required_ones() -> None:
    """``--call echo`` with no ``--args``: echo requires ``text``, so its arguments form opens
    instead of a call with ``{}`` that the server can only refuse."""
    from mcp_tui.ui.screens.arguments import ArgumentsScreen

    options = AppOptions(call=ToolCallRequest("echo", ask=True))
    app, factory = make_app(options=options)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        assert factory.latest("demo").calls == []
        await pilot.press("escape")  # the transcript says why the form opened
        await wait_for(
            pilot, lambda: "--call echo: it has required arguments" in transcript_text(app)
        )


async def test_requested_call_without_args_calls_a_tool_with_none_required() -> None:
    options = AppOptions(call=ToolCallRequest("ping", ask=True))
    app, factory = make_app(options=options)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: bool(factory.made) and bool(factory.latest("demo").calls))
        assert factory.latest("demo").calls[0][:2] == ("ping", {})


async def test_requested_call_for_missing_tool_says_so() -> None:
    options = AppOptions(call=ToolCallRequest("nope"))
    app, factory = make_app(options=options)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "does not offer a tool named 'nope'" in transcript_text(app))
        assert factory.latest("demo").calls == []


# --- prompts and resources -------------------------------------------------------------------


async def test_prompt_resource_and_template() -> None:
    script = Script(
        prompts=(
            PromptInfo("greet", "Say hi", arguments=(PromptArgumentInfo("who", None, True),)),
        ),
        resources=(
            ResourceInfo("file:///readme.md", "readme", mime_type="text/markdown"),
            ResourceInfo("file:///logs/{day}", "logs", template=True),
        ),
    )
    app, factory = make_app({"demo": script})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_until(lambda: catalog_has(app, "demo", "greet"), pilot=pilot)
        await open_node(pilot, app, "demo", "greet")
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        await pilot.press(*"Ada", "ctrl+s")
        await wait_for(pilot, lambda: bool(factory.latest("demo").prompt_gets))
        assert factory.latest("demo").prompt_gets == [("greet", {"who": "Ada"})]
        await wait_for(pilot, lambda: "user:" in transcript_text(app))
        assert "a greeting" in transcript_text(app)

        await open_node(pilot, app, "demo", "readme")
        await wait_for(pilot, lambda: factory.latest("demo").reads == ["file:///readme.md"])
        await wait_for(pilot, lambda: "contents of file:///readme.md" in transcript_text(app))

        await open_node(pilot, app, "demo", "logs")
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        await pilot.press(*"2024-01-02", "ctrl+s")
        await wait_for(pilot, lambda: len(factory.latest("demo").reads) == 2)
        assert factory.latest("demo").reads[1] == "file:///logs/2024-01-02"


# --- logs, traffic, notices, elicitation results ---------------------------------------------


async def test_log_flood_is_batched_and_bounded() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        logs = session_of(app).areas.logs
        writes = 0
        original = logs.write

        def counting_write(*args: Any, **kwargs: Any) -> Any:
            nonlocal writes
            writes += 1
            return original(*args, **kwargs)

        logs.write = counting_write  # type: ignore[method-assign]
        sink = factory.latest("demo").sink
        for i in range(5000):
            sink(LogReceived("demo", "warning", "flood", {"i": i}))
        sink(StderrReceived("demo", "last stderr line"))
        await wait_for(pilot, lambda: logs.lines_written > 0)
        await events_shown(pilot, app)
        assert writes <= 2  # one write per flush, not one per message
        # Only what can be read is drawn: about two panels' worth; the rest is counted.
        shown = logs.batch_lines()
        assert shown == max(MIN_BATCH_LINES, 2 * logs.scrollable_content_region.height)
        assert logs.lines_written == shown
        assert logs.lines_not_shown == 5001 - shown
        text = "".join(line.text for line in logs.lines)
        assert f"… {5001 - shown:,} log lines dropped from view (not shown" in text
        assert "last stderr line" in text and '{"i": 4999}' in text


async def test_a_tall_log_panel_draws_two_screens_and_long_lines_stop_at_the_char_cap() -> None:
    app, factory = make_app()
    async with app.run_test(size=(120, 60)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        logs = session_of(app).areas.logs
        logs.styles.height = 32  # as if maximized: the cap follows the panel's height
        await pilot.pause()
        height = logs.scrollable_content_region.height
        assert 2 * height > MIN_BATCH_LINES  # the panel's height, not the floor, sets the cap
        sink = factory.latest("demo").sink
        for i in range(1000):
            sink(LogReceived("demo", "info", "flood", f"short {i}"))
        await wait_for(pilot, lambda: logs.lines_written > 0)
        assert logs.lines_written == 2 * height
        assert logs.lines_not_shown == 1000 - 2 * height
        # Long lines: the character budget ends the batch sooner (wrapping costs per line).
        written = logs.lines_written
        for i in range(200):
            sink(LogReceived("demo", "info", "flood", f"{i:04} " + "x" * 1900))
        await wait_for(pilot, lambda: logs.lines_written > written)
        drawn = logs.lines_written - written
        assert 1 <= drawn <= BATCH_CHARS // 1900 + 1 < 2 * height
        assert logs.lines_not_shown == 1000 - 2 * height + 200 - drawn
        assert "0199 xxx" in "".join(line.text for line in logs.lines)  # the newest is drawn


async def test_a_flush_with_no_wait_ended_leaves_the_footer_alone() -> None:
    """Rebuilding the footer on every 50 ms flush was most of a 35 s stall under a log flood:
    the waiting rows and the footer are redrawn only when a URL wait really ended."""
    app, factory = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await events_shown(pilot, app)
        session = session_of(app)
        calls = {"refresh_bindings": 0, "url_waits_changed": 0}
        for name in calls:
            owner = session if name == "refresh_bindings" else session.areas
            original = getattr(owner, name)

            def counting(*args: Any, _name: str = name, _original: Any = original) -> Any:
                calls[_name] += 1
                return _original(*args)

            setattr(owner, name, counting)
        wait = app.url_waits.add(
            ElicitationRequest(
                server="demo",
                message="m",
                mode="url",
                url="https://example.com/x",
                elicitation_id="e1",
            )
        )
        sink = factory.latest("demo").sink
        logs = session.areas.logs
        for round_ in range(5):  # several flushes, each with logs and a completion of no wait
            written = logs.lines_written
            for i in range(200):
                sink(LogReceived("demo", "info", "flood", f"{round_}.{i}"))
            sink(ElicitationCompleted("demo", "not-waiting"))
            await wait_for(pilot, lambda w=written: logs.lines_written > w)  # type: ignore[misc]
        await events_shown(pilot, app)
        assert calls == {"refresh_bindings": 0, "url_waits_changed": 0}
        assert wait.waiting
        sink(ElicitationCompleted("demo", "e1"))
        await wait_for(pilot, lambda: not wait.waiting)
        await events_shown(pilot, app)
        assert calls == {"refresh_bindings": 1, "url_waits_changed": 1}


async def test_traffic_view_toggle_shows_messages() -> None:
    app, factory = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        sink = factory.latest("demo").sink
        request = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "e"}}
        sink(TrafficRecorded("demo", "out", request))
        sink(TrafficRecorded("demo", "in", {"jsonrpc": "2.0", "id": 7, "result": {}}))
        await events_shown(pilot, app)
        session = session_of(app)
        assert not session.areas.traffic.display
        await pilot.press("t")
        await wait_until(
            lambda: session.areas.traffic.display and session.areas.traffic.table.row_count >= 2,
            pilot=pilot,
        )
        assert session.areas.traffic.display and not session.areas.transcript.display
        rows = session.areas.traffic.text().splitlines()
        # One line per message: time, direction, what it means, id, size, latency, server.
        assert " → tools/call · e 7 " in rows[0] and rows[0].endswith(" demo")
        assert " ← tools/call · ok 7 " in rows[1] and " ms " in rows[1]
        # The highlighted message (the newest) in full under the table; Up shows the request.
        session.areas.traffic.focus()
        await pilot.press("up")
        await wait_until(lambda: '"name": "e"' in session.areas.traffic.text(), pilot=pilot)
        # Enter opens the row full screen: the view asks, the app pushes the tree.
        await pilot.press("enter")
        tree = await wait_until(lambda: mounted_screen(app, MessageTreeScreen), pilot=pilot)
        assert tree.message == request
        await pilot.press("escape")
        await wait_until(lambda: app.screen is session, pilot=pilot)
        await pilot.press("t")
        await wait_until(
            lambda: session.areas.transcript.display and not session.areas.traffic.display,
            pilot=pilot,
            message="the transcript back in place of the traffic view",
        )


async def test_notices_refusals_and_elicitation_outcomes_in_transcript() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        sink = factory.latest("demo").sink
        sink(Notice("demo", "3 requests cancelled automatically", "warning"))
        sink(
            ElicitationRefused("demo", "Fill this", ("address: nested objects are not supported",))
        )
        request = ElicitationRequest(server="demo", message="How old?", mode="form", tool="echo")
        app.post_message(ElicitationShown(request))
        app.post_message(ElicitationFinished(request, ElicitationOutcome("accept", {"age": 30})))
        await wait_for(pilot, lambda: "accepted" in transcript_text(app))
        text = transcript_text(app)
        assert "3 requests cancelled automatically" in text
        assert "- address: nested objects are not supported" in text
        assert "demo asks for a form during echo" in text and "How old?" in text
        assert '"age": 30' in text


async def test_detail_view_shows_full_text() -> None:
    long_text = "\n".join(f"line {i}" for i in range(200))
    results: dict[str, Any] = {"ping": CallOutcome(items=(ContentItem("text", text=long_text),))}
    app, _ = make_app({"demo": Script(results=results)})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_for(pilot, lambda: "then Enter or i: full text" in transcript_text(app))
        transcript = session_of(app).areas.transcript
        transcript.focus()
        await wait_for(pilot, lambda: transcript.index == len(transcript.entries) - 1)
        await pilot.press("enter")
        await wait_for(pilot, lambda: mounted_screen(app, DetailScreen) is not None)
        assert "line 199" in app.screen.query_one(TextArea).text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, DetailScreen))


# --- reconnect, stop asking, palette, quitting -----------------------------------------------


async def test_reconnect_replaces_the_connection() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        first = factory.latest("demo")
        await pilot.press("R")
        await wait_for(pilot, lambda: len(factory.made) == 2)
        # The entry's state and the transcript follow the events at the app's next flush: until
        # then the entry still says READY, the first connection's state.
        await wait_until(lambda: "reconnecting" in transcript_text(app), pilot=pilot)
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_until(lambda: first.close_count == 1, pilot=pilot)
        assert app.entries["demo"].connection is factory.latest("demo")


async def test_stop_asking_toggle() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await pilot.press("x")
        await wait_until(lambda: factory.latest("demo").paused is True, pilot=pilot)
        await wait_until(lambda: "not asking" in str(tree_node(app, "demo", "").label), pilot=pilot)
        await pilot.press("x")
        await wait_until(lambda: factory.latest("demo").paused is False, pilot=pilot)


async def test_command_palette_calls_a_tool() -> None:
    app, _ = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await run_from_palette(pilot, app, "call tool demo echo", "echo")
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))


async def test_quit_closes_every_connection() -> None:
    app, factory = make_app(servers=("a", "b"))
    async with app.run_test() as pilot:
        await wait_for(
            pilot, lambda: all(e.state is ConnectionState.READY for e in app.entries.values())
        )
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running)
    assert [c.close_count for c in factory.made] == [1, 1]


async def test_quit_with_a_form_open_asks_first() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await open_node(pilot, app, "demo", "echo")
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, ArgumentsScreen))
        assert factory.latest("demo").close_count == 0
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running)
    assert factory.latest("demo").close_count == 1


async def test_nothing_shows_through_an_opaque_screen_and_the_session_catches_up_after() -> None:
    """``McpTuiApp._background_screens``: under an opaque screen the session screen is not
    'visible' to Textual (no layout on resize, no redraws forwarded to the form); under the
    translucent palette it is; after a resize while covered it comes back at the new size."""
    app, _ = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        fields = (FieldSpec("name", FieldKind.TEXT, "Name"),)
        request = ElicitationRequest("demo", "Name?", "form", form=FormSpec(fields))
        assert app.handler is not None
        answer = asyncio.create_task(app.handler.elicit(request))
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        assert app.screen.styles.background.a == 1
        assert app._background_screens == [] and not session.is_current
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.press("escape")
        assert (await answer).action == "cancel"
        await wait_for(pilot, lambda: app.screen is session)
        await pilot.pause()
        assert session.is_current and session.size == (120, 40)
        assert session.areas.catalog.size.height > 30 - 4  # laid out again at the new height
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: app.screen is not session)
        assert app.screen.styles.background.a < 1
        assert app._background_screens == [session] and session.is_current
        await pilot.press("escape")


# --- catalog refresh, rate-limit pause, transcript bound (-32042: test_app_url.py) ----------


async def test_list_changed_refreshes_the_catalog_and_keeps_the_cursor() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_until(lambda: catalog_has(app, "demo", "nested"), pilot=pilot)
        await events_shown(pilot, app)
        tree = session_of(app).areas.catalog
        await cursor_on(pilot, tree, lambda: tree_node(app, "demo", "nested"), "nested")
        connection = factory.latest("demo")
        new_tools = (*connection.tools, ToolInfo("weather", "Brand new"))
        connection.sink(CatalogChanged("demo", tools=new_tools))
        await wait_for(pilot, lambda: len(app.entries["demo"].tools) == 4)
        await wait_until(lambda: catalog_has(app, "demo", "weather"), pilot=pilot)
        await events_shown(pilot, app)
        assert "weather" in str(tree_node(app, "demo", "weather").label)
        cursor = tree.cursor_node
        assert cursor is not None and cursor.data is not None
        assert getattr(cursor.data.item, "name", None) == "nested"


async def test_rate_limit_pause_shows_on_the_server() -> None:
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        factory.latest("demo").sink(ElicitationPauseChanged("demo", True, by_limit=True))
        await wait_for(pilot, lambda: app.entries["demo"].paused)
        await wait_until(lambda: "not asking" in str(tree_node(app, "demo", "").label), pilot=pilot)
        await pilot.press("x")  # turn asking back on
        await wait_until(lambda: factory.latest("demo").paused is False, pilot=pilot)
        # The connection reports the change as an event; the entry follows at the next flush.
        await wait_until(lambda: not app.entries["demo"].paused, pilot=pilot)


async def test_transcript_is_bounded() -> None:
    app, _ = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        transcript = session.areas.transcript
        transcript.limit = 50
        for i in range(3):
            session.areas.queue_entries(
                notice_entry(Notice("demo", f"n{i}-{j}")) for j in range(40)
            )
            last = f"demo: n{i}-39"
            await wait_until(
                lambda last=last: transcript.entries[-1].full == last,  # type: ignore[misc]
                pilot=pilot,
            )
        await wait_until(lambda: len(transcript.children) <= 50, pilot=pilot)
        assert len(transcript.entries) == 50 and len(transcript.children) == 50
        assert transcript.entries[-1].full == "demo: n2-39"
        assert transcript.dropped >= 70
