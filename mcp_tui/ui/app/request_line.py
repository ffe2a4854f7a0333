"""What the elicitation and the sampling handler share: one line, one notice, one answers file.

A server's questions are answered on screen one at a time, whichever kind they are: a form, a URL
consent and a sampling review all wait in one :class:`RequestLine` (several servers, parallel
tool calls and one 2026-07-28 round asking for several inputs all queue), and the screen showing
keeps the count of the requests waiting behind it. A request withdrawn with its screen open is
said the same way for both (:func:`say_withdrawn`); ``--save-answers`` writes both kinds, in the
order answered, to one :class:`AnswersFile` that ``mcp-tui call --answers`` replays.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.screen import Screen

from mcp_tui.ui.request_header import RequestHeader
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from mcp_tui.config.answers import Action, AnswerRecorder, Mode
    from mcp_tui.testbench.redact import Redactor

log = logging.getLogger(__name__)

ABANDONED_NOTE = "the server cancelled the request or the connection closed"


class RequestLine:
    """First come, first served: one request's screen at a time, the rest wait their turn.

    A request shows its screen inside ``async with line.turn():``: :meth:`wait_turn` first,
    :meth:`release` when it is answered (or withdrawn), whatever happened.
    """

    def __init__(self) -> None:
        self._line: deque[asyncio.Future[None]] = deque()
        self._busy = False
        #: The screen showing now, if any (set by the handler that shows it).
        self.current: Screen[Any] | None = None

    @property
    def waiting(self) -> int:
        """Requests queued behind the one on screen."""
        return sum(1 for f in self._line if not f.done())

    def update_waiting(self) -> None:
        """Tell the screen showing how many requests wait behind it."""
        screen = self.current
        header = getattr(screen, "header", None)
        if isinstance(header, RequestHeader):
            try:
                header.set_waiting(self.waiting)
            except Exception:  # a screen being torn down; the count is cosmetic
                log.debug("could not update the waiting count", exc_info=True)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """The request's turn: waited for, then passed on when it ends, whatever happened."""
        await self.wait_turn()
        try:
            yield
        finally:
            self.release()

    async def wait_turn(self) -> None:
        if not self._busy and not self._line:
            self._busy = True
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._line.append(turn)
        self.update_waiting()
        try:
            await turn
        except asyncio.CancelledError:
            if turn in self._line:
                self._line.remove(turn)
                self.update_waiting()
            elif turn.done() and not turn.cancelled():
                self.release()  # our turn came as we were cancelled: pass it on
            raise

    def release(self) -> None:
        while self._line:
            turn = self._line.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self._busy = False


def say_withdrawn(app: App[Any], server: str, what: str, shown_on: str, typed: bool) -> None:
    """The notice for a request the server withdrew (or lost) while its screen was open."""
    kept = " What you typed is kept in the transcript." if typed else ""
    try:
        who = one_line(shown_name(server, app))
        app.notify(
            f"Server {who}: the {what} was withdrawn ({ABANDONED_NOTE}); "
            f"the {shown_on} was closed.{kept}",
            title="Request withdrawn",
            severity="warning",
            markup=False,
        )
    except Exception:
        log.debug("could not notify", exc_info=True)


class AnswersFile:
    """``--save-answers``: every answer appended, in order, for ``mcp-tui call --answers``.

    The file is opened on the first answer (``mcp_tui.config.answers``); what the recorder notes
    (a value it could not write as given) and any error are shown, never raised. A value the
    server was given from the environment (``record_case.written_secrets``) is never written,
    however the server echoes it: ``***`` in the message (informational), and a field or a
    tool's name that holds one left out (the replay fills the field from the form's default).
    """

    def __init__(self, app: App[Any], path: Path | None) -> None:
        self._app = app
        self.path = path
        self._recorder: AnswerRecorder | None = None

    def record(
        self,
        *,
        message: str,
        mode: Mode,
        action: Action,
        server: str,
        tool: str | None,
        content: dict[str, Any] | None = None,
        sampling: dict[str, Any] | None = None,
    ) -> None:
        """Append one answer (as ``AnswerRecorder.record`` takes it); nothing without a path."""
        if self.path is None:
            return
        try:
            if self._recorder is None:
                from mcp_tui.config.answers import AnswerRecorder

                self._recorder = AnswerRecorder(self.path)
            hidden = self._hidden(server)
            notes: list[str] = []
            if hidden and tool is not None and hidden.finds(tool):
                notes.append(
                    "the answer is saved for any tool: the tool's name holds a value taken "
                    "from the environment, which is never written"
                )
                tool = None
            if hidden and content is not None:
                left_out = [key for key, value in content.items() if hidden.finds(value)]
                content = {k: v for k, v in content.items() if k not in left_out}
                notes += [
                    f"{key!r} is left out of the saved answer: it holds a value taken from the "
                    "environment (a replay fills it from the form's default)"
                    for key in left_out
                ]
            notes += self._recorder.record(
                message=hidden.text(message),
                mode=mode,
                action=action,
                content=content,
                # informational: as the person read it
                server=hidden.text(shown_name(server, self._app)),
                tool=tool,
                sampling=sampling,
            )
            for note in notes:
                self._app.notify(one_line(note, limit=None), severity="warning", markup=False)
        except Exception as exc:
            self._app.notify(
                f"Could not save the answer to {self.path}: {exc}",
                severity="error",
                markup=False,
            )

    def _hidden(self, server: str) -> Redactor:
        """What is never written for ``server``'s answers (its spec's values from the
        environment and header values)."""
        from mcp_tui.testbench.redact import Redactor
        from mcp_tui.ui.record_case import written_secrets

        entry = getattr(self._app, "entries", {}).get(server)
        return Redactor(written_secrets(entry.spec) if entry is not None else ())
