"""Server events that change the screen stack while the person has something else open.

Textual's ``Screen.dismiss`` pops the *top* screen, whichever it is. Anything that closes a screen
without a key on that very screen (a server withdrawing its request, a connection dropping, a
sign-in from another server, a deferred Ctrl+S) must close exactly that screen: never the one the
person is working in over it, never leaving a dead screen behind, never throwing away what was
typed, and the server must get the answer the person gave (cancel and decline never confused).

The servers here are fakes (``fixtures/fake_connection.py``) whose tool ``ask`` asks through the
app's real elicitation handler and, like the SDK, withdraws the question when the connection
closes.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import CallOutcome, ConnectionState, ContentItem, ToolInfo
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen
from tests.ui.app_testkit import (
    Script,
    make_app,
    open_node,
    run_from_palette,
    session_of,
    transcript_text,
    wait_until,
)

pytestmark = pytest.mark.anyio

SIZE = (100, 30)
ECHO = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def form(server: str, message: str = "Your name?") -> ElicitationRequest:
    fields = (FieldSpec("name", FieldKind.TEXT, "Name"),)
    return ElicitationRequest(server, message, "form", form=FormSpec(fields), tool="ask")


def url(server: str) -> ElicitationRequest:
    return ElicitationRequest(
        server, "Sign in", "url", url="https://example.com/login", elicitation_id="e1", tool="ask"
    )


class Answers:
    """What each fake server's ``ask`` got back: an outcome, or ``"withdrawn"``."""

    def __init__(self) -> None:
        self.got: dict[str, list[object]] = {}

    def script(self, server: str, request: ElicitationRequest | None = None) -> Script:
        async def ask(conn: Any, arguments: Any, call_id: int) -> CallOutcome:
            asked = asyncio.ensure_future(conn.handler.elicit(request or form(server)))
            closed = asyncio.ensure_future(conn.closed.wait())
            await asyncio.wait({asked, closed}, return_when=asyncio.FIRST_COMPLETED)
            closed.cancel()
            if not asked.done():  # what the SDK does when the connection goes
                asked.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await asked
                self.got.setdefault(server, []).append("withdrawn")
                return CallOutcome(error="the connection closed")
            outcome = asked.result()
            self.got.setdefault(server, []).append(outcome)
            text = f"{outcome.action} {outcome.content}"
            return CallOutcome(items=(ContentItem("text", text=text),))

        tools = (
            ToolInfo("ask", "Asks a question", input_schema={"type": "object"}),
            ToolInfo("echo", "Echo", input_schema=ECHO),
        )
        return Script(tools=tools, results={"ask": ask})


async def ready(pilot: Pilot[None], app: McpTuiApp, *servers: str) -> None:
    await wait_until(
        lambda: all(app.entries[s].state is ConnectionState.READY for s in servers),
        pilot=pilot,
        message="servers ready",
    )
    await wait_until(lambda: session_of(app).areas.panels_ready, pilot=pilot)


async def ask_form(pilot: Pilot[None], app: McpTuiApp, server: str) -> ElicitationScreen:
    session_of(app).calls.call_tool(server, "ask", {})
    await wait_until(lambda: isinstance(app.screen, ElicitationScreen), pilot=pilot)
    screen = app.screen
    assert isinstance(screen, ElicitationScreen)
    await wait_until(lambda: app.focused is not None, pilot=pilot)
    return screen


def stack_names(app: McpTuiApp) -> list[str]:
    return [type(s).__name__ for s in app.screen_stack]


async def test_a_form_withdrawn_under_an_arguments_form_leaves_that_form_and_its_text() -> None:
    """Ctrl+P over a form opens another tool's arguments; the form's server then drops: the
    arguments form (and what was typed in it) stays, the withdrawn form goes."""
    answers = Answers()
    app, factory = make_app({"a": answers.script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        asked = await ask_form(pilot, app, "a")
        await run_from_palette(pilot, app, "call tool a echo", "echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        arguments = app.screen
        await pilot.press(*"kept")
        await factory.latest("a").close()  # the server goes away: its form is withdrawn
        await wait_until(lambda: answers.got.get("a") == ["withdrawn"], pilot=pilot)
        await wait_until(lambda: asked not in app.screen_stack, pilot=pilot, message="form gone")
        assert app.screen is arguments, stack_names(app)
        assert stack_names(app) == ["SessionScreen", "ArgumentsScreen"]
        assert arguments.collect(focus=False) == {"text": "kept"}
        assert app.focused is not None and app.focused.screen is arguments
        await pilot.press("ctrl+s")  # the person's form still works
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)


async def test_a_sign_in_withdrawn_under_another_servers_form_leaves_that_form() -> None:
    """Server b's sign-in consent is open; server a's form comes over it; b's sign-in is
    withdrawn: a's form, with what was typed, stays and still answers a."""
    from mcp_tui.ui.screens.sign_in import TuiAuthorizationHandler

    answers = Answers()
    app, _ = make_app({"a": answers.script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        signing_in = TuiAuthorizationHandler(app)
        consent = UrlConsentScreen(url("b"))
        sign_in = asyncio.ensure_future(signing_in._show(consent))
        await wait_until(lambda: app.screen is consent, pilot=pilot)
        asked = await ask_form(pilot, app, "a")
        await pilot.press(*"Ada")
        sign_in.cancel()  # b's connection closed while its sign-in showed
        with contextlib.suppress(asyncio.CancelledError):
            await sign_in
        await wait_until(lambda: consent not in app.screen_stack, pilot=pilot)
        assert app.screen is asked, stack_names(app)
        assert asked.raw_text() == {"name": "Ada"}
        await pilot.press("ctrl+s")
        await wait_until(lambda: answers.got.get("a"), pilot=pilot)
    assert answers.got["a"] == [ElicitationOutcome("accept", {"name": "Ada"})]


async def test_a_form_withdrawn_under_another_servers_sign_in_leaves_the_sign_in() -> None:
    """Server a's form is open; server b's sign-in consent comes over it; a drops: b's consent
    stays and still answers b."""
    from mcp_tui.ui.screens.sign_in import TuiAuthorizationHandler

    answers = Answers()
    app, factory = make_app({"a": answers.script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        asked = await ask_form(pilot, app, "a")
        signing_in = TuiAuthorizationHandler(app)
        consent = UrlConsentScreen(url("b"))
        sign_in = asyncio.ensure_future(signing_in._show(consent))
        await wait_until(lambda: app.screen is consent, pilot=pilot)
        await factory.latest("a").close()
        await wait_until(lambda: answers.got.get("a") == ["withdrawn"], pilot=pilot)
        await wait_until(lambda: asked not in app.screen_stack, pilot=pilot)
        assert app.screen is consent and not sign_in.done(), stack_names(app)
        await pilot.press("ctrl+r")  # b's consent: decline
        result = await asyncio.wait_for(sign_in, 10)
        assert isinstance(result, ElicitationOutcome) and result.action == "decline"
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)


async def test_ctrl_q_over_a_forms_cancel_question_asks_to_quit_and_never_cancels_it() -> None:
    """Ctrl+Q on "Cancel this request?" used to answer *that* question yes (the request was
    cancelled and nothing quit)."""
    answers = Answers()
    app, _ = make_app({"a": answers.script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        asked = await ask_form(pilot, app, "a")
        await pilot.press(*"Ada", "escape")
        await wait_until(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
        cancel_question = app.screen
        await pilot.press("ctrl+q")
        await wait_until(lambda: app.screen is not cancel_question, pilot=pilot)
        assert isinstance(app.screen, ConfirmScreen), stack_names(app)
        assert asked in app.screen_stack and not asked.finished
        await pilot.press("n")  # stay
        await wait_until(lambda: app.screen is cancel_question, pilot=pilot)
        await pilot.press("n")  # keep the form
        await wait_until(lambda: app.screen is asked, pilot=pilot)
        await pilot.press("ctrl+s")
        await wait_until(lambda: answers.got.get("a"), pilot=pilot)
    assert answers.got["a"] == [ElicitationOutcome("accept", {"name": "Ada"})]


async def test_a_ctrl_s_handled_after_a_server_form_came_up_sends_the_arguments_only() -> None:
    """Ctrl+S on a tool's arguments acts after the keys before it; a server's form that comes
    up in between used to be the screen it dismissed, answered with the arguments."""
    app, factory = make_app({"a": Answers().script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        await open_node(pilot, app, "a", "echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        arguments = app.screen
        assert isinstance(arguments, ArgumentsScreen)
        await pilot.press(*"hi")
        got: list[object] = []
        arguments.action_after_keys("send")  # queued behind the keys, as a real Ctrl+S is
        asked = ElicitationScreen(form("a"))
        app.push_screen(asked, callback=got.append)  # the server's form, in between
        await wait_until(lambda: arguments not in app.screen_stack, pilot=pilot)
        await wait_until(lambda: factory.latest("a").calls, pilot=pilot)
        assert factory.latest("a").calls[0][:2] == ("echo", {"text": "hi"})
        assert app.screen is asked and got == [], stack_names(app)
        await wait_until(lambda: app.focused is not None, pilot=pilot)
        assert app.focused.screen is asked
        await pilot.press(*"Ada", "ctrl+s")
        await wait_until(lambda: got, pilot=pilot)
    assert got == [ElicitationOutcome("accept", {"name": "Ada"})]


async def test_a_button_pressed_after_a_server_form_came_up_answers_its_own_dialog() -> None:
    """A dialog's button acts through a message handled after the key; a form the server put
    up meanwhile must not be the screen that closes."""
    app, _ = make_app({"a": Answers().script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        answered: list[bool | None] = []
        question = ConfirmScreen("Retry echo?", "The page is finished.", danger=False)
        await app.push_screen(question, callback=answered.append)
        question.query_one("#confirm-yes").press()  # Enter on "yes": a Pressed message
        asked = ElicitationScreen(form("a"))
        got: list[object] = []
        app.push_screen(asked, callback=got.append)
        await wait_until(lambda: answered, pilot=pilot)
        assert answered == [True]
        await wait_until(lambda: question not in app.screen_stack, pilot=pilot)
        assert app.screen is asked and got == [], stack_names(app)


async def test_reconnect_from_the_palette_over_a_form_keeps_what_was_typed() -> None:
    """R is not reachable over a form, but the palette's Reconnect is: the form is withdrawn
    (the server is told nothing was answered), what was typed is in the transcript, and the
    focus is back on the session screen."""
    answers = Answers()
    app, factory = make_app({"a": answers.script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        await ask_form(pilot, app, "a")
        await pilot.press(*"half typed")
        await run_from_palette(pilot, app, "reconnect a", "Reconnect")
        await wait_until(lambda: answers.got.get("a") == ["withdrawn"], pilot=pilot)
        await wait_until(lambda: len(factory.made) == 2, pilot=pilot)
        await ready(pilot, app, "a")
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
        await wait_until(lambda: "half typed" in transcript_text(app, full=True), pilot=pilot)
        assert app.focused is not None and app.focused.screen is app.screen
        await ask_form(pilot, app, "a")  # the new connection asks again: a fresh form
        await pilot.press(*"Ada", "ctrl+s")
        await wait_until(lambda: len(answers.got["a"]) == 2, pilot=pilot)
    assert answers.got["a"][1] == ElicitationOutcome("accept", {"name": "Ada"})


async def test_another_server_reconnecting_drops_its_queued_request_and_leaves_the_form() -> None:
    """a's form is on screen, b's request waits behind it; b reconnects: b's request is
    withdrawn unseen, a's form keeps what was typed and answers a."""
    answers = Answers()
    app, factory = make_app(
        {"a": answers.script("a"), "b": answers.script("b")}, servers=("a", "b")
    )
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a", "b")
        asked = await ask_form(pilot, app, "a")
        session_of(app).calls.call_tool("b", "ask", {})
        handler = app.handler
        await wait_until(lambda: getattr(handler, "waiting", 0) == 1, pilot=pilot)
        await pilot.press(*"Ada")
        await run_from_palette(pilot, app, "reconnect b", "Reconnect")
        await wait_until(lambda: answers.got.get("b") == ["withdrawn"], pilot=pilot)
        await wait_until(lambda: getattr(handler, "waiting", 1) == 0, pilot=pilot)
        assert app.screen is asked and asked.raw_text() == {"name": "Ada"}, stack_names(app)
        await wait_until(lambda: app.focused is not None, pilot=pilot)
        assert app.focused.screen is asked
        await pilot.press("ctrl+s")
        await wait_until(lambda: answers.got.get("a"), pilot=pilot)
        assert factory.latest("b").close_count == 0  # the new connection to b
    assert answers.got["a"] == [ElicitationOutcome("accept", {"name": "Ada"})]


async def test_quitting_with_a_form_and_its_cancel_question_open_exits_cleanly() -> None:
    """Ctrl+Q over "Cancel this request?" asks to quit; a second Ctrl+Q quits: the form is
    withdrawn (never accepted or declined), every connection closes, nothing raises."""
    answers = Answers()
    app, factory = make_app({"a": answers.script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        await ask_form(pilot, app, "a")
        await pilot.press(*"Ada", "escape")
        await wait_until(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
        await pilot.press("ctrl+q")
        await wait_until(lambda: stack_names(app)[-2:] == ["ConfirmScreen"] * 2, pilot=pilot)
        await pilot.press("ctrl+q")
        await wait_until(lambda: not app.is_running, pilot=pilot)
    assert answers.got["a"] == ["withdrawn"]
    assert factory.latest("a").close_count == 1
    assert app.return_code in (None, 0)


async def test_arguments_sent_after_their_server_dropped_are_kept_for_the_next_time() -> None:
    """The arguments form stays open when its server goes; Ctrl+S then says the server is not
    ready, and the form opens with what was typed once it is back."""
    app, factory = make_app({"a": Answers().script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        await open_node(pilot, app, "a", "echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        await pilot.press(*"keep me")
        await factory.latest("a").close()
        await wait_until(lambda: app.entries["a"].state is ConnectionState.CLOSED, pilot=pilot)
        assert isinstance(app.screen, ArgumentsScreen)
        await pilot.press("ctrl+s")
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
        await wait_until(
            lambda: any("What you typed is kept" in str(n.message) for n in app._notifications),
            pilot=pilot,
        )
        assert factory.latest("a").calls == []
        app.reconnect("a")
        await wait_until(lambda: len(factory.made) == 2, pilot=pilot)
        await ready(pilot, app, "a")
        session_of(app).forms.open_tool("a", "echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        again = app.screen
        assert isinstance(again, ArgumentsScreen)
        await wait_until(lambda: again.is_mounted, pilot=pilot)
        assert again.collect(focus=False) == {"text": "keep me"}
        # They were never sent: the line over the form must not say "last sent".
        line = str(again.query_one("#arguments-origin", Static).render())
        assert line.startswith("Values typed ") and "(not sent)" in line, line


async def test_a_form_sent_while_its_server_reconnects_does_not_say_the_server_is_ready() -> None:
    """R drops the connection at once, its state changes on the next flush: a form sent in that
    window said "a is ready: the call was not sent"."""
    app, factory = make_app({"a": Answers().script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        await open_node(pilot, app, "a", "echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        await pilot.press(*"typed")
        app.entries["a"].connection = None  # what _reconnect does before the state changes
        await pilot.press("ctrl+s")
        await wait_until(
            lambda: any("was not sent" in str(n.message) for n in app._notifications),
            pilot=pilot,
        )
        said = [str(n.message) for n in app._notifications if "was not sent" in str(n.message)]
        assert "is ready" not in said[0] and "not connected" in said[0], said
        assert factory.latest("a").calls == []


async def test_a_call_returning_under_an_arguments_form_leaves_it_alone() -> None:
    """A call returns while the person fills in the next call's arguments: the result goes to
    the transcript behind, the form keeps its focus and its text."""
    release = asyncio.Event()

    async def slow(conn: Any, arguments: Any, call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text="slow result"),))

    script = Answers().script("a")
    script.results["slow"] = slow
    script.tools = (*script.tools, ToolInfo("slow", "Slow", input_schema={"type": "object"}))
    app, _ = make_app({"a": script}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        session_of(app).calls.call_tool("a", "slow", {})
        await open_node(pilot, app, "a", "echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        arguments = app.screen
        await pilot.press(*"typing")
        focused = app.focused
        release.set()
        await wait_until(lambda: "slow result" in transcript_text(app, full=True), pilot=pilot)
        assert app.screen is arguments and app.focused is focused
        await pilot.press(*" on")
        assert isinstance(arguments, ArgumentsScreen)
        assert arguments.collect(focus=False) == {"text": "typing on"}


async def test_a_form_over_the_help_or_the_palette_hands_the_focus_back_after() -> None:
    """A server's form comes up over the help screen, then over the command palette: once
    answered, the screen under it is back, with the focus, and still works."""
    from textual.command import CommandPalette

    from mcp_tui.ui.app.help import HelpScreen

    answers = Answers()
    app, _ = make_app({"a": answers.script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        for opener, kind in (("f1", HelpScreen), ("ctrl+p", CommandPalette)):
            await pilot.press(opener)
            await wait_until(lambda kind=kind: isinstance(app.screen, kind), pilot=pilot)
            under = app.screen
            await ask_form(pilot, app, "a")
            await pilot.press(*"Ada", "ctrl+s")
            await wait_until(lambda under=under: app.screen is under, pilot=pilot)
            await wait_until(lambda: app.focused is not None, pilot=pilot)
            assert app.focused.screen is under
            await pilot.press("escape")
            await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
    assert answers.got["a"] == [ElicitationOutcome("accept", {"name": "Ada"})] * 2


async def test_the_retry_question_answered_after_its_server_dropped_calls_nothing() -> None:
    """-32042: the page is finished and "Retry?" is open when the server goes; yes then makes
    no call (the server is not there), says why, and leaves the person on the session screen."""
    from mcp_tui.session.events import ElicitationCompleted
    from tests.ui.app.test_app_url import Answering, needs_url, url_request

    outcomes = [needs_url(url_request("e1"))]
    app, factory = make_app(
        {"demo": Script(results={"ping": lambda _args: outcomes.pop(0)})}, servers=("demo",)
    )
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "demo")
        app.connections.handler = Answering(app)
        session_of(app).calls.call_tool("demo", "ping", {"a": 1})
        await wait_until(lambda: bool(app.url_waits.waiting), pilot=pilot)
        connection = factory.latest("demo")
        connection.sink(ElicitationCompleted("demo", "e1"))
        await wait_until(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
        await connection.close()
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.CLOSED, pilot=pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
        await wait_until(
            lambda: any("not ready" in str(n.message) for n in app._notifications), pilot=pilot
        )
        assert len(connection.calls) == 1
        assert app.focused is not None and app.focused.screen is app.screen


async def test_the_chat_keeps_its_place_when_a_form_under_or_over_it_is_withdrawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A form over the chat (a server asks while the person chats) and the chat over a form
    (opened from the palette): either way, when the form's server drops, the form goes and the
    chat is on top, focused, still open."""
    from mcp_tui.config.chat_settings import ChatSettings
    from mcp_tui.config.options import AppOptions
    from mcp_tui.ui.screens.chat_screen import ChatScreen

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    settings = ChatSettings(provider="openai-compatible", base_url="http://127.0.0.1:9", model="m")
    options = AppOptions(stderr_log=tmp_path / "stderr.log", chat=settings)
    answers = Answers()
    app, factory = make_app({"a": answers.script("a")}, servers=("a",), options=options)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")

        def chat_focused() -> bool:
            focused = app.focused
            return (
                isinstance(app.screen, ChatScreen)
                and focused is not None
                and (focused.screen is app.screen)
            )

        # 1. The form over the chat.
        await pilot.press("m")
        await wait_until(lambda: isinstance(app.screen, ChatScreen), pilot=pilot)
        chat = app.screen
        await ask_form(pilot, app, "a")
        await pilot.press(*"Ada")
        await factory.latest("a").close()
        await wait_until(lambda: answers.got.get("a") == ["withdrawn"], pilot=pilot)
        await wait_until(chat_focused, pilot=pilot, message="the chat, focused")
        assert app.screen is chat and stack_names(app) == ["SessionScreen", "ChatScreen"]
        await pilot.press("escape")
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
        # 2. The chat over the form.
        app.reconnect("a")
        await wait_until(lambda: len(factory.made) == 2, pilot=pilot)
        await ready(pilot, app, "a")
        asked = await ask_form(pilot, app, "a")
        await run_from_palette(pilot, app, "chat with", "Chat with a model")
        await wait_until(lambda: app.screen is chat, pilot=pilot)
        await factory.latest("a").close()
        await wait_until(lambda: len(answers.got["a"]) == 2, pilot=pilot)
        await wait_until(lambda: asked not in app.screen_stack, pilot=pilot)
        await wait_until(chat_focused, pilot=pilot, message="the chat, focused")
        assert stack_names(app) == ["SessionScreen", "ChatScreen"]
        await pilot.press("escape")
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)


async def test_ctrl_q_on_the_retry_question_quits_and_never_retries() -> None:
    """Ctrl+Q on "Retry ping?" used to answer it yes: the call ran again, nothing quit."""
    from mcp_tui.session.events import ElicitationCompleted
    from tests.ui.app.test_app_url import Answering, needs_url, url_request

    app, factory = make_app(
        {"demo": Script(results={"ping": lambda _args: needs_url(url_request("e1"))})},
        servers=("demo",),
    )
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "demo")
        app.connections.handler = Answering(app)
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_until(lambda: bool(app.url_waits.waiting), pilot=pilot)
        connection = factory.latest("demo")
        connection.sink(ElicitationCompleted("demo", "e1"))
        await wait_until(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
        await pilot.press("ctrl+q")
        await wait_until(lambda: not app.is_running, pilot=pilot)
    assert len(connection.calls) == 1 and connection.close_count == 1


async def test_a_second_ctrl_q_answers_the_quit_question_under_a_form_that_came_since() -> None:
    """Quit? is open (an arguments form is open); a server's form comes over it; Ctrl+Q again
    quits (the Quit? question is answered where it is): the form is withdrawn, not answered."""
    answers = Answers()
    app, factory = make_app({"a": answers.script("a")}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        await open_node(pilot, app, "a", "echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        await pilot.press("ctrl+q")
        await wait_until(lambda: isinstance(app.screen, ConfirmScreen), pilot=pilot)
        await ask_form(pilot, app, "a")
        assert stack_names(app)[-2:] == ["ConfirmScreen", "ElicitationScreen"]
        await pilot.press("ctrl+q")
        await wait_until(lambda: not app.is_running, pilot=pilot)
    assert answers.got["a"] == ["withdrawn"]
    assert factory.latest("a").close_count == 1


async def test_calls_ending_while_the_cancel_pick_is_open_leave_a_pick_that_says_so() -> None:
    """ "Cancel which call?" lists two running calls; both return before one is picked: picking
    one then says it is not running (no crash, nothing sent), and the session has the focus."""
    release = asyncio.Event()

    async def slow(conn: Any, arguments: Any, call_id: int) -> CallOutcome:
        await release.wait()
        return CallOutcome(items=(ContentItem("text", text=f"slow {call_id} done"),))

    from mcp_tui.ui.screens.pick import PickScreen

    script = Script(
        tools=(ToolInfo("slow", "Slow", input_schema={"type": "object"}),),
        results={"slow": slow},
    )
    app, factory = make_app({"a": script}, servers=("a",))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        session = session_of(app)
        session.calls.call_tool("a", "slow", {})
        session.calls.call_tool("a", "slow", {})
        await wait_until(lambda: len(factory.latest("a").in_flight) == 2, pilot=pilot)
        session.features.pick_call_to_cancel()  # "c"
        await wait_until(lambda: isinstance(app.screen, PickScreen), pilot=pilot)
        release.set()
        await wait_until(lambda: not session.calls.cancellable, pilot=pilot)
        assert isinstance(app.screen, PickScreen)
        await pilot.press("enter")
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
        await wait_until(
            lambda: any("is not running" in str(n.message) for n in app._notifications),
            pilot=pilot,
        )
        assert factory.latest("a").cancelled == []
        assert app.focused is not None and app.focused.screen is app.screen


async def test_the_palettes_chat_over_a_form_over_the_chat_never_stacks_the_chat_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chat is open, a server's form came over it, and the palette's "Chat with a model" is
    chosen: the chat (one installed screen) was pushed a second time, over the form."""
    from mcp_tui.config.chat_settings import ChatSettings
    from mcp_tui.config.options import AppOptions
    from mcp_tui.ui.screens.chat_screen import ChatScreen

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    settings = ChatSettings(provider="openai-compatible", base_url="http://127.0.0.1:9", model="m")
    options = AppOptions(stderr_log=tmp_path / "stderr.log", chat=settings)
    answers = Answers()
    app, _ = make_app({"a": answers.script("a")}, servers=("a",), options=options)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a")
        await pilot.press("m")
        await wait_until(lambda: isinstance(app.screen, ChatScreen), pilot=pilot)
        asked = await ask_form(pilot, app, "a")
        await run_from_palette(pilot, app, "chat with", "Chat with a model")
        await wait_until(
            lambda: any("chat is open" in str(n.message) for n in app._notifications),
            pilot=pilot,
        )
        assert stack_names(app) == ["SessionScreen", "ChatScreen", "ElicitationScreen"]
        assert app.screen is asked
        await pilot.press(*"Ada", "ctrl+s")
        await wait_until(lambda: isinstance(app.screen, ChatScreen), pilot=pilot)
        await pilot.press("escape")
        await wait_until(lambda: len(app.screen_stack) == 1, pilot=pilot)
    assert answers.got["a"] == [ElicitationOutcome("accept", {"name": "Ada"})]


async def test_typing_goes_on_in_the_arguments_form_after_a_form_over_it_is_withdrawn() -> None:
    """The person fills in b's echo; a's form comes over it, and a drops: b's form is back with
    the focus where it was, and the next keys land in it."""
    answers = Answers()
    app, factory = make_app(
        {"a": answers.script("a"), "b": answers.script("b")}, servers=("a", "b")
    )
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "a", "b")
        await open_node(pilot, app, "b", "echo")
        await wait_until(lambda: isinstance(app.screen, ArgumentsScreen), pilot=pilot)
        arguments = app.screen
        assert isinstance(arguments, ArgumentsScreen)
        await pilot.press(*"half")
        field = app.focused
        await ask_form(pilot, app, "a")
        await factory.latest("a").close()
        await wait_until(lambda: app.screen is arguments, pilot=pilot)
        await wait_until(lambda: app.focused is field, pilot=pilot, message="focus back")
        await pilot.press(*" done", "ctrl+s")
        await wait_until(lambda: factory.latest("b").calls, pilot=pilot)
    assert factory.latest("b").calls[0][:2] == ("echo", {"text": "half done"})
    assert answers.got["a"] == ["withdrawn"]


async def test_a_page_accepted_after_its_server_dropped_is_not_waited_for() -> None:
    """-32042: the consent for the page is open when the server goes (the call has returned, so
    nothing withdraws it). Accepting it then used to start a ten-minute wait for a completion
    that can never come; now the wait ends at once and the call is not retried."""
    from tests.ui.app.test_app_url import needs_url, url_request

    app, factory = make_app(
        {"demo": Script(results={"ping": lambda _args: needs_url(url_request("e1"))})},
        servers=("demo",),
    )
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot, app, "demo")
        session_of(app).calls.call_tool("demo", "ping", {})
        await wait_until(lambda: isinstance(app.screen, UrlConsentScreen), pilot=pilot)
        consent = app.screen
        assert isinstance(consent, UrlConsentScreen)
        await factory.latest("demo").close()
        await wait_until(lambda: app.entries["demo"].state is ConnectionState.CLOSED, pilot=pilot)
        consent.finish(ElicitationOutcome("accept"))  # the person opened it and accepted
        await wait_until(
            lambda: "The connection ended" in transcript_text(app, full=True), pilot=pilot
        )
        assert app.url_waits.waiting == []
        assert len(app.screen_stack) == 1
        assert len(factory.latest("demo").calls) == 1
