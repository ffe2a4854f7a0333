"""Accepted URL requests wait visibly for completion; -32042 retries; the loop guard (fakes).

The fake connection stands in for the server; a small handler stands in for the consent screen
(it answers at once and posts ``ElicitationFinished`` like the real one), so these tests are about
what the session screen does after consent. ``test_app_url_demo.py`` runs the same flows on the
real demo server with the real consent screen.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.app import App

from mcp_tui.session.elicitation import Action, ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import (
    CallOutcome,
    ConnectionState,
    ContentItem,
    ElicitationCompleted,
    ElicitationPauseChanged,
    ServerStateChanged,
)
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.messages import ElicitationFinished
from mcp_tui.ui.render import INVALID_32042
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.url_waits import UrlWaits
from mcp_tui.ui.widgets.session.catalog_tree import server_label
from mcp_tui.ui.widgets.session.url_waits_panel import UrlWaitsPanel
from tests.ui.app_testkit import (
    Script,
    events_shown,
    make_app,
    run_from_palette,
    session_of,
    transcript_text,
    wait_for,
    wait_until,
)

pytestmark = pytest.mark.anyio

URL = "https://example.com/connect?x=1"


class Answering:
    """Answers every request with ``action`` and tells the app, as the real handler does."""

    def __init__(self, app: App[Any], action: Action = "accept") -> None:
        self.app = app
        self.action: Action = action
        self.seen: list[ElicitationRequest] = []

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        self.seen.append(request)
        outcome = ElicitationOutcome(self.action)
        self.app.post_message(ElicitationFinished(request, outcome))
        return outcome


def url_request(ident: str | None = "e1", url: str = URL, **kw: Any) -> ElicitationRequest:
    return ElicitationRequest(
        server="demo", message="Connect first", mode="url", url=url, elicitation_id=ident, **kw
    )


def needs_url(*requests: ElicitationRequest) -> CallOutcome:
    return CallOutcome(
        error="-32042 URL elicitation required", error_code=-32042, url_elicitations=requests
    )


def panel_text(app: McpTuiApp) -> str:
    panel = session_of(app).query_one(UrlWaitsPanel)
    return str(panel.render()) if panel.display else ""


def footer_keys(app: McpTuiApp) -> dict[str, str]:
    return {b.binding.action: b.binding.description for b in app.active_bindings.values()}


async def ready(app: McpTuiApp, pilot: Any, action: Action = "accept") -> Answering:
    await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
    await events_shown(pilot, app)
    handler = Answering(app, action)
    app.connections.handler = handler
    return handler


# --- -32042 ------------------------------------------------------------------------------------


async def test_32042_waits_for_the_completion_then_offers_one_retry() -> None:
    outcomes = [needs_url(url_request("e1")), CallOutcome(items=(ContentItem("text", text="ok"),))]
    app, factory = make_app({"demo": Script(results={"ping": lambda _args: outcomes.pop(0)})})
    async with app.run_test(size=(120, 40)) as pilot:
        handler = await ready(app, pilot)
        session_of(app).calls.call_tool("demo", "ping", {"a": 1})
        await wait_for(pilot, lambda: bool(app.url_waits.waiting))
        await wait_until(
            lambda: "waiting for example.com to finish" in panel_text(app), pilot=pilot
        )
        # Accepted, waiting, visibly: no retry offered before the server finishes the page.
        assert [r.url for r in handler.seen] == [URL]
        assert "waiting for example.com to finish" in panel_text(app)
        assert "left" in panel_text(app)
        assert footer_keys(app)["url_done"] == "Done"
        assert not isinstance(app.screen, ConfirmScreen)
        connection = factory.latest("demo")
        connection.sink(ElicitationCompleted("demo", "e1"))
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "example.com is finished" in transcript_text(app)
        assert panel_text(app) == ""
        assert "url_done" not in footer_keys(app)
        await pilot.press("y")  # one key retries
        await wait_for(pilot, lambda: len(connection.calls) == 2)
        await wait_for(pilot, lambda: "◀ #2 demo › ping" in transcript_text(app))
    assert [c[:2] for c in connection.calls] == [("ping", {"a": 1}), ("ping", {"a": 1})]


async def test_the_same_urls_after_a_retry_stop_the_loop_and_say_why() -> None:
    app, factory = make_app({"demo": Script(results={"ping": lambda _a: needs_url(url_request())})})
    async with app.run_test(size=(120, 40)) as pilot:
        handler = await ready(app, pilot)
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_for(pilot, lambda: bool(app.url_waits.waiting))
        await pilot.press("d")  # the user says the page is done (it was not, really)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "you marked the page at example.com as done" in transcript_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: "not retried" in transcript_text(app))
        await events_shown(pilot, app)
        text = transcript_text(app)
        assert "asked for the same page again" in text and "stops here" in text
        # In the order it happened: the retry's -32042, then why it stops there.
        assert text.rindex("✗ #2 demo › ping") < text.index("not retried")
        assert not isinstance(app.screen, ConfirmScreen)
        assert len(factory.latest("demo").calls) == 2
        assert len(handler.seen) == 1  # the repeated URL is not even shown again


async def test_new_urls_after_a_retry_are_asked_but_rounds_are_bounded() -> None:
    count = iter(range(100))

    def fresh(_args: Any) -> CallOutcome:
        return needs_url(url_request(None, url=f"https://example.com/step/{next(count)}"))

    app, factory = make_app({"demo": Script(results={"ping": fresh})})
    async with app.run_test(size=(120, 40)) as pilot:
        handler = await ready(app, pilot)
        session_of(app).calls.call_tool("demo", "ping", {})
        calls = factory.latest("demo").calls

        async def calls_reach(count: int) -> None:
            await wait_for(pilot, lambda: len(calls) == count)

        for round_ in range(3):
            await wait_for(pilot, lambda: bool(app.url_waits.waiting))
            await pilot.press("d")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await calls_reach(round_ + 2)
        await wait_for(pilot, lambda: "stops retrying" in transcript_text(app))
        assert len(handler.seen) == 3 and not app.url_waits.waiting


@pytest.mark.parametrize(("action", "said"), [("decline", "declined"), ("cancel", "cancelled")])
async def test_a_refused_page_is_not_waited_for_nor_retried(action: Action, said: str) -> None:
    app, factory = make_app({"demo": Script(results={"ping": needs_url(url_request())})})
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot, action)
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_for(pilot, lambda: f"You {said} the page" in transcript_text(app))
        assert not app.url_waits.waiting and len(factory.latest("demo").calls) == 1


async def test_giving_up_ends_the_wait_without_a_retry() -> None:
    app, factory = make_app({"demo": Script(results={"ping": needs_url(url_request())})})
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_for(pilot, lambda: bool(app.url_waits.waiting))
        await pilot.press("g")
        await wait_for(pilot, lambda: "You stopped waiting for the page." in transcript_text(app))
        assert "stopped waiting for the page at example.com (you gave up)" in transcript_text(app)
        await events_shown(pilot, app)
        assert not isinstance(app.screen, ConfirmScreen)
        assert len(factory.latest("demo").calls) == 1


async def test_a_32042_without_valid_data_is_a_readable_error() -> None:
    bad = CallOutcome(
        error="-32042 URL required (the error's data is not valid: elicitations: missing)",
        error_code=-32042,
        error_data={"nope": True},
    )
    app, _ = make_app({"demo": Script(results={"ping": bad})})
    async with app.run_test(size=(120, 40)) as pilot:
        handler = await ready(app, pilot)
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_for(pilot, lambda: "✗ #1 demo › ping" in transcript_text(app))
        text = transcript_text(app)
        assert "the error's data is not valid" in text and INVALID_32042 in text
        assert '"nope": true' in text
        assert handler.seen == [] and not app.url_waits.waiting


# --- waits: completion ids, bounds, call ends, connection ends --------------------------------


async def test_unknown_and_repeated_completion_ids_are_ignored() -> None:
    app, factory = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        request = url_request("e1")
        app.post_message(ElicitationFinished(request, ElicitationOutcome("accept")))
        await wait_for(pilot, lambda: bool(app.url_waits.waiting))
        sink = factory.latest("demo").sink
        sink(ElicitationCompleted("demo", "someone-else"))
        sink(ElicitationCompleted("other-server", "e1"))  # not this server's request
        await events_shown(pilot, app)
        assert len(app.url_waits.waiting) == 1
        assert "is finished" not in transcript_text(app)
        logs = "\n".join(line.text for line in session_of(app).areas.logs.lines)
        assert "ignored notifications/elicitation/complete" in logs and "someone-else" in logs
        sink(ElicitationCompleted("demo", "e1"))
        await wait_for(pilot, lambda: not app.url_waits.waiting)
        sink(ElicitationCompleted("demo", "e1"))  # repeated
        await events_shown(pilot, app)
        assert transcript_text(app).count("is finished") == 1


async def test_a_completion_that_overtakes_the_accept_still_counts() -> None:
    app, factory = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        factory.latest("demo").sink(ElicitationCompleted("demo", "early"))
        await events_shown(pilot, app)
        app.post_message(ElicitationFinished(url_request("early"), ElicitationOutcome("accept")))
        await wait_until(lambda: app.url_waits.get(1) is not None, pilot=pilot)
        assert not app.url_waits.waiting
        assert app.url_waits.get(1).state == "completed"  # type: ignore[union-attr]


async def test_every_wait_is_bounded_and_shows_the_time_left() -> None:
    now = [1000.0]
    app, _ = make_app()
    app.waits.url_waits = UrlWaits(timeout=90, clock=lambda: now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        app.post_message(ElicitationFinished(url_request(), ElicitationOutcome("accept")))
        await wait_for(pilot, lambda: "1:30 left" in panel_text(app))
        now[0] += 61
        await wait_for(pilot, lambda: "0:29 left" in panel_text(app), 10)
        now[0] += 30
        await wait_for(pilot, lambda: "no completion within 90 s" in transcript_text(app), 10)
        assert not app.url_waits.waiting and panel_text(app) == ""


async def test_a_wait_without_an_id_ends_with_its_call() -> None:
    """2026-07-28: no id, no notification; the SDK repeats the call, which waits for the page."""
    page_done = asyncio.Event()

    async def connect(_conn: Any, _args: Any, call_id: int) -> CallOutcome:
        assert app.handler is not None  # the test's handler, as the real bridge would call
        await app.handler.elicit(url_request(None, tool="connect", call_id=call_id))
        await page_done.wait()
        return CallOutcome(items=(ContentItem("text", text="Connected"),))

    app, _ = make_app({"demo": Script(results={"connect": connect})})
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        session_of(app).calls.call_tool("demo", "connect", {})
        await wait_for(pilot, lambda: "demo › connect: waiting for example.com" in panel_text(app))
        page_done.set()
        await wait_for(pilot, lambda: "Connected" in transcript_text(app))
        await wait_for(pilot, lambda: not app.url_waits.waiting)
        assert "stopped waiting" not in transcript_text(app)  # the result says it all


async def test_a_closed_connection_ends_its_waits() -> None:
    app, factory = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        app.post_message(ElicitationFinished(url_request(), ElicitationOutcome("accept")))
        await wait_for(pilot, lambda: bool(app.url_waits.waiting))
        factory.latest("demo").sink(ServerStateChanged("demo", ConnectionState.FAILED, "gone"))
        await wait_for(pilot, lambda: "the connection ended" in transcript_text(app))
        assert not app.url_waits.waiting


async def test_palette_offers_done_and_give_up_for_each_wait() -> None:
    app, _ = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        for ident in ("a", "b"):
            url = f"https://{ident}.example.org/x"
            request = url_request(ident, url=url)
            app.post_message(ElicitationFinished(request, ElicitationOutcome("accept")))
        await wait_for(pilot, lambda: len(app.url_waits.waiting) == 2)
        await run_from_palette(pilot, app, "give up b.example", "b.example")
        await wait_for(pilot, lambda: len(app.url_waits.waiting) == 1)
        assert app.url_waits.waiting[0].elicitation_id == "a"
        assert "b.example.org (you gave up)" in transcript_text(app)


# --- pause state, leaving the app -------------------------------------------------------------


async def test_rate_limit_pause_shows_on_the_server_line_and_the_toggle() -> None:
    app, factory = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        assert footer_keys(app).get("stop_asking") == "Stop asking"
        factory.latest("demo").sink(ElicitationPauseChanged("demo", True, by_limit=True))
        await wait_for(pilot, lambda: app.entries["demo"].paused)
        await events_shown(pilot, app)
        entry = app.entries["demo"]
        assert "not asking (too many requests)" in server_label(entry).plain
        keys = footer_keys(app)
        assert keys.get("ask_again") == "Ask again" and "stop_asking" not in keys
        await pilot.press("x")
        await wait_until(lambda: not entry.paused, pilot=pilot)
        assert not entry.paused_by_limit
        assert factory.latest("demo").paused is False
        assert footer_keys(app).get("stop_asking") == "Stop asking"
        await pilot.press("x")  # the user's own pause: no "too many requests"
        await wait_until(lambda: entry.paused, pilot=pilot)
        assert factory.latest("demo").paused is True
        assert "not asking" in server_label(entry).plain
        assert "too many" not in server_label(entry).plain


async def test_leaving_without_ctrl_q_still_closes_every_connection() -> None:
    app, factory = make_app(servers=("a", "b"))
    async with app.run_test() as pilot:
        await wait_for(
            pilot, lambda: all(e.state is ConnectionState.READY for e in app.entries.values())
        )
    assert [c.close_count for c in factory.made] == [1, 1]


async def test_app_exit_still_closes_every_connection() -> None:
    """``App.exit()`` under ``run_async`` (the real entry point's path), not Ctrl+Q."""
    app, factory = make_app(servers=("a", "b"))
    running = asyncio.create_task(app.run_async(headless=True, size=(80, 24)))
    await wait_until(
        lambda: all(e.state is ConnectionState.READY for e in app.entries.values()),
        message="the servers never became ready",
    )
    assert [c.close_count for c in factory.made] == [0, 0]
    app.exit()
    await asyncio.wait_for(running, 30)
    assert [c.close_count for c in factory.made] == [1, 1]


async def test_a_cancelled_closer_does_not_cancel_the_shared_closing() -> None:
    """``Connections.close`` is awaited from several places (the quit worker, ``on_unmount``),
    which share one closing: one caller cancelled (Textual cancels workers on exit) must neither
    stop the closing half-way nor raise in the other callers."""
    app, factory = make_app()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.entries["demo"].state is ConnectionState.READY)
        connection = factory.latest("demo")
        release, finished = asyncio.Event(), asyncio.Event()
        close = connection.close

        async def slow_close() -> None:
            await release.wait()
            await close()  # the connection's task ends (the app waits for it up to ten seconds)
            finished.set()

        connection.close = slow_close  # type: ignore[method-assign]
        first = asyncio.ensure_future(app.connections.close())
        second = asyncio.ensure_future(app.connections.close())
        await wait_until(lambda: app.connections._closing is not None, pilot=pilot)
        first.cancel()
        await wait_until(first.done, pilot=pilot)
        release.set()
        await asyncio.wait_for(second, 10)  # not cancelled with the first caller
        assert finished.is_set()
