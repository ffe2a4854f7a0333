"""Textual messages shared between the app shell and the elicitation screens.

Small documented classes; posted to the app (``app.post_message``), handled by the session
screen, which records them in the transcript.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
    from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
    from mcp_tui.ui.render import Entry


class EntryDetailRequested(Message):
    """The user asked to see a transcript ``entry`` (a ``render.Entry``) in full.

    Defined here rather than on the transcript widget so the session screen can handle it
    without importing the widget before its first frame.
    """

    def __init__(self, entry: Entry) -> None:
        super().__init__()
        self.entry = entry


class ElicitationShown(Message):
    """A form or URL consent screen was opened for ``request`` (``waiting`` more are queued)."""

    def __init__(self, request: ElicitationRequest, waiting: int = 0) -> None:
        super().__init__()
        self.request = request
        self.waiting = waiting


class ElicitationFinished(Message):
    """A request was answered: ``outcome.action`` with the exact ``outcome.content`` sent.

    ``abandoned_input`` keeps what the user had typed when the form closed without being sent
    (server cancelled, connection died), as ``name -> raw text``, so nothing typed is lost.
    """

    def __init__(
        self,
        request: ElicitationRequest,
        outcome: ElicitationOutcome,
        abandoned_input: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.request = request
        self.outcome = outcome
        self.abandoned_input = abandoned_input


class SamplingShown(Message):
    """A sampling request's review screen was opened (``waiting`` more are queued)."""

    def __init__(self, request: SamplingRequest, waiting: int = 0) -> None:
        super().__init__()
        self.request = request
        self.waiting = waiting


class SamplingFinished(Message):
    """A sampling request was answered (the reply sent) or declined or cancelled.

    ``abandoned_input`` keeps the reply typed when the screen closed unsent (the server withdrew
    the request, the connection died), so nothing typed is lost.
    """

    def __init__(
        self,
        request: SamplingRequest,
        outcome: SamplingOutcome,
        abandoned_input: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.request = request
        self.outcome = outcome
        self.abandoned_input = abandoned_input
