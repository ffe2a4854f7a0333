"""The TUI's answer to elicitation and sampling requests: one modal at a time, the rest queued.

:class:`TuiElicitationHandler` implements ``mcp_tui.session.elicitation.ElicitationHandler``. The
session awaits :meth:`~TuiElicitationHandler.elicit` from a task on the app's event loop (the
connection runs in a Textual worker); the handler

- queues requests first come, first served, so only one elicitation screen shows at a time (several
  servers, parallel tool calls and one 2026-07-28 round asking for several inputs all queue), and
  keeps the count of waiting requests visible on the screen that is showing;
- pushes :class:`~mcp_tui.ui.screens.elicitation.ElicitationScreen` for form mode and the URL
  consent screen for URL mode, both ``ModalScreen[ElicitationOutcome]``, and for a
  ``sampling/createMessage`` the review screen (``screens/sampling.py``), in the same queue;
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
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.screen import Screen

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.ui.app.collector_hold import CollectorHold
from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.messages import ElicitationFinished, ElicitationShown
from mcp_tui.ui.screens.elicitation import ElicitationScreen
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from mcp_tui.config.answers import AnswerRecorder
    from mcp_tui.ui.screens.sampling import SamplingScreen

log = logging.getLogger(__name__)

ABANDONED_NOTE = "the server cancelled the request or the connection closed"


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
        self._line: deque[asyncio.Future[None]] = deque()
        self._busy = False
        self._current: Screen[Any] | None = None
        self._recorder: AnswerRecorder | None = None
        #: The transcript's "shown" message of the request on screen, posted after its first frame.
        self._shown: _Shown | None = None

    # --- the queue ---------------------------------------------------------------------------

    @property
    def waiting(self) -> int:
        """Requests queued behind the one on screen."""
        return sum(1 for f in self._line if not f.done())

    @property
    def current_screen(self) -> Screen[Any] | None:
        """The elicitation screen showing now, if any."""
        return self._current

    def _update_waiting(self) -> None:
        screen = self._current
        if screen is not None and hasattr(screen, "set_waiting"):
            try:
                screen.set_waiting(self.waiting)
            except Exception:  # a screen being torn down; the count is cosmetic
                log.debug("could not update the waiting count", exc_info=True)

    async def _wait_turn(self) -> None:
        if not self._busy and not self._line:
            self._busy = True
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._line.append(turn)
        self._update_waiting()
        try:
            await turn
        except asyncio.CancelledError:
            if turn in self._line:
                self._line.remove(turn)
                self._update_waiting()
            elif turn.done() and not turn.cancelled():
                self._release()  # our turn came as we were cancelled: pass it on
            raise

    def _release(self) -> None:
        while self._line:
            turn = self._line.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self._busy = False

    # --- answering ---------------------------------------------------------------------------

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        """Queue ``request``, show it when its turn comes, return what the user chose."""
        await self._wait_turn()
        try:
            return await self._show(request)
        finally:
            self._release()

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
            self._current = screen
            mounted = self.app.push_screen(screen, callback=answered)
            screen.call_after_refresh(painted)
            await mounted
        except asyncio.CancelledError:  # withdrawn while its screen was still being mounted
            self._current = None
            painted()
            self._abandon(request, screen)
            raise
        except Exception as exc:
            self._current = None
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
            self._current = None
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
        self._say_withdrawn(request.server, "request", "form", bool(typed))

    def _say_withdrawn(self, server: str, what: str, shown_on: str, typed: bool) -> None:
        kept = " What you typed is kept in the transcript." if typed else ""
        try:
            self.app.notify(
                f"Server {server}: the {what} was withdrawn ({ABANDONED_NOTE}); "
                f"the {shown_on} was closed.{kept}",
                title="Request withdrawn",
                severity="warning",
                markup=False,
            )
        except Exception:
            log.debug("could not notify", exc_info=True)

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

    # --- sampling ----------------------------------------------------------------------------

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        """A ``sampling/createMessage``: in the same queue as the forms, on its review screen."""
        await self._wait_turn()
        try:
            return await self._show_sampling(request)
        finally:
            self._release()

    async def _show_sampling(self, request: SamplingRequest) -> SamplingOutcome:
        from mcp_tui.ui.messages import SamplingFinished, SamplingShown
        from mcp_tui.ui.screens.sampling import SamplingScreen

        answer: asyncio.Future[SamplingOutcome] = asyncio.get_running_loop().create_future()

        def answered(outcome: SamplingOutcome | None) -> None:
            if not answer.done():
                answer.set_result(outcome if outcome is not None else SamplingOutcome.cancel())

        def post(message: Any) -> None:
            try:
                self.app.post_message(message)
            except Exception:
                log.debug("could not post %s", type(message).__name__, exc_info=True)

        screen = SamplingScreen(request, waiting=self.waiting)
        try:
            self._current = screen
            mounted = self.app.push_screen(screen, callback=answered)
            post(SamplingShown(request, self.waiting))
            await mounted
        except asyncio.CancelledError:  # withdrawn while its screen was still being mounted
            self._current = None
            self._abandon_sampling(request, screen, post)
            raise
        except Exception as exc:
            self._current = None
            log.warning("could not show a sampling request", exc_info=True)
            outcome = SamplingOutcome.cancel(f"could not show the request: {exc}")
            post(SamplingFinished(request, outcome))
            return outcome
        try:
            outcome = await answer
        except asyncio.CancelledError:
            self._abandon_sampling(request, screen, post)
            raise
        finally:
            self._current = None
        post(SamplingFinished(request, outcome))
        self._save_sampling(request, outcome)
        return outcome

    def _abandon_sampling(
        self, request: SamplingRequest, screen: SamplingScreen, post: Callable[[Any], None]
    ) -> None:
        """The sampling request went away with its screen open: close it, keep what was typed."""
        from mcp_tui.ui.messages import SamplingFinished

        typed = screen.raw_text()
        try:
            screen.finish(SamplingOutcome.cancel(ABANDONED_NOTE))
        except Exception:  # the cancellation goes on, whatever the screen did
            log.warning("could not close an abandoned sampling screen", exc_info=True)
        post(SamplingFinished(request, SamplingOutcome.cancel(ABANDONED_NOTE), typed or None))
        self._say_withdrawn(request.server, "sampling request", "screen", bool(typed))

    def _save_sampling(self, request: SamplingRequest, outcome: SamplingOutcome) -> None:
        """``--save-answers``: the reply, replayable by ``mcp-tui call --answers``."""
        if self.save_answers is None:
            return
        reply: dict[str, Any] = {
            "text": outcome.text,
            "model": outcome.model,
            "stopReason": outcome.stop_reason,
        }
        if outcome.tool_use is not None:
            reply["toolUse"] = {"name": outcome.tool_use.name, "input": outcome.tool_use.input}
        try:
            if self._recorder is None:
                from mcp_tui.config.answers import AnswerRecorder

                self._recorder = AnswerRecorder(self.save_answers)
            notes = self._recorder.record(
                message=request.message,
                mode="sampling",
                action=outcome.action,
                server=request.server,
                tool=request.tool,
                sampling=reply if outcome.action == "accept" else None,
            )
            for note in notes:
                self.app.notify(one_line(note, limit=None), severity="warning", markup=False)
        except Exception as exc:
            self.app.notify(
                f"Could not save the answer to {self.save_answers}: {exc}",
                severity="error",
                markup=False,
            )

    # --- the answers file --------------------------------------------------------------------

    def _save(self, request: ElicitationRequest, outcome: ElicitationOutcome) -> None:
        """Append the user's answer to the answers file (``mcp-tui call --answers`` replays it)."""
        if self.save_answers is None:
            return
        try:
            if self._recorder is None:
                from mcp_tui.config.answers import AnswerRecorder

                self._recorder = AnswerRecorder(self.save_answers)
            notes = self._recorder.record(
                message=request.message,
                mode=request.mode,
                action=outcome.action,
                content=dict(outcome.content) if outcome.content is not None else None,
                server=request.server,
                tool=request.tool,
            )
            for note in notes:
                self.app.notify(one_line(note, limit=None), severity="warning", markup=False)
        except Exception as exc:
            self.app.notify(
                f"Could not save the answer to {self.save_answers}: {exc}",
                severity="error",
                markup=False,
            )
