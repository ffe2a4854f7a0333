"""Textual messages shared between the app shell and the elicitation screens.

Small documented classes; posted to the app (``app.post_message``), handled by the session
screen, which records them in the transcript. Elicitation and sampling requests are shown and
answered alike, so their messages share two generic bases; each keeps its own class, as Textual
names the handler (``on_sampling_finished``) after the message's class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from textual.message import Message

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest

if TYPE_CHECKING:
    from mcp_tui.ui.render import Entry

#: What a server asked (``ElicitationRequest``, ``SamplingRequest``) and the answer it was sent.
RequestT = TypeVar("RequestT")
OutcomeT = TypeVar("OutcomeT")


class EntryDetailRequested(Message):
    """The user asked to see a transcript ``entry`` (a ``render.Entry``) in full.

    Defined here rather than on the transcript widget so the session screen can handle it
    without importing the widget before its first frame.
    """

    def __init__(self, entry: Entry) -> None:
        super().__init__()
        self.entry = entry


class RequestShown(Message, Generic[RequestT]):
    """A screen was opened for a server's ``request`` (``waiting`` more are queued)."""

    def __init__(self, request: RequestT, waiting: int = 0) -> None:
        super().__init__()
        self.request = request
        self.waiting = waiting


class RequestFinished(Message, Generic[RequestT, OutcomeT]):
    """A server's ``request`` was answered with ``outcome``, or declined or cancelled.

    ``abandoned_input`` keeps what the user had typed when the screen closed without sending it
    (the server withdrew the request, the connection died), as ``name -> raw text``, so nothing
    typed is lost.
    """

    def __init__(
        self,
        request: RequestT,
        outcome: OutcomeT,
        abandoned_input: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.request = request
        self.outcome = outcome
        self.abandoned_input = abandoned_input


class ElicitationShown(RequestShown[ElicitationRequest]):
    """A form or URL consent screen was opened for ``request`` (``waiting`` more are queued)."""


class ElicitationFinished(RequestFinished[ElicitationRequest, ElicitationOutcome]):
    """A request was answered: ``outcome.action`` with the exact ``outcome.content`` sent (and
    what was typed in a form that closed unsent, ``abandoned_input``)."""


class SamplingShown(RequestShown[SamplingRequest]):
    """A sampling request's review screen was opened (``waiting`` more are queued)."""


class SamplingFinished(RequestFinished[SamplingRequest, SamplingOutcome]):
    """A sampling request was answered (the reply sent) or declined or cancelled (and the reply
    typed on a screen that closed unsent, ``abandoned_input``)."""
