"""The TUI's answer to elicitation requests: one modal at a time, the rest queued.

:class:`TuiElicitationHandler` implements ``mcp_tui.session.elicitation.ElicitationHandler``. The
session awaits :meth:`~TuiElicitationHandler.elicit` from a task on the app's event loop (the
connection runs in a Textual worker); the handler

- queues requests first come, first served, so only one elicitation screen shows at a time
  (:class:`~mcp_tui.ui.app.request_line.RequestLine`), and keeps the count of waiting requests
  visible on the screen that is showing;
- pushes :class:`~mcp_tui.ui.screens.elicitation_form.ElicitationScreen` for form mode and the URL
  consent screen for URL mode, both ``ModalScreen[ElicitationOutcome]``; a
  ``sampling/createMessage`` goes to :mod:`mcp_tui.ui.app.sampling_handler`, in the same line
  (the session sees one handler for both);
- if the awaiting task is cancelled (the server sent ``notifications/cancelled`` or the
  connection died), closes the screen with a notice and reports what the user had typed;
- posts ``ElicitationShown`` (once the screen has painted: the transcript is behind it) and
  ``ElicitationFinished`` to the app for the transcript;
- never raises (cancellation aside, which must propagate): failures become ``cancel`` with a note;
- optionally records every answer, in order, in an answers file (``mcp_tui.config.answers``) that
  ``mcp-tui call --answers`` replays.

Cleanup after a cancellation never awaits: under anyio a cancelled scope cancels every later await.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.ui.app.collector_hold import CollectorHold
from mcp_tui.ui.app.request_line import ABANDONED_NOTE, AnswersFile, RequestLine, say_withdrawn
from mcp_tui.ui.app.sampling_handler import TuiSamplingHandler
from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.messages import ElicitationFinished, ElicitationShown
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen

log = logging.getLogger(__name__)


class _Shown:
    """The ``ElicitationShown`` of one request, posted once (after the screen's first frame)."""

    def __init__(self, app: App[Any], message: ElicitationShown) -> None:
        self.app = app
        self.message = message
        self._posted = False

    def post(self) -> None:
        if self._posted:
            return
        self._posted = True
        try:
            self.app.post_message(self.message)
        except Exception:
            log.debug("could not post ElicitationShown", exc_info=True)


class TuiElicitationHandler:
    """Shows elicitation requests in ``app`` one at a time; see the module docstring."""

    def __init__(
        self,
        app: App[Any],
        *,
        review_before_send: bool = False,
        save_answers: Path | None = None,
    ) -> None:
        self.app = app
        self.review_before_send = review_before_send
        self.save_answers = save_answers
        #: The line every request a server makes waits in, forms and sampling alike.
        self.line = RequestLine()
        self._answers = AnswersFile(app, save_answers)
        self._sampling = TuiSamplingHandler(app, self.line, self._answers)
        #: The transcript's "shown" message of the request on screen, posted after its first frame.
        self._shown: _Shown | None = None

    @property
    def waiting(self) -> int:
        """Requests queued behind the one on screen."""
        return self.line.waiting

    @property
    def current_screen(self) -> Screen[Any] | None:
        """The screen a server's request shows now (a form, a consent, a review), if any."""
        return self.line.current

    # --- answering ---------------------------------------------------------------------------

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        """Queue ``request``, show it when its turn comes, return what the user chose."""
        async with self.line.turn():
            return await self._show(request)

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        """A ``sampling/createMessage``: in the same line as the forms, on its review screen."""
        return await self._sampling.sample(request)

    def _make_screen(self, request: ElicitationRequest) -> Screen[ElicitationOutcome]:
        if request.mode == "url":
            from mcp_tui.ui.screens.url_consent import UrlConsentScreen

            return UrlConsentScreen(request, waiting=self.waiting)
        return ElicitationScreen(request, waiting=self.waiting, review=self.review_before_send)

    async def _show(self, request: ElicitationRequest) -> ElicitationOutcome:
        answer: asyncio.Future[ElicitationOutcome] = asyncio.get_running_loop().create_future()

        def answered(outcome: ElicitationOutcome | None) -> None:
            if not answer.done():
                answer.set_result(outcome if outcome is not None else ElicitationOutcome.cancel())

        # Until the screen's first frame: no collector pauses (``collector_hold``), and the
        # transcript line waits (it is drawn on the screen behind this one, out of sight).
        hold = CollectorHold(self.app)
        shown = _Shown(self.app, ElicitationShown(request, self.waiting))
        self._shown = shown

        def painted() -> None:
            hold.release()
            shown.post()

        try:
            screen = self._make_screen(request)
            self.line.current = screen
            mounted = self.app.push_screen(screen, callback=answered)
            screen.call_after_refresh(painted)
            await mounted
        except asyncio.CancelledError:  # withdrawn while its screen was still being mounted
            self.line.current = None
            painted()
            self._abandon(request, screen)
            raise
        except Exception as exc:
            self.line.current = None
            painted()
            log.warning("could not show an elicitation request", exc_info=True)
            outcome = ElicitationOutcome.cancel(f"could not show the request: {exc}")
            self._post_finished(request, outcome, None)
            return outcome
        try:
            outcome = await answer
        except asyncio.CancelledError:
            self._abandon(request, screen)
            raise
        finally:
            self.line.current = None
            painted()  # answered before its first frame: release now, and in order
        self._post_finished(request, outcome, None)
        self._save(request, outcome)
        return outcome

    def _abandon(self, request: ElicitationRequest, screen: Screen[Any]) -> None:
        """The request went away with the screen open: close it, keep what was typed, say so."""
        typed: dict[str, str] | None = None
        try:
            raw_text = getattr(screen, "raw_text", None)
            typed = raw_text() if callable(raw_text) else None
        except Exception:
            log.debug("could not read the abandoned input", exc_info=True)
        self._close(screen)
        outcome = ElicitationOutcome.cancel(ABANDONED_NOTE)
        self._post_finished(request, outcome, typed or None)
        say_withdrawn(self.app, request.server, "request", "form", bool(typed))

    def _close(self, screen: Screen[Any]) -> None:
        """Close ``screen`` without awaiting (we may be inside a cancelled scope)."""
        try:
            if isinstance(screen, ElicitationScreen):
                screen.finish(ElicitationOutcome.cancel(ABANDONED_NOTE))
                return
            close_wherever(screen, None)
        except Exception:
            log.warning("could not close an abandoned elicitation screen", exc_info=True)

    def _post_finished(
        self,
        request: ElicitationRequest,
        outcome: ElicitationOutcome,
        typed: dict[str, str] | None,
    ) -> None:
        shown = self._shown
        if shown is not None and shown.message.request is request:
            shown.post()  # "shown" before "finished", whatever the order they came in
        try:
            self.app.post_message(ElicitationFinished(request, outcome, typed))
        except Exception:
            log.debug("could not post ElicitationFinished", exc_info=True)

    # --- the answers file --------------------------------------------------------------------

    def _save(self, request: ElicitationRequest, outcome: ElicitationOutcome) -> None:
        """Append the user's answer to the answers file (``mcp-tui call --answers`` replays it)."""
        self._answers.record(
            message=request.message,
            mode=request.mode,
            action=outcome.action,
            content=dict(outcome.content) if outcome.content is not None else None,
            server=request.server,
            tool=request.tool,
        )
