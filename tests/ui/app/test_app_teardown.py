"""Events that arrive while the session screen is being taken down never crash the app.

Textual removes a screen's widgets before the screen itself (``_prune``: every node is marked,
the children close, then the screen gets its ``Unmount``), while the app's own timers, its
``call_later`` queue and the screen's workers keep running until later. A server that keeps
sending (a test ending, a user quitting while notifications stream in) lands its events in that
window: a flush then queried ``#catalog`` of a screen that had none left (``NoMatches``). Each
test here delivers something in exactly that window, from the session screen's ``Unmount``
(every child gone, the screen still the app's ``session``), and checks nothing raised.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.css.query import NoMatches
from textual.worker import WorkerState

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import (
    CallOutcome,
    ConnectionState,
    ContentItem,
    LogReceived,
    Notice,
    ServerStateChanged,
)
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.render import notice_entry
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.screens.session.calls import Calls
from tests.ui.app_testkit import Script, make_app, session_of, transcript_text, wait_for, wait_until

pytestmark = pytest.mark.anyio


Arrival = Callable[[McpTuiApp], Awaitable[None]]


def _gone(app: McpTuiApp) -> bool:
    """The window: the session screen's widgets are removed, the screen not yet."""
    try:
        session_of(app).query_one("#catalog")
    except NoMatches:
        return True
    return False


async def _events_then_the_flush_timer(app: McpTuiApp) -> None:
    """What the flaky run saw: a server's events, moved by the app's own flush timer."""
    flushed = asyncio.Event()
    app.flushes_seen = flushed  # type: ignore[attr-defined]
    sink = app.entries["demo"].connection.sink  # type: ignore[union-attr]
    sink(ServerStateChanged("demo", ConnectionState.CLOSED, "the server went away"))
    sink(LogReceived("demo", "info", "late", "a log line after the screen went"))
    sink(Notice("demo", "a notice after the screen went"))
    await asyncio.wait_for(flushed.wait(), timeout=10)


async def _transcript_entries(app: McpTuiApp) -> None:
    session_of(app).areas.queue_entries([notice_entry(Notice("demo", "late"))])
    app._flush_events()


async def _url_wait_ended(app: McpTuiApp) -> None:
    request = ElicitationRequest(
        server="demo", message="m", mode="url", url="https://example.com/x", elicitation_id="e1"
    )
    wait = app.url_waits.add(request)
    app.end_url_wait(wait.key, "done")
    app.waits.expire()


async def _server_redrawn(app: McpTuiApp) -> None:
    app.refresh_server("demo")
    app.set_elicitation_paused("demo", True)


async def _call_ends(app: McpTuiApp) -> None:
    """A tool call that returns now: its worker ends (its outcome goes to the app's queue, which
    runs once the screen is gone)."""
    release: asyncio.Event = app.release_call  # type: ignore[attr-defined]
    ended: asyncio.Event = app.call_ended  # type: ignore[attr-defined]
    worker = next(w for w in app.workers if w.group == "calls")
    release.set()
    await wait_until(lambda: ended.is_set() or worker.is_finished, message="the call never ended")
    if worker.state is WorkerState.ERROR:
        raise AssertionError(f"the call's worker failed: {worker.error!r}")


@pytest.mark.parametrize(
    "arrive",
    [
        _events_then_the_flush_timer,
        _transcript_entries,
        _url_wait_ended,
        _server_redrawn,
        _call_ends,
    ],
)
async def test_an_event_during_teardown_is_dropped_not_raised(
    monkeypatch: pytest.MonkeyPatch, arrive: Arrival
) -> None:
    flush = McpTuiApp._flush_events

    def counted_flush(self: McpTuiApp) -> None:
        try:
            flush(self)
        finally:
            seen = getattr(self, "flushes_seen", None)
            if seen is not None:
                seen.set()

    monkeypatch.setattr(McpTuiApp, "_flush_events", counted_flush)
    release = asyncio.Event()
    ended = asyncio.Event()
    call_ended = Calls._call_ended

    def ending(self: Calls, server: str, call_id: int) -> None:
        call_ended(self, server, call_id)
        ended.set()

    monkeypatch.setattr(Calls, "_call_ended", ending)

    async def slow(_connection: Any, _arguments: Any, _call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text="done at last"),))

    app, _ = make_app({"demo": Script(results={"slow": slow})})
    app.release_call = release  # type: ignore[attr-defined]
    app.call_ended = ended  # type: ignore[attr-defined]
    errors: list[BaseException] = []
    arrived: list[bool] = []

    async def in_the_window(self: SessionScreen) -> None:
        assert _gone(app) and app.session is self
        try:
            await arrive(app)
        except Exception as error:  # reported below, with the arrival's name
            errors.append(error)
        arrived.append(True)

    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_for(pilot, lambda: session_of(app).areas.panels_ready)
        session_of(app).calls.call_tool("demo", "slow", {})
        await wait_for(pilot, lambda: bool(session_of(app).calls.cancellable))
        monkeypatch.setattr(SessionScreen, "on_unmount", in_the_window, raising=False)
    assert arrived == [True], "the arrival never ran in the teardown window"
    assert errors == [], f"{arrive.__name__}: {errors!r}"


async def test_an_outcome_written_after_exit_was_asked_is_dropped_not_raised() -> None:
    """Ctrl+Q closes the connections, then exits: a call that returned as its connection closed
    had its outcome written after ``App.exit()``, when Textual counts no widget as attached any
    more but has removed none yet (``MountError`` from the transcript, seen quitting with a form
    open over a running call)."""
    app, _ = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_for(pilot, lambda: session_of(app).areas.panels_ready)
        session = session_of(app)
        app.exit()
        assert not session.areas.panels_live
        session.areas.queue_entries([notice_entry(Notice("demo", "the call ended as it closed"))])
        session.areas.flush_entries()  # raised MountError
        app._flush_events()


@pytest.mark.parametrize("state", ["_pruning", "_closing", "_closed"])
async def test_a_server_event_on_a_screen_in_each_teardown_state_is_not_drawn(state: str) -> None:
    """Each of Textual's teardown marks alone stops drawing (``closing.py``): ``_pruning`` from
    ``App._prune`` on (the widgets still there, about to go), ``_closing`` once the screen's
    message loop closes, ``_closed`` after it. The screen is put in exactly one state while a
    server's notice arrives and the app's flush runs: the notice stays in the buffer, undrawn; out
    of that state, the same flush draws it (so the arrival does reach the transcript). A guard
    narrowed to fewer marks draws on a screen that is going."""
    app, _ = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        await wait_for(pilot, lambda: session_of(app).areas.panels_ready)
        session = session_of(app)
        sink = app.entries["demo"].connection.sink  # type: ignore[union-attr]
        shown = len(session.areas.transcript.entries)
        setattr(session, state, True)  # nothing awaits in between: no message runs meanwhile
        try:
            sink(Notice("demo", "a notice while the screen goes"))
            app._flush_events()
            kept = app._buffer.pending
            drawn = len(session.areas.transcript.entries) - shown
        finally:
            setattr(session, state, False)
        assert (kept, drawn) == (True, 0)
        app._flush_events()
        await wait_until(
            lambda: "a notice while the screen goes" in transcript_text(app),
            pilot=pilot,
            message="drawn once the screen is live",
        )
