"""Textual messages shared between the app shell and the elicitation screens.

Small documented dataclasses; posted to the app (``app.post_message``), handled by the session
screen, which records them in the transcript.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest


@dataclass
class ElicitationShown(Message):
    """A form or URL consent screen was opened for ``request`` (``waiting`` more are queued)."""

    request: ElicitationRequest
    waiting: int = 0


@dataclass
class ElicitationFinished(Message):
    """A request was answered: ``outcome.action`` with the exact ``outcome.content`` sent.

    ``abandoned_input`` keeps what the user had typed when the form closed without being sent
    (server cancelled, connection died), as ``name -> raw text``, so nothing typed is lost.
    """

    request: ElicitationRequest
    outcome: ElicitationOutcome
    abandoned_input: dict[str, str] | None = None
