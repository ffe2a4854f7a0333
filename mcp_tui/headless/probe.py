"""One call on a live connection, watched: the outcome, every request it made and how it was
answered, every method mcp-tui sent, and the time it took, as an
:class:`~mcp_tui.testbench.observed.Observed`.

Shared by ``mcp-tui test`` (``testrun.py``) and the Python API (``mcp_tui.testing``). A connection
(``engine.HeadlessServer``) outlives its calls (one server process for all the cases of a file),
so the connection's handler and event sink are a :class:`Probe` whose current answerer and records
are swapped per call. The
answerer is the same :class:`~mcp_tui.headless.elicit.ScriptedHandler` as ``mcp-tui call
--answers`` (a case's answers are answers-file entries), or the Python API's function.
"""

from __future__ import annotations

import io
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import anyio

from mcp_tui.config.answers import AnswerEntry, AnswerScript, ScriptedAnswer
from mcp_tui.headless.elicit import ElicitPolicy, SamplingRefusal, ScriptedHandler
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import CallOutcome, SessionEvent, TrafficRecorded
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.testbench.model import Outcome
from mcp_tui.testbench.observed import (
    Observed,
    Offered,
    SeenElicitation,
    SeenSampling,
    outcome_of,
    text_of,
)

if TYPE_CHECKING:
    from pathlib import Path

    from mcp_tui.headless.engine import HeadlessServer
    from mcp_tui.session.connection import ServerConnection


class Answerer(Protocol):
    """What answers one call's requests (a :class:`ScriptedHandler`, or the API's function)."""

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome: ...

    async def sample(self, request: SamplingRequest) -> SamplingOutcome: ...


def scripted_answerer(
    path: Path,
    tool: str,
    entries: list[AnswerEntry],
    lines: list[int | None],
    policy: ElicitPolicy = "cancel",
    sampling: SamplingRefusal = "decline",
) -> ScriptedHandler:
    """The answers-file engine of ``mcp-tui call`` on a case's ``answers``; it reports each
    request and answer into a buffer (``transcript``) instead of stderr."""
    answers = tuple(ScriptedAnswer(e, i, lines[i]) for i, e in enumerate(entries))
    script = AnswerScript(path, answers) if answers else None
    return ScriptedHandler(
        io.StringIO(), tool, answers=script, policy=policy, sampling_policy=sampling
    )


class Probe:
    """The handler and event sink of a connection that runs calls one after the other."""

    def __init__(self) -> None:
        self.answerer: Answerer | None = None
        self.elicitations: list[SeenElicitation] = []
        self.sampling: list[SeenSampling] = []
        self.sent: list[str] = []

    # ---- the connection's handler -------------------------------------------------------------

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        if self.answerer is None:
            outcome = ElicitationOutcome.cancel("no call is running")
        else:
            outcome = await self.answerer.elicit(request)
        self.elicitations.append(
            SeenElicitation(
                mode=request.mode,
                message=request.message,
                schema=dict(request.form.schema) if request.form is not None else None,
                url=request.url,
                action=outcome.action,
                content=dict(outcome.content) if outcome.content is not None else None,
                app_ui=request.app_ui,
                request_key=request.request_key,
            )
        )
        return outcome

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        if self.answerer is None:
            outcome = SamplingOutcome.cancel("no call is running")
        else:
            outcome = await self.answerer.sample(request)
        self.sampling.append(
            SeenSampling(
                message=request.message,
                system_prompt=request.system_prompt,
                max_tokens=request.max_tokens,
                action=outcome.action,
                text=outcome.text if outcome.action == "accept" else None,
                request_key=request.request_key,
            )
        )
        return outcome

    # ---- the connection's sink ----------------------------------------------------------------

    def sink(self, event: SessionEvent) -> None:
        if isinstance(event, TrafficRecorded) and event.direction == "out":
            method = event.method
            if method is not None:
                self.sent.append(method)

    # ---- one call -----------------------------------------------------------------------------

    async def observe(
        self,
        server: HeadlessServer,
        call: Callable[[], Awaitable[CallOutcome]],
        answerer: Answerer,
        timeout: float | None,
    ) -> Observed:
        """Run ``call`` with ``answerer`` answering its requests on ``server``'s connection; what
        it did. A call that ended with the connection (``engine.ended_with_connection``) gets the
        next one a fresh connection."""
        conn = server.conn
        self.answerer = answerer
        self.elicitations, self.sampling, self.sent = [], [], []
        outcome: CallOutcome | None = None
        started = time.perf_counter()
        with anyio.move_on_after(timeout) as timer:
            with anyio.CancelScope() as call_scope:
                if isinstance(answerer, ScriptedHandler):
                    answerer.on_failure = call_scope.cancel
                outcome = await call()
        seconds = time.perf_counter() - started
        # A cancelled call's notifications/cancelled is sent as the call's task unwinds: let the
        # tap see it before the record is closed.
        for _ in range(3):
            await anyio.lowlevel.checkpoint()
        self.answerer = None
        problem = answerer.failure if isinstance(answerer, ScriptedHandler) else None
        transcript = (
            answerer.err.getvalue()
            if isinstance(answerer, ScriptedHandler) and isinstance(answerer.err, io.StringIO)
            else ""
        )
        kind: Outcome
        if problem is not None:
            kind = "answer_refused"
        elif timer.cancelled_caught:
            kind = "timeout"
        elif outcome is None:
            kind = "connection_lost"
        else:
            ended = server.ended(outcome)
            kind = outcome_of(ended=ended, error=outcome.error, is_error=outcome.is_error)
        error = None
        if kind == "timeout":
            error = f"no answer within {timeout:g} s: the call was cancelled"
        elif kind == "connection_lost":
            error = conn.detail or (outcome.error if outcome else None) or conn.state.value
        elif outcome is not None:
            error = outcome.error
        return Observed(
            outcome=kind,
            text=text_of(outcome) if outcome is not None else "",
            structured=outcome.structured if outcome is not None else None,
            has_structured=outcome is not None and outcome.structured is not None,
            error=error,
            error_code=outcome.error_code if outcome is not None and kind == "error" else None,
            elicitations=tuple(self.elicitations),
            sampling=tuple(self.sampling),
            sent=tuple(self.sent),
            seconds=seconds,
            protocol_version=conn.info.protocol_version if conn.info else None,
            needs_era=outcome.needs_era if outcome is not None else None,
            answer_problem=problem,
            transcript=transcript,
            offered=self.offered(conn),
        )

    _offered: tuple[tuple[object, ...], Offered] | None = None

    def offered(self, conn: ServerConnection) -> Offered:
        """What the connection's catalog lists now (``--coverage``), made once per listing."""
        listing = (conn.info, conn.tools, conn.prompts, conn.resources)
        if self._offered is not None and all(
            a is b for a, b in zip(self._offered[0], listing, strict=True)
        ):
            return self._offered[1]
        info = conn.info
        offered = Offered(
            server=(info.name if info and info.name else None) or conn.name.rsplit("@", 1)[0],
            tools=tuple(t.name for t in conn.tools),
            structured_tools=tuple(t.name for t in conn.tools if t.output_schema is not None),
            prompts=tuple(p.name for p in conn.prompts),
            resources=tuple(r.uri for r in conn.resources if not r.template),
            templates=tuple(r.uri for r in conn.resources if r.template),
        )
        self._offered = (listing, offered)
        return offered


def call_for(
    conn: ServerConnection, kind: str, target: str, arguments: dict[str, Any], as_task: bool = False
) -> Callable[[], Awaitable[CallOutcome]]:
    """The session request a case makes: a tool call, a prompt get or a resource read."""
    if kind == "tool":
        return lambda: conn.call_tool(target, arguments, as_task=as_task or None)
    if kind == "prompt":
        return lambda: conn.get_prompt(target, {k: str(v) for k, v in arguments.items()})
    return lambda: conn.read_resource(target)
