"""The TUI's answer to a ``sampling/createMessage``: its review screen, in the forms' line.

:class:`TuiSamplingHandler` shows each request on the review screen (``screens/sampling_review.py``)
when its turn comes in the line the elicitation forms wait in (``request_line.py``: one screen a
server asked for at a time), posts ``SamplingShown`` and ``SamplingFinished`` to the app for the
transcript, closes the screen if the server withdraws the request (keeping what was typed), never
raises (cancellation aside, which must propagate), and writes each reply to the answers file
(``--save-answers``).

The session sees one handler for both kinds of request
(:class:`~mcp_tui.ui.app.elicitation_handler.TuiElicitationHandler`), which hands sampling here.
The review screen is imported on the first request: most sessions never see one.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from textual.app import App

from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.ui.app.request_line import ABANDONED_NOTE, AnswersFile, RequestLine, say_withdrawn

if TYPE_CHECKING:
    from mcp_tui.ui.screens.sampling_review import SamplingScreen

log = logging.getLogger(__name__)


class TuiSamplingHandler:
    """Shows sampling requests in ``app``, in ``line``; see the module docstring."""

    def __init__(self, app: App[Any], line: RequestLine, answers: AnswersFile) -> None:
        self.app = app
        self.line = line
        self.answers = answers

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        """Queue ``request``, show it when its turn comes, return what the user chose."""
        async with self.line.turn():
            return await self._show(request)

    def _post(self, message: Any) -> None:
        try:
            self.app.post_message(message)
        except Exception:
            log.debug("could not post %s", type(message).__name__, exc_info=True)

    async def _show(self, request: SamplingRequest) -> SamplingOutcome:
        from mcp_tui.ui.messages import SamplingFinished, SamplingShown
        from mcp_tui.ui.screens.sampling_review import SamplingScreen

        answer: asyncio.Future[SamplingOutcome] = asyncio.get_running_loop().create_future()

        def answered(outcome: SamplingOutcome | None) -> None:
            if not answer.done():
                answer.set_result(outcome if outcome is not None else SamplingOutcome.cancel())

        line = self.line
        screen = SamplingScreen(request, waiting=line.waiting)
        try:
            line.current = screen
            mounted = self.app.push_screen(screen, callback=answered)
            self._post(SamplingShown(request, line.waiting))
            await mounted
        except asyncio.CancelledError:  # withdrawn while its screen was still being mounted
            line.current = None
            self._abandon(request, screen)
            raise
        except Exception as exc:
            line.current = None
            log.warning("could not show a sampling request", exc_info=True)
            outcome = SamplingOutcome.cancel(f"could not show the request: {exc}")
            self._post(SamplingFinished(request, outcome))
            return outcome
        try:
            outcome = await answer
        except asyncio.CancelledError:
            self._abandon(request, screen)
            raise
        finally:
            line.current = None
        self._post(SamplingFinished(request, outcome))
        self._save(request, outcome)
        return outcome

    def _abandon(self, request: SamplingRequest, screen: SamplingScreen) -> None:
        """The sampling request went away with its screen open: close it, keep what was typed."""
        from mcp_tui.ui.messages import SamplingFinished

        typed = screen.raw_text()
        try:
            screen.finish(SamplingOutcome.cancel(ABANDONED_NOTE))
        except Exception:  # the cancellation goes on, whatever the screen did
            log.warning("could not close an abandoned sampling screen", exc_info=True)
        self._post(SamplingFinished(request, SamplingOutcome.cancel(ABANDONED_NOTE), typed or None))
        say_withdrawn(self.app, request.server, "sampling request", "screen", bool(typed))

    def _save(self, request: SamplingRequest, outcome: SamplingOutcome) -> None:
        """``--save-answers``: the reply, replayable by ``mcp-tui call --answers``."""
        if self.answers.path is None:
            return
        reply: dict[str, Any] = {
            "text": outcome.text,
            "model": outcome.model,
            "stopReason": outcome.stop_reason,
        }
        if outcome.tool_use is not None:
            reply["toolUse"] = {"name": outcome.tool_use.name, "input": outcome.tool_use.input}
        self.answers.record(
            message=request.message,
            mode="sampling",
            action=outcome.action,
            server=request.server,
            tool=request.tool,
            sampling=reply if outcome.action == "accept" else None,
        )
