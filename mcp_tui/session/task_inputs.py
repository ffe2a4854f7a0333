"""The input requests of one task on 2026-07-28: asked within the flood limits, answered in bulk.

A task asks for what it needs as ``inputRequests`` in a ``tasks/get`` answer, and one answer can
list 10,000 or 100,000 of them at once: a request flood like any other, held to the same limits
as a flood of ``elicitation/create`` (``elicitation_gate.py``), and to bounded work per poll:

- **The gate judges a poll's new requests together** (``admit_many``): at most as many reach the
  person as the rate limit and the queue bound let through (10 within 10 s by default); a tripped
  limit pauses the server, as it does for forms sent one by one. Only the admitted ones are
  parsed and handed to the connection's callbacks (the form, the sampling review, roots).
- **The rest are answered ``cancel`` without asking anyone, with one notice per task** (a later
  poll's refusals are counted, not told again). A refused request with no ``cancel`` of its kind
  (a sampling request, ``roots/list``) cannot be declined one by one: the call ends, as a request
  the client cannot answer ends it, and the task is cancelled.
- **Answers go out in batches**: every answer ready at the same moment shares one
  ``tasks/update``, at most :data:`MAX_ANSWERS_PER_UPDATE` answers each, sent one after another
  (a hostile poll costs a bounded number of requests, each a bounded amount of work on the UI's
  loop, and a Ctrl+C in between is acted on at once).
- **The keys of a poll are read in slices** (:data:`SLICE`), with the loop free in between, and
  only the keys the server still lists are remembered: memory follows the latest poll.

A key seen again in a later poll is not asked twice; a form whose key the server no longer lists
is closed (its ``tasks/update`` is never sent).

Importing this module imports ``mcp``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from itertools import islice
from typing import Any, Literal, Protocol, cast

import anyio
import anyio.lowlevel
import mcp_types as types
from anyio.abc import TaskGroup
from mcp.client.session import ClientRequestContext, ClientSession
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter, ValidationError

from mcp_tui.session.elicitation_bridge import RELATED_TASK_KEY
from mcp_tui.session.elicitation_gate import Decision, ElicitationGate, Verdict
from mcp_tui.untrusted import one_line

#: Answers in one ``tasks/update`` at most (a batch of 2,000 cancels: a few ms on the loop).
MAX_ANSWERS_PER_UPDATE = 2000
#: Keys of one poll looked at between two turns of the event loop.
SLICE = 5000
#: The answer to an elicitation nobody was asked (one instance: it is never changed).
CANCELLED = types.ElicitResult(action="cancel")

_INPUT_REQUEST: TypeAdapter[types.InputRequest] = TypeAdapter(types.InputRequest)


class Admission(Protocol):
    """The anti-spam gate as a task's input requests meet it (the connection's
    ``ElicitationBridge``: one gate and one "stop asking" for every kind of request)."""

    def admit_many(self, count: int) -> tuple[int, Decision | None]: ...

    def admitted(self) -> AbstractContextManager[None]: ...


class GateAdmission:
    """An :class:`Admission` of its own gate, for an extension used without a connection."""

    def __init__(self, gate: ElicitationGate | None = None) -> None:
        self.gate = gate or ElicitationGate()

    def admit_many(self, count: int) -> tuple[int, Decision | None]:
        return self.gate.arrive_many(count)

    @contextmanager
    def admitted(self) -> Iterator[None]:
        try:
            yield
        finally:
            self.gate.release()


class TaskParams(types.RequestParams):
    task_id: str


class UpdateParams(TaskParams):
    input_responses: dict[str, types.InputResponse]


class UpdateTask(types.Request[UpdateParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    name_param = "taskId"


class Acknowledged(types.Result):
    """The empty answer of ``tasks/update`` and ``tasks/cancel`` (anything is accepted)."""


class TaskInputs:
    """The input requests of one followed task (see the module docstring)."""

    def __init__(
        self,
        session: ClientSession,
        task_id: str,
        *,
        named: str,
        admission: Admission,
        forms: TaskGroup,
        notice: Callable[[str, str], None],
        stop: Callable[[Exception], None],
    ) -> None:
        self.session = session
        self.task_id = task_id
        #: "task X of TOOL", as notices name it.
        self.named = named
        self.admission = admission
        self.forms = forms
        self._notice = notice
        self._stop = stop
        #: Keys asked or answered already (only those the latest poll still listed).
        self.seen: set[str] = set()
        #: The forms still open, by key.
        self.open: dict[str, anyio.CancelScope] = {}
        #: Answers not sent yet, in the order given.
        self.outbox: dict[str, Any] = {}
        self._sending = False
        #: Requests answered ``cancel`` without asking (tests and the benchmark read it).
        self.refused = 0

    async def listed(self, outstanding: Any) -> None:
        """One poll's ``inputRequests`` (generous: anything not an object lists nothing)."""
        requests: dict[str, Any] = outstanding if isinstance(outstanding, dict) else {}
        for key in [k for k in self.open if k not in requests]:
            self.open[key].cancel()  # the server no longer asks it
        self.seen.intersection_update(requests)  # what the server no longer lists is done
        new: list[str] = []
        keys = iter(requests)
        while chunk := list(islice(keys, SLICE)):
            new += [k for k in chunk if k not in self.seen]
            await anyio.lowlevel.checkpoint()
        if not new:
            return
        admitted, refusal = self.admission.admit_many(len(new))
        self.seen.update(new)
        for key in new[:admitted]:
            self.forms.start_soon(self._answer, key, requests[key])
        if admitted < len(new):
            await self._refuse(new[admitted:], requests, admitted, refusal)

    async def _refuse(
        self, keys: list[str], requests: dict[str, Any], asked: int, why: Decision | None
    ) -> None:
        """``cancel`` for each of ``keys`` (no one was asked); one notice, the first time."""
        answers: dict[str, Any] = {}
        for start in range(0, len(keys), SLICE):
            for key in keys[start : start + SLICE]:
                entry = requests[key]
                if not (isinstance(entry, dict) and entry.get("method") == "elicitation/create"):
                    self._stop(
                        MCPError(
                            -32603,
                            f"{self.named} asks for more than mcp-tui lets reach you at once, "
                            f"including {_kind(entry)}, which cannot be declined without asking "
                            "you: the call was ended",
                        )
                    )
                    return
                answers[key] = CANCELLED
            await anyio.lowlevel.checkpoint()
        if not self.refused:
            self._notice(_refusal_notice(self.named, asked, len(keys), why), "warning")
        self.refused += len(keys)
        self._post(answers)

    async def _answer(self, key: str, entry: Any) -> None:
        """Ask the person (the connection's callbacks); the answer joins the outbox."""
        with self.admission.admitted():
            try:
                request = _INPUT_REQUEST.validate_python(entry)
            except ValidationError as exc:
                self._notice(
                    f"{self.named} asks for something mcp-tui cannot answer "
                    f"({one_line(repr(key), limit=60)}, {_kind(entry)}): "
                    f"{exc.error_count()} problem(s); cancel the call if the task waits for it",
                    "warning",
                )
                return
            context = ClientRequestContext(
                session=self.session,
                request_id=key,
                meta=cast(types.RequestParamsMeta, {RELATED_TASK_KEY: {"taskId": self.task_id}}),
            )
            with anyio.CancelScope() as scope:
                self.open[key] = scope
                try:
                    response = await self.session.dispatch_input_request(context, request)
                finally:
                    self.open.pop(key, None)
        if scope.cancelled_caught:
            return  # withdrawn by the server, or the task ended
        if isinstance(response, types.ErrorData):
            self._stop(MCPError(response.code, response.message, response.data))
            return
        self._post({key: response})

    def _post(self, answers: dict[str, Any]) -> None:
        self.outbox.update(answers)
        if not self._sending:
            self._sending = True
            self.forms.start_soon(self._flush)

    async def _flush(self) -> None:
        """Send the outbox: what was answered in the same turn goes in one ``tasks/update``."""
        try:
            await anyio.lowlevel.checkpoint()
            while self.outbox:
                batch = dict(islice(self.outbox.items(), MAX_ANSWERS_PER_UPDATE))
                for key in batch:
                    del self.outbox[key]
                params = UpdateParams.model_construct(task_id=self.task_id, input_responses=batch)
                try:
                    await self.session.send_request(UpdateTask(params=params), Acknowledged)
                except MCPError as exc:
                    self._stop(
                        MCPError(exc.code, f"tasks/update for {self.named} failed: {exc.message}")
                    )
                    return
        finally:
            self._sending = False


def _kind(entry: Any) -> str:
    method = entry.get("method") if isinstance(entry, dict) else None
    return one_line(str(method), limit=60)


def _refusal_notice(named: str, asked: int, refused: int, why: Decision | None) -> str:
    if why is not None and why.notice:
        reason = why.notice
    elif why is not None and why.verdict is Verdict.QUEUE_FULL:
        reason = "this server's requests already waiting for you fill the queue"
    else:
        reason = "asking is off for this server"
    shown = f"{asked} reach you, " if asked else ""
    return (
        f"{named} asks {asked + refused:,} questions at once: {shown}{refused:,} were answered "
        f"cancel without asking you. Why: {reason}"
    )
