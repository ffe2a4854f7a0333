"""Signing in to a server (OAuth) in the TUI: the URL consent screen, then a wait-or-paste screen.

:class:`TuiAuthorizationHandler` implements
``mcp_tui.session.oauth.authorization.AuthorizationHandler``. For each sign-in the session asks
for (one at a time; several servers queue):

1. the **same** :class:`~mcp_tui.ui.screens.url_consent.UrlConsentScreen` a URL-mode elicitation
   gets, with ``ElicitationRequest.for_sign_in(request)``: the ``url.check`` verdict, the host with
   its registrable domain, the warnings and the whole URL; Ctrl+S opens exactly that URL through
   ``browser.open_url_async`` (never a console browser, never a shell) and accepts; a refused URL
   can only be declined. If no browser opens, the user copies the URL and accepts anyway.
2. :class:`OAuthWaitScreen`, until the browser comes back to the loopback listener: it shows
   where the browser will return, offers a box to paste the address the browser ended on (a
   browser on another machine cannot reach ``127.0.0.1``), says when a response was refused
   (a wrong ``state``), and Esc gives up.

Cancellation (the connection closes while a screen shows) closes the screen and propagates.
Nothing here shows a token: the redirect's code never reaches a widget.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Static

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.oauth.authorization import AuthorizationOutcome, AuthorizationRequest
from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.screens.arming import ArmedScreen
from mcp_tui.ui.screens.url_consent import Opener, UrlConsentScreen
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert import InertInput
from mcp_tui.url.browser import open_url_async

log = logging.getLogger(__name__)


class OAuthWaitScreen(ArmedScreen, ModalScreen[AuthorizationOutcome]):
    """Waits for the redirect of one sign-in; a pasted address also completes it.

    Armed (``screens/arming``) like the consent before it: a second Enter or Ctrl+S, or text,
    typed for the consent never lands in the paste box, and "Use pasted address" (the button or
    Enter in the box) acts only once the screen has been on screen for the arming delay. A
    paste submitted sooner stays in the box. Escape gives up at once.
    """

    ARMED_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    ARMED_BUTTONS: ClassVar[tuple[str, ...]] = ("oauth-use",)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel sign-in", id="oauth.cancel"),
    ]
    DEFAULT_CSS = screen_css(__file__)

    def __init__(self, request: AuthorizationRequest) -> None:
        super().__init__()
        self.request = request
        self._finished = False
        self.problems: list[str] = []

    def compose(self) -> ComposeResult:
        request = self.request
        uri = request.redirect.redirect_uri
        header = Content("Signing in to ") + literal_line(
            shown_name(request.server), limit=60, style="bold"
        )
        text = Content("\n").join(
            [
                Content("Finish signing in in your browser. It returns to mcp-tui at"),
                Content.styled(f"  {uri}", "bold"),
                Content(""),
                Content(
                    "If the browser runs on another computer, it cannot reach that address: "
                    "copy the address it ended on (it starts with the one above) and paste it "
                    "here, then press Enter."
                ),
            ]
        )
        with Vertical(id="oauth-dialog"):
            yield Static(header, id="oauth-header")
            yield Static(text, id="oauth-text")
            yield InertInput(placeholder=f"{uri}?code=…&state=…", id="oauth-paste")
            yield Static(id="oauth-status")
            with Horizontal(id="oauth-buttons"):
                yield Button("Use pasted address  Enter", id="oauth-use", variant="primary")
                yield Button("Cancel  Esc", id="oauth-cancel")
        yield KeyFooter()

    def focus_when_shown(self) -> None:
        self.query_one("#oauth-paste", Input).focus()

    def on_mount(self) -> None:
        for reason in self.request.redirect.refused:
            self._problem(reason)
        self.request.redirect.on_refused(self._refused_elsewhere)
        self.run_worker(self._wait(), exclusive=True, group="oauth-wait")

    async def _wait(self) -> None:
        await self.request.redirect.wait()
        self.finish(AuthorizationOutcome("accept"))

    def _refused_elsewhere(self, reason: str) -> None:
        if self.is_attached and not self._finished:
            self._problem(reason)

    def _problem(self, reason: str) -> None:
        self.problems.append(reason)
        status = self.query_one("#oauth-status", Static)
        status.update(literal("✗ " + reason, limit=600))
        status.add_class("-shown")

    def finish(self, outcome: AuthorizationOutcome) -> None:
        if not self._finished:
            self._finished = True
            close_wherever(self, outcome)

    @on(Input.Submitted, "#oauth-paste")
    @on(Button.Pressed, "#oauth-use")
    def _use_pasted(self) -> None:
        if not self.armed:
            return  # the box keeps what was pasted; Enter works once armed
        field = self.query_one("#oauth-paste", Input)
        if not field.value.strip():
            self._problem("Paste the address your browser ended on first.")
            return
        problem = self.request.redirect.paste(field.value)
        if problem is not None:
            self._problem(problem)
            return
        field.value = ""  # it held a one-time code: do not leave it on screen
        self.finish(AuthorizationOutcome("accept", "pasted redirect"))

    @on(Button.Pressed, "#oauth-cancel")
    def action_cancel(self) -> None:
        self.finish(AuthorizationOutcome("cancel"))


class TuiAuthorizationHandler:
    """Shows sign-ins in ``app``, one at a time; see the module docstring."""

    def __init__(self, app: App[Any], *, opener: Opener = open_url_async) -> None:
        self.app = app
        self.opener = opener
        self._lock = asyncio.Lock()
        #: The screen showing now (for tests and the app's "is something asking?" checks).
        self.current_screen: Screen[Any] | None = None

    async def authorize(self, request: AuthorizationRequest) -> AuthorizationOutcome:
        async with self._lock:
            try:
                consent = await self._show(
                    UrlConsentScreen(ElicitationRequest.for_sign_in(request), opener=self.opener)
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("could not show the sign-in consent screen", exc_info=True)
                return AuthorizationOutcome("cancel", f"could not show the sign-in: {exc}")
            if not isinstance(consent, ElicitationOutcome) or consent.action != "accept":
                action = consent.action if isinstance(consent, ElicitationOutcome) else "cancel"
                return AuthorizationOutcome(action)
            try:
                waited = await self._show(OAuthWaitScreen(request))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("could not show the sign-in wait screen", exc_info=True)
                return AuthorizationOutcome("cancel", f"could not show the sign-in: {exc}")
            if isinstance(waited, AuthorizationOutcome):
                return waited
            return AuthorizationOutcome("cancel")

    async def _show(self, screen: Screen[Any]) -> object:
        answer: asyncio.Future[object] = asyncio.get_running_loop().create_future()

        def answered(result: object) -> None:
            if not answer.done():
                answer.set_result(result)

        self.current_screen = screen
        try:
            await self.app.push_screen(screen, callback=answered)
            return await answer
        except asyncio.CancelledError:
            self._close(screen)
            raise
        finally:
            self.current_screen = None

    def _close(self, screen: Screen[Any]) -> None:
        """Close ``screen`` without awaiting (we are inside a cancelled scope)."""
        try:
            if screen not in self.app.screen_stack:
                return
            if isinstance(screen, UrlConsentScreen):
                screen.finish(ElicitationOutcome.cancel("the sign-in was abandoned"))
            elif isinstance(screen, OAuthWaitScreen):
                screen.finish(AuthorizationOutcome("cancel"))
        except Exception:
            log.warning("could not close an abandoned sign-in screen", exc_info=True)
