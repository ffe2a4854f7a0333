"""The URL waits as the app keeps them: ending them, and saying so in the transcript.

Accepted URL-mode requests are tracked in :class:`~mcp_tui.ui.url_waits.UrlWaits` until the server
completes them (``ElicitationCompleted``), the user marks them done or gives up, their call ends
(2026-07-28) or their bounded wait runs out. :class:`WaitKeeper` turns those endings into
transcript lines and tells the session screen to redraw its "waiting for completion" rows.

It is a part the app holds: the app hands it each batch of session events, its clock ticks and
the user's "done" or "give up", and offers :attr:`WaitKeeper.url_waits` to the screens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.app import App

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import ConnectionState, ElicitationCompleted, LogReceived
from mcp_tui.ui.render import Entry, url_wait_entry
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.server_state import ServerEntry
from mcp_tui.ui.url_waits import UrlWait, UrlWaits, WaitState
from mcp_tui.untrusted import one_line

#: Seconds between two checks of the URL waits' deadlines.
WAIT_TICK = 1.0


class WaitKeeper:
    """The app's URL waits and their transcript lines (see the module docstring)."""

    def __init__(
        self,
        app: App[Any],
        entries: dict[str, ServerEntry],
        session: Callable[[], SessionScreen | None],
    ) -> None:
        #: Where "Cancel the call too?" is asked.
        self._app = app
        self.entries = entries
        #: The session screen, once the app has made it.
        self._session = session
        #: Accepted URL-mode requests waiting for the server to finish them.
        self.url_waits = UrlWaits()

    def batch_ended(self, batch: Any) -> list[Entry]:
        """Completions and closed connections end URL waits; unknown or repeated ids do nothing.

        Takes the ``ElicitationCompleted`` notes out of ``batch``: only a completion that ended
        a wait is worth a transcript line (an ignored one goes to the log panel, for the
        developer testing that server).
        """
        ended: list[UrlWait] = []
        kept = []
        for note in batch.notes:
            if not isinstance(note, ElicitationCompleted):
                kept.append(note)
                continue
            done = self.url_waits.complete(note.server, note.elicitation_id)
            if not done:
                batch.logs.append(
                    LogReceived(
                        note.server,
                        "debug",
                        "mcp-tui",
                        "ignored notifications/elicitation/complete for elicitation "
                        f"{note.elicitation_id!r}: nothing accepted is waiting for that id",
                    )
                )
            ended += done
        batch.notes = kept
        for state in batch.states:
            if state.state in (ConnectionState.FAILED, ConnectionState.CLOSED):
                ended += self.url_waits.server_gone(state.server)
        return self._waits_ended(ended)

    def _waits_ended(self, ended: Sequence[UrlWait]) -> list[Entry]:
        if not ended:
            return []
        entries = [e for w in ended if (e := url_wait_entry(w, self.url_waits.timeout))]
        session = self._session()
        if session is not None:
            session.areas.url_waits_changed()
        return entries

    def expire(self) -> None:
        """End the waits past their deadline (the app's clock, every :data:`WAIT_TICK`)."""
        entries = self._waits_ended(self.url_waits.expire())
        session = self._session()
        if entries and session is not None:
            session.areas.queue_entries(entries)

    def end(self, key: int, state: WaitState) -> None:
        """The user's "the page is done" (``done``) or "stop waiting" (``gave_up``)."""
        wait = self.url_waits.end(key, state)
        session = self._session()
        if wait is not None and session is not None:
            session.areas.queue_entries(self._waits_ended([wait]))
            session.areas.flush_entries()
            if state == "gave_up":
                self._offer_to_cancel(wait.request.call_id)

    def _offer_to_cancel(self, call_id: int | None) -> None:
        """Giving up on a page whose tool call still runs: offer to cancel the call too."""
        session = self._session()
        if call_id is None or session is None or call_id not in session.calls.cancellable:
            return
        _, heading = session.calls.cancellable[call_id]
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        def answered(cancel: bool | None) -> None:
            if cancel and session is not None:
                session.calls.cancel_call(call_id)

        self._app.push_screen(
            ConfirmScreen(
                "Cancel the call too?",
                f"Call {one_line(heading)} is still running, waiting for the page you gave up "
                "on. Cancel it (the server is sent notifications/cancelled)?",
                yes="Cancel the call",
                no="Keep it running",
                danger=False,
            ),
            callback=answered,
        )

    def wait_for_page(self, request: ElicitationRequest) -> UrlWait:
        """Start waiting for the page of an accepted URL request (idempotent).

        A server no longer connected ends the wait at once (``closed``): its completion can
        never come. A -32042's page is asked for after its call returned, so the connection
        can drop while the consent is open, and accepting it then left a ten-minute wait.
        """
        wait = self.url_waits.add(request)
        entry = self.entries.get(request.server)
        gone = entry is None or entry.state is not ConnectionState.READY
        ended = self.url_waits.server_gone(request.server) if wait.waiting and gone else []
        session = self._session()
        if session is not None:
            session.areas.queue_entries(self._waits_ended(ended))
            session.areas.url_waits_changed()
        return wait
