"""The TUI elicitation handler: one screen at a time, a visible queue, cancellation, answers."""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult

from mcp_tui.config.answers import load_answers
from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.ui.app.collector_hold import holds
from mcp_tui.ui.app.elicitation_handler import TuiElicitationHandler
from mcp_tui.ui.messages import ElicitationFinished, ElicitationShown
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen

SIZE = (100, 30)


class Host(App[None]):
    """Records the transcript messages the handler posts."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[ElicitationShown] = []
        self.finished: list[ElicitationFinished] = []
        #: Both, in the order they came: ``shown <message> waiting=<n>``, ``finished <message>``.
        self.order: list[str] = []

    def on_elicitation_shown(self, message: ElicitationShown) -> None:
        self.shown.append(message)
        self.order.append(f"shown {message.request.message} waiting={message.waiting}")

    def on_elicitation_finished(self, message: ElicitationFinished) -> None:
        self.finished.append(message)
        self.order.append(f"finished {message.request.message}")


def form_request(message: str, server: str = "alpha", **kw: Any) -> ElicitationRequest:
    fields = (FieldSpec("name", FieldKind.TEXT, "Name"), FieldSpec("n", FieldKind.INTEGER, "N"))
    return ElicitationRequest(server, message, "form", form=FormSpec(fields), **kw)


def url_request() -> ElicitationRequest:
    return ElicitationRequest(
        "alpha", "Sign in", "url", url="https://example.com/login", elicitation_id="e1"
    )


async def settle(pilot: Any, rounds: int = 3) -> None:
    for _ in range(rounds):
        await pilot.pause()


async def show_one(
    app: Host, pilot: Any, message: str
) -> tuple[TuiElicitationHandler, asyncio.Task[ElicitationOutcome]]:
    """A handler asked for one form, settled until its screen is up."""
    handler = TuiElicitationHandler(app)
    task = asyncio.create_task(handler.elicit(form_request(message)))
    await settle(pilot)
    assert isinstance(app.screen, ElicitationScreen)
    return handler, task


@pytest.mark.anyio
async def test_requests_queue_one_screen_at_a_time_with_a_visible_count() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        first = asyncio.create_task(handler.elicit(form_request("first")))
        await settle(pilot)
        second = asyncio.create_task(handler.elicit(form_request("second", server="beta")))
        third = asyncio.create_task(handler.elicit(form_request("third")))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ElicitationScreen)
        assert screen.request.message == "first"
        assert screen.header.waiting == 2
        assert handler.waiting == 2
        assert len([s for s in app.screen_stack if isinstance(s, ElicitationScreen)]) == 1

        await pilot.press(*"Ada", "ctrl+s")
        assert await first == ElicitationOutcome("accept", {"name": "Ada"})
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ElicitationScreen)
        assert screen.request.message == "second" and screen.header.waiting == 1
        await pilot.press("ctrl+r")
        assert await second == ElicitationOutcome("decline")
        await settle(pilot)
        await pilot.press("escape")
        assert await third == ElicitationOutcome("cancel")
        await settle(pilot)
        assert not isinstance(app.screen, ElicitationScreen)
    assert [m.request.message for m in app.shown] == ["first", "second", "third"]
    assert [m.waiting for m in app.shown] == [0, 1, 0]
    assert [(m.request.message, m.outcome.action) for m in app.finished] == [
        ("first", "accept"),
        ("second", "decline"),
        ("third", "cancel"),
    ]
    assert app.finished[0].outcome.content == {"name": "Ada"}


@pytest.mark.anyio
async def test_cancelled_request_closes_the_form_and_keeps_what_was_typed() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler, task = await show_one(app, pilot, "withdrawn")
        await pilot.press(*"half-typed")
        task.cancel()  # what the SDK does on notifications/cancelled or a dead connection
        with pytest.raises(asyncio.CancelledError):
            await task
        await settle(pilot)
        assert not isinstance(app.screen, ElicitationScreen)
        # The next request still gets a screen: the queue was released.
        nxt = asyncio.create_task(handler.elicit(form_request("next")))
        await settle(pilot)
        assert isinstance(app.screen, ElicitationScreen)
        await pilot.press("escape")
        assert (await nxt).action == "cancel"
        notices = [n.message for n in app._notifications]
    assert app.finished[0].outcome.action == "cancel"
    assert app.finished[0].abandoned_input == {"name": "half-typed"}
    assert any("withdrawn" in n for n in notices)


@pytest.mark.anyio
async def test_cancelled_while_queued_leaves_the_queue() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        first = asyncio.create_task(handler.elicit(form_request("first")))
        await settle(pilot)
        queued = asyncio.create_task(handler.elicit(form_request("queued")))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ElicitationScreen) and screen.header.waiting == 1
        queued.cancel()
        with pytest.raises(asyncio.CancelledError):
            await queued
        await settle(pilot)
        assert screen.header.waiting == 0
        await pilot.press("escape")
        assert (await first).action == "cancel"
        await settle(pilot)
        assert not isinstance(app.screen, ElicitationScreen)
    assert [m.request.message for m in app.shown] == ["first"]


@pytest.mark.anyio
async def test_failures_become_cancel_never_an_exception() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        broken = ElicitationRequest("alpha", "no form", "form", form=None)
        outcome = await handler.elicit(broken)
        await settle(pilot)
    assert outcome.action == "cancel" and outcome.note
    assert app.finished[0].outcome == outcome


@pytest.mark.anyio
async def test_url_mode_uses_the_consent_screen() -> None:
    from mcp_tui.ui.screens.url_consent import UrlConsentScreen

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        task = asyncio.create_task(handler.elicit(url_request()))
        await settle(pilot)
        assert isinstance(app.screen, UrlConsentScreen)
        await pilot.press("ctrl+r")
        assert (await task).action == "decline"


@pytest.mark.anyio
async def test_review_before_send_option() -> None:
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app, review_before_send=True)
        task = asyncio.create_task(handler.elicit(form_request("reviewed")))
        await settle(pilot)
        await pilot.press(*"Ada", "ctrl+s")
        await settle(pilot)
        assert not task.done()
        await pilot.press("ctrl+s")
        assert await task == ElicitationOutcome("accept", {"name": "Ada"})


@pytest.mark.anyio
async def test_answers_are_saved_in_order_and_replayable(tmp_path: Path) -> None:
    path = tmp_path / "answers.json"
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app, save_answers=path)
        task = asyncio.create_task(handler.elicit(form_request("Who are you? (really)")))
        await settle(pilot)
        await pilot.press(*"Ada", "tab", *"36", "ctrl+s")
        await task
        task = asyncio.create_task(handler.elicit(form_request("Again?", tool="register")))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await task
    saved = json.loads(path.read_text())
    assert [(a["action"], a.get("content"), a["message"]) for a in saved["answers"]] == [
        ("accept", {"name": "Ada", "n": 36}, "Who are you? (really)"),
        ("decline", None, "Again?"),
    ]
    assert saved["answers"][1]["tool"] == "register"
    script = load_answers(path)
    assert len(script.answers) == 2


@pytest.mark.anyio
async def test_collector_is_off_while_the_form_is_built_and_on_after_it_painted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []
    compose = ElicitationScreen.compose

    def recording(self: ElicitationScreen) -> ComposeResult:
        seen.append(gc.isenabled())
        return compose(self)

    monkeypatch.setattr(ElicitationScreen, "compose", recording)
    gc.enable()
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        _, task = await show_one(app, pilot, "first")
        assert seen == [False]
        assert gc.isenabled() and holds() == 0
        # The transcript line came after the frame, with the count of the moment it was shown.
        assert app.order == ["shown first waiting=0"]
        await pilot.press("escape")
        await task
        await pilot.pause()
    assert app.order == ["shown first waiting=0", "finished first"]


@pytest.mark.anyio
async def test_answered_before_its_first_frame_still_shown_then_finished() -> None:
    gc.enable()
    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        handler = TuiElicitationHandler(app)
        task = asyncio.create_task(handler.elicit(form_request("quick")))
        while handler.current_screen is None:
            await asyncio.sleep(0)
        screen = handler.current_screen
        assert isinstance(screen, ElicitationScreen)
        screen.finish(ElicitationOutcome.cancel("at once"))
        assert (await task).action == "cancel"
        await settle(pilot)
        assert gc.isenabled() and holds() == 0
    assert app.order == ["shown quick waiting=0", "finished quick"]


@pytest.mark.anyio
async def test_review_before_send_reaches_the_forms_the_app_opens(tmp_path: Path) -> None:
    """``review_before_send = true`` (the config's ``[app]`` or ``--review``) is an option of the
    app; the forms it opens for a server must review: the first Ctrl+S shows what will be sent,
    nothing reaches the server until the second."""
    import sys

    from mcp_tui.config.options import AppOptions
    from mcp_tui.config.servers import ServerSpec, StdioTarget
    from mcp_tui.session.events import ConnectionState
    from mcp_tui.ui.app import McpTuiApp
    from tests.session.session_testkit import RAW_SERVER
    from tests.waits import mounted_screen, wait_until

    note = {"type": "object", "properties": {"note": {"type": "string"}}}
    script = {
        "tools": [{"name": "ask", "inputSchema": {"type": "object"}}],
        "on_call": {
            "ask": [
                {"elicit": {"message": "A note?", "requestedSchema": note}, "id": "q1"},
                {"await": "q1"},
            ]
        },
        "results": {"ask": {"result_from": "q1"}},
    }
    path, record = tmp_path / "script.json", tmp_path / "got.jsonl"
    path.write_text(json.dumps(script), encoding="utf-8")
    args = (str(RAW_SERVER), "--script", str(path), "--record", str(record))
    spec = ServerSpec("raw", StdioTarget(sys.executable, args))

    def answers() -> list[dict[str, Any]]:
        lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
        return [m for line in lines if (m := json.loads(line)).get("id") == "q1"]

    app = McpTuiApp([spec], AppOptions(review_before_send=True, stderr_log=tmp_path / "e.log"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(
            lambda: app.entries["raw"].state is ConnectionState.READY and app.entries["raw"].tools,
            30,
            pilot=pilot,
        )
        assert app.session is not None
        app.session.calls.call_tool("raw", "ask", {})
        screen = await wait_until(lambda: mounted_screen(app, ElicitationScreen), 30, pilot=pilot)
        assert screen.review
        await pilot.press(*"hi", "ctrl+s")
        await wait_until(lambda: screen.has_class("-reviewing"), pilot=pilot, message="review")
        assert answers() == []  # shown, not sent
        await pilot.press("ctrl+s")
        await wait_until(answers, pilot=pilot, message="sent on the second Ctrl+S")
    assert answers()[0]["result"] == {"action": "accept", "content": {"note": "hi"}}
