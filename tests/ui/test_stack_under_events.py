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
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest
from app_testkit import Script, make_app, run_from_palette, session_of, wait_until
from textual.pilot import Pilot

from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import CallOutcome, ConnectionState, ContentItem, ToolInfo
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation import ElicitationScreen
from mcp_tui.ui.screens.url_consent import UrlConsentScreen

pytestmark = pytest.mark.anyio

SIZE = (100, 30)
ECHO = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


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
    await wait_until(lambda: session_of(app).panels_ready, pilot=pilot)


async def ask_form(pilot: Pilot[None], app: McpTuiApp, server: str) -> ElicitationScreen:
    session_of(app).call_tool(server, "ask", {})
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
    from mcp_tui.ui.screens.oauth import TuiAuthorizationHandler

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
    from mcp_tui.ui.screens.oauth import TuiAuthorizationHandler

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
