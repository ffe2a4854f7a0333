"""Every way out of the app closes every connection, all at once; some ask first.

Ctrl+Q (and the palette's Quit) asks first when a form is open or a call runs (what the person
typed would be lost, a call would be cancelled), and always when the session screen's Ctrl+C
asks to quit (pressed by reflex); then it closes the connections, with a notice, and exits. A
second Ctrl+Q answers the open question, even under a form a server opened since. Any other exit
(``App.exit()``, an error, a test's ``run_test`` ending) closes them from the app's unmount,
while the event loop still runs (why they are not Textual workers, and how a stdio server is
stopped: :mod:`mcp_tui.ui.app.connections`).

:class:`Quitting` is a part the app holds; the app's quit action and unmount hand over to it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.screen import Screen

from mcp_tui.ui.app.connections import CLOSE_TIMEOUT, Connections
from mcp_tui.ui.app.server_actions import ServerActions
from mcp_tui.ui.screens.session import SessionScreen


class Quitting:
    """The app's ways out (see the module docstring)."""

    def __init__(
        self,
        app: App[Any],
        connections: Connections,
        server_actions: ServerActions,
        session: Callable[[], SessionScreen | None],
    ) -> None:
        #: Asks, notifies, and exits.
        self._app = app
        self._connections = connections
        self._server_actions = server_actions
        #: The session screen (its running calls make quitting ask first).
        self._session = session
        #: The open "Quit mcp-tui?" question (a second Ctrl+Q answers it), if any.
        self._question: Screen[bool] | None = None

    @property
    def form_open(self) -> bool:
        """True while the user may have typed something a quit would throw away."""
        if getattr(self._connections.handler, "current_screen", None) is not None:
            return True  # an elicitation form or URL consent screen is showing
        # ArgumentsScreen is imported when first shown (TextArea is slow to import): if its
        # module is not loaded, no arguments form can be open.
        arguments = sys.modules.get("mcp_tui.ui.screens.arguments")
        if arguments is None:
            return False
        form = arguments.ArgumentsScreen
        return any(isinstance(screen, form) for screen in self._app.screen_stack)

    def request(self, *, ask: bool = False) -> None:
        """Quit, asking first when a form is open, a call runs, or ``ask`` (Ctrl+C, which is
        pressed by reflex, always asks)."""
        if self._connections.quitting:
            return
        from mcp_tui.ui.closing import close_wherever
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        app = self._app
        asking = self._question
        if asking is not None and asking in app.screen_stack:
            # A second Ctrl+Q answers *this* question, even under a form a server opened since;
            # never another one ("Cancel this request?" is not "Quit?").
            close_wherever(asking, True)
            return
        session = self._session()
        running = len(session.calls.cancellable) if session is not None else 0
        if self.form_open or running or ask:

            def answered(quit_now: bool | None) -> None:
                self._question = None
                if quit_now:
                    self._begin()

            reasons = []
            if running:
                calls = "1 call is running" if running == 1 else f"{running} calls are running"
                reasons.append(f"{calls}: quitting cancels it, and the server is told.")
            if self.form_open:
                reasons.append(
                    "A form is open: what you typed will be lost, and the server is told the "
                    "request was cancelled."
                )
            question = " ".join(reasons) or "Close every connection and quit?"
            self._question = ConfirmScreen("Quit mcp-tui?", question, yes="Quit", no="Stay")
            app.push_screen(self._question, callback=answered)
            return
        self._begin()

    def _begin(self) -> None:
        self._connections.quitting = True
        if self._connections.running:
            self._app.notify("Closing connections…", timeout=CLOSE_TIMEOUT)
        self._app.run_worker(self._close_then_exit(), name="quit", exit_on_error=False)

    async def _close_then_exit(self) -> None:
        await self.close_everything()
        self._app.exit()

    async def close_everything(self) -> None:
        """Stop watching files and close every connection (safe to call more than once)."""
        self._connections.quitting = True
        session = self._session()
        if session is not None:  # what the closing ends is not the server's doing
            session.calls.history.interrupt("mcp-tui quit while it ran")
        await self._server_actions.stop_watching()
        await self._connections.close()
