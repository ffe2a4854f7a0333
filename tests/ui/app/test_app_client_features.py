"""The client-feature keys and verbs on the session screen, with fake connections: cancelling
(``c``, a choice among several calls, offered after ``g``), the roots dialog (``o``), the palette
verbs. The real servers' side of each is in ``tests/interop`` and ``tests/session``."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from mcp_tui.config.roots import make_root
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import CallOutcome, ConnectionState, ContentItem
from mcp_tui.session.tasks import TaskSummary
from mcp_tui.ui.app.commands import verbs
from mcp_tui.ui.messages import ElicitationFinished
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.pick import PickScreen
from mcp_tui.ui.screens.roots_dialog import RootsScreen
from tests.ui.app_testkit import Script, make_app, mounted_screen, session_of, wait_for

pytestmark = pytest.mark.anyio


def slow_tool(release: asyncio.Event) -> Any:
    async def run(_conn: Any, _args: Any, _call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text="done"),))

    return run


async def test_c_with_several_calls_asks_which_one() -> None:
    release = asyncio.Event()
    app, factory = make_app({"demo": Script(results={"echo": slow_tool(release)})})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        session = session_of(app)
        first = session.calls.call_tool("demo", "echo", {"text": "a"})
        second = session.calls.call_tool("demo", "echo", {"text": "b"})
        await wait_for(pilot, lambda: factory.latest("demo").in_flight == {first, second})
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: factory.latest("demo").cancelled == [second])
        names = [v.text for v in verbs(app, session) if v.verb == "Cancel call"]
        assert names == [
            f"Cancel call  #{first} demo › echo",
            f"Cancel call  #{second} demo › echo",
        ]
        release.set()
        await wait_for(pilot, lambda: not session.calls.cancellable)
        assert "cancel_call" not in {b.binding.action for b in app.active_bindings.values()}


async def test_giving_up_a_url_wait_offers_to_cancel_its_call() -> None:
    release = asyncio.Event()

    async def connect(_conn: Any, _args: Any, call_id: int) -> CallOutcome:
        request = ElicitationRequest(
            server="demo",
            message="Connect first",
            mode="url",
            url="https://example.com/connect",
            elicitation_id="e1",
            tool="connect",
            call_id=call_id,
        )
        app.post_message(ElicitationFinished(request, ElicitationOutcome("accept")))
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text="Connected"),))

    app, factory = make_app({"demo": Script(results={"connect": connect})})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        call_id = session_of(app).calls.call_tool("demo", "connect", {})
        await wait_for(pilot, lambda: bool(app.url_waits.waiting))
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: factory.latest("demo").cancelled == [call_id])
        release.set()


async def test_the_roots_dialog_adds_removes_and_applies(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    app, factory = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        fake = factory.latest("demo")
        start = fake.roots
        assert [r.path for r in start] == [str(Path.cwd().resolve())]
        await pilot.press("o")
        await wait_for(pilot, lambda: mounted_screen(app, RootsScreen) is not None)
        screen = app.screen
        assert isinstance(screen, RootsScreen)
        screen.query_one("#roots-input").value = str(tmp_path / "b")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(screen.roots) == 2)
        screen.query_one("#roots-list").focus()
        await pilot.press("home", "delete")  # the first one (the working directory) goes
        await wait_for(pilot, lambda: len(screen.roots) == 1)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: fake.roots == (make_root(tmp_path / "b"),))
        assert app.entries["demo"].spec.roots == (str(tmp_path / "b"),)  # kept for a reconnect
        # Escape changes nothing.
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, RootsScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, RootsScreen))
        assert fake.roots == (make_root(tmp_path / "b"),)


async def test_palette_verbs_per_server() -> None:
    info = replace(Script().info, capabilities={"tools": {}, "logging": {}})
    app, _ = make_app({"demo": Script(info=info)})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        names = {v.text for v in verbs(app, session_of(app))}
        assert {"Roots  demo", "Ping  demo", "Log level  demo"} <= names
        session_of(app).features.ping("demo")
        await wait_for(pilot, lambda: "ping answered in 1.0 ms" in _transcript(app))


@pytest.mark.parametrize(
    ("version", "capabilities", "offered"),
    [
        ("2025-11-25", {"tools": {}}, False),  # logging/setLevel would be -32601
        ("2025-11-25", {"tools": {}, "logging": {}}, True),
        ("2026-07-28", {"tools": {}}, True),  # the level rides each request
    ],
)
async def test_log_level_is_offered_only_where_it_can_work(
    version: str, capabilities: dict[str, Any], offered: bool
) -> None:
    info = replace(Script().info, capabilities=capabilities, protocol_version=version)
    app, _ = make_app({"demo": Script(info=info)})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        names = {v.text for v in verbs(app, session_of(app))}
        assert ("Log level  demo" in names) is offered
        assert "Ping  demo" in names  # the verbs of a ready server were listed


async def test_the_tasks_verb_lists_the_servers_tasks() -> None:
    """``tasks/list`` through the UI's ``Connection`` protocol: one line per task, the server's
    strings on one line each; a failure is said, not dropped."""
    info = replace(Script().info, capabilities={"tools": {}, "tasks": {"list": {}}})
    hostile = TaskSummary("t-2", "input_required", "needs [b]you[/b]\x1b[31m\nnow")
    tasks = (TaskSummary("t-1", "working"), hostile)
    app, factory = make_app({"demo": Script(info=info, tasks=tasks)})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        assert "Tasks  demo" in {v.text for v in verbs(app, session_of(app))}
        session_of(app).features.list_tasks("demo")
        await wait_for(pilot, lambda: "tasks/list: 2 tasks" in _transcript(app))
        text = _transcript(app)
        assert "t-1  working" in text
        assert "t-2  input_required  needs [b]you[/b]" in text and "\x1b" not in text
        factory.latest("demo").script.tasks = "the server went away"
        session_of(app).features.list_tasks("demo")
        await wait_for(pilot, lambda: "tasks/list failed: the server went away" in _transcript(app))


def _transcript(app: Any) -> str:
    session = session_of(app)
    return (
        "\n".join(e.full for e in session.areas.transcript.entries)
        if session.areas.panels_ready
        else ""
    )


async def test_the_chosen_log_level_survives_a_reconnect() -> None:
    """The level the person picked is asked for again by the next connection (R, or E to the
    other era), and the info panel keeps showing it; subscriptions start afresh."""
    app, factory = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        entry = app.entries["demo"]
        await wait_for(pilot, lambda: entry.state is ConnectionState.READY)
        session = session_of(app)
        session.features.choose_log_level("demo")
        await wait_for(pilot, lambda: isinstance(app.screen, PickScreen))
        await pilot.press("down", "down", "down", "enter")  # debug -> warning
        await wait_for(pilot, lambda: entry.log_level == "warning")
        # Written to the transcript, not only a toast that vanishes (issue 28, item 17).
        await wait_for(pilot, lambda: "log level warning" in _transcript(app))
        first = factory.latest("demo")
        assert first.log_level == "warning"
        entry.subscribed.add("demo://a")
        app.reconnect("demo")
        await wait_for(
            pilot,
            lambda: factory.latest("demo") is not first and entry.state is ConnectionState.READY,
        )
        assert factory.latest("demo").log_level == "warning"
        assert entry.log_level == "warning" and entry.subscribed == set()
        await wait_for(pilot, lambda: "logs: warning" in str(session.query_one("#info").render()))
