"""The app's bookkeeping of elicitations: transcript lines, and the URL waits they leave behind.

Accepted URL-mode requests are tracked in :class:`~mcp_tui.ui.url_waits.UrlWaits` until the server
completes them (``ElicitationCompleted``), the user marks them done or gives up, their call ends
(2026-07-28) or their bounded wait runs out. :class:`AppWaits` turns those endings into transcript
lines and tells the session screen to redraw its "waiting for completion" rows.

It is a part of :class:`~mcp_tui.ui.app.McpTuiApp`, not an app of its own: it subclasses
``App`` so that its methods are type-checked against, and tested for clashes with, Textual's
``App``; the app sets the attributes it declares.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import App

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import ConnectionState, ElicitationCompleted, LogReceived
from mcp_tui.ui.messages import (
    ElicitationFinished,
    ElicitationShown,
    SamplingFinished,
    SamplingShown,
)
from mcp_tui.ui.render import (
    Entry,
    elicitation_finished_entry,
    elicitation_shown_entry,
    url_wait_entry,
)
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.state import ServerEntry
from mcp_tui.ui.url_waits import UrlWait, UrlWaits, WaitState
from mcp_tui.untrusted import one_line

#: Seconds between two checks of the URL waits' deadlines.
WAIT_TICK = 1.0


class AppWaits(App[None]):
    """URL waits and elicitation transcript lines of :class:`~mcp_tui.ui.app.McpTuiApp`."""

    #: Accepted URL-mode requests waiting for the server to finish them.
    url_waits: UrlWaits
    entries: dict[str, ServerEntry]
    _session: SessionScreen | None

    def _wait_events(self, batch: Any) -> list[Entry]:
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
        if self._session is not None:
            self._session.url_waits_changed()
        return entries

    def _expire_waits(self) -> None:
        entries = self._waits_ended(self.url_waits.expire())
        if entries and self._session is not None:
            self._session.queue_entries(entries)

    def end_url_wait(self, key: int, state: WaitState) -> None:
        """The user's "the page is done" (``done``) or "stop waiting" (``gave_up``)."""
        wait = self.url_waits.end(key, state)
        if wait is not None and self._session is not None:
            self._session.queue_entries(self._waits_ended([wait]))
            self._session.flush_entries()
            if state == "gave_up":
                self._offer_to_cancel(wait.request.call_id)

    def _offer_to_cancel(self, call_id: int | None) -> None:
        """Giving up on a page whose tool call still runs: offer to cancel the call too."""
        session = self._session
        if call_id is None or session is None or call_id not in session.cancellable:
            return
        _, heading = session.cancellable[call_id]
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        def answered(cancel: bool | None) -> None:
            if cancel and session is not None:
                session.cancel_call(call_id)

        self.push_screen(
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

    def on_elicitation_shown(self, message: ElicitationShown) -> None:
        if self._session is not None:
            self._session.queue_entries([elicitation_shown_entry(message.request, message.waiting)])

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
        if self._session is not None:
            self._session.queue_entries(self._waits_ended(ended))
            self._session.url_waits_changed()
        return wait

    def on_elicitation_finished(self, message: ElicitationFinished) -> None:
        request = message.request
        if request.mode == "url" and message.outcome.action == "accept":
            self.wait_for_page(request)
        if self._session is not None:
            self._session.history.answered(request, message.outcome)
            entry = elicitation_finished_entry(
                message.request, message.outcome, message.abandoned_input
            )
            self._session.queue_entries([entry])

    def on_sampling_shown(self, message: SamplingShown) -> None:
        from mcp_tui.ui.render_sampling import sampling_shown_entry

        if self._session is not None:
            self._session.queue_entries([sampling_shown_entry(message.request, message.waiting)])

    def on_sampling_finished(self, message: SamplingFinished) -> None:
        from mcp_tui.ui.render_sampling import sampling_finished_entry

        if self._session is not None:
            self._session.history.answered(message.request, message.outcome)
            entry = sampling_finished_entry(
                message.request, message.outcome, message.abandoned_input
            )
            self._session.queue_entries([entry])
