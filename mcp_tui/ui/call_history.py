"""The calls a person made from the session screen, each with what they answered during it.

Two things need a call after it has run: ``a`` calls the last one again with the same values
(after a ``--watch`` restart, say), and "Save as a test" writes a finished call as a test case:
its arguments, every form and sampling request it raised with the answer given, and what came
back. The session screen notes a call when it sends it (:meth:`CallHistory.started`), the app
adds each answer as the elicitation handler reports it (:meth:`CallHistory.answered`, matched
by the call id the request carries), and the screen closes the record when the outcome is shown
(:meth:`CallHistory.finished`: after every answer posted before it, the transcript's order).

Only the person's own calls are kept: a tool call a chat model makes has no record (its
arguments are the model's); the retry of a -32042 call is a call (and a record) of its own. At
most :data:`KEPT` records are kept.

No Textual: plain records, so the test writer can read them without a screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from msgspec import Struct, field

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import CallOutcome
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.ui.shown_names import shown_name

CallKind = Literal["tool", "prompt", "resource"]
#: Records kept (the oldest go first): enough to save any recent call, bounded for long sessions.
KEPT = 100


class Exchange(Struct, frozen=True):
    """One request the server made during a call and the answer it was sent."""

    request: ElicitationRequest | SamplingRequest
    outcome: ElicitationOutcome | SamplingOutcome


class CallRecord(Struct):
    """One call: what was sent, what was asked and answered meanwhile, and how it ended.

    ``name`` is the tool's or prompt's name, or the resource's URI; ``arguments`` exactly what
    was sent (the resource read has none).
    """

    call_id: int
    server: str
    kind: CallKind
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    as_task: bool = False
    exchanges: list[Exchange] = field(default_factory=list)
    outcome: CallOutcome | None = None
    started: float = field(default_factory=time.monotonic)
    #: Seconds from sending to the outcome (set by :meth:`CallHistory.finished`).
    seconds: float | None = None
    #: The server's connection it was made on (``ServerEntry.generation``): the calls made
    #: before it on the same one built the state it ran in ("Save as a test"'s setup).
    generation: int = 0
    #: Why the call was stopped before the server ended it (mcp-tui closed while it ran):
    #: whatever its outcome, it says nothing of the server (:meth:`CallHistory.interrupt`).
    interrupted: str | None = None

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def heading(self) -> str:
        """``demo › book_table`` (``prompt greet``, ``read file:///x``): the transcript's words."""
        what = {"tool": "", "prompt": "prompt ", "resource": "read "}[self.kind]
        return f"{shown_name(self.server)} › {what}{self.name}"


class CallHistory:
    """The person's calls, oldest first; listeners hear of each finished one (``--record``)."""

    def __init__(self) -> None:
        self._calls: dict[int, CallRecord] = {}
        self._listeners: list[Callable[[CallRecord], None]] = []
        #: Every value typed into a field that looked secret, in any form answered (a call's or
        #: not): "Export session…" masks each wherever it appears.
        self.secrets: set[str] = set()
        #: What was asked during calls that are not the person's (a chat model's), for their
        #: cards: call id -> its exchanges (the newest :data:`KEPT` calls).
        self._watched: dict[int, list[Exchange]] = {}

    def started(
        self,
        call_id: int,
        server: str,
        kind: CallKind,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        as_task: bool = False,
        generation: int = 0,
    ) -> CallRecord:
        record = CallRecord(
            call_id, server, kind, name, dict(arguments or {}), as_task, generation=generation
        )
        self._calls[call_id] = record
        while len(self._calls) > KEPT:
            del self._calls[next(iter(self._calls))]
        return record

    def answered(
        self,
        request: ElicitationRequest | SamplingRequest,
        outcome: ElicitationOutcome | SamplingOutcome,
    ) -> None:
        """A request made during a call (``request.call_id``) was answered with ``outcome``."""
        if isinstance(request, ElicitationRequest) and isinstance(outcome, ElicitationOutcome):
            self.secrets.update(secret_values(request, outcome))
        call_id = request.call_id
        record = self._calls.get(call_id) if call_id is not None else None
        if record is not None:
            record.exchanges.append(Exchange(request, outcome))
        elif call_id is not None and call_id in self._watched:
            self._watched[call_id].append(Exchange(request, outcome))

    def watch(self, call_id: int) -> None:
        """Keep what is asked during call ``call_id``, which is not the person's (a chat
        model's call): its card says it too, but it is no record (not "again", not a test)."""
        self._watched[call_id] = []
        while len(self._watched) > KEPT:
            del self._watched[next(iter(self._watched))]

    def asked(self, call_id: int) -> str:
        """ "asked: confirm → accepted · form, 2 fields → accepted {date, party_size}": what
        the server asked during the call, for its transcript card ("" when nothing was)."""
        record = self._calls.get(call_id)
        exchanges = record.exchanges if record is not None else self._watched.get(call_id, [])
        if not exchanges:
            return ""
        return "asked: " + " · ".join(_exchange_words(e) for e in exchanges)

    def finished(self, call_id: int, outcome: CallOutcome) -> CallRecord | None:
        """The call ended with ``outcome``; the listeners are told. ``None``: not a call of the
        person's (a chat model's)."""
        record = self._calls.get(call_id)
        if record is None or record.outcome is not None:
            return None
        record.outcome = outcome
        record.seconds = time.monotonic() - record.started
        for listener in list(self._listeners):
            listener(record)
        return record

    def interrupt(self, why: str) -> None:
        """mcp-tui is closing: every call still running is stopped by it, not ended by its
        server (a form it had open is answered for the person), so none is a test case."""
        for record in self._calls.values():
            if record.outcome is None:
                record.interrupted = why

    def listen(self, listener: Callable[[CallRecord], None]) -> None:
        """Call ``listener`` with every call that finishes from now on."""
        self._listeners.append(listener)

    @property
    def records(self) -> list[CallRecord]:
        """Every call kept, oldest first."""
        return list(self._calls.values())

    @property
    def last(self) -> CallRecord | None:
        """The call sent last (it may still run)."""
        return next(reversed(self._calls.values()), None)

    @property
    def last_finished(self) -> CallRecord | None:
        """The last call that has ended."""
        return next((r for r in reversed(self._calls.values()) if r.finished), None)

    def made_before(self, record: CallRecord) -> list[CallRecord]:
        """The calls sent before ``record`` on its server's same connection, finished, oldest
        first: what built the state it ran in (a server process keeps what they made)."""
        return [
            r
            for r in self._calls.values()
            if r.server == record.server
            and r.generation == record.generation
            and r.call_id < record.call_id
            and r.finished
        ]

    def finished_calls(self) -> list[CallRecord]:
        """Every ended call still kept, the most recent first."""
        return [r for r in reversed(self._calls.values()) if r.finished]


def secret_values(request: ElicitationRequest, outcome: ElicitationOutcome) -> list[str]:
    """The values typed into fields of ``request``'s form that look secret (non-empty strings)."""
    from mcp_tui.schema.secrets import looks_secret

    if request.form is None or outcome.content is None:
        return []
    found = []
    for spec in request.form.fields:
        value = outcome.content.get(spec.name)
        if looks_secret(spec) and isinstance(value, str) and value:
            found.append(value)
    return found


_PAST = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}


def _exchange_words(exchange: Exchange) -> str:
    """ "form, 2 fields → accepted {date, party_size}", "URL → declined", "sampling → accepted"."""
    request, outcome = exchange.request, exchange.outcome
    if isinstance(request, ElicitationRequest):
        count = len(request.form.fields) if request.form is not None else 0
        if request.mode == "url":
            what = "URL"
        elif count == 0:
            what = "confirm"
        else:
            what = f"form, {count} field{'s' if count != 1 else ''}"
        if request.app_ui:
            what += " (its app UI not shown)"
    else:
        what = "sampling"
    done = _PAST.get(outcome.action, outcome.action)
    if isinstance(outcome, ElicitationOutcome) and outcome.content:
        done += " {" + ", ".join(outcome.content) + "}"
    return f"{what} → {done}"
