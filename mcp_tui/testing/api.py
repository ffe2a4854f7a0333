"""A small Python API for server tests written in Python rather than in a test file.

    from mcp_tui.testing import accept, connect

    def test_booking():
        with connect(command=["python", "-m", "my_server"], era="2025-11-25") as server:
            result = server.call_tool(
                "book_table",
                answer=lambda request: {"date": "2031-05-17", "party_size": 4}
                if "step 1" in request.message
                else accept(),
            )
        assert result.outcome == "ok", result.error
        assert "Booked" in result.text
        assert len(result.elicitations) == 3

It is synchronous (an event loop runs in a thread of its own, so any test can use it, with no
async plugin), and it is ``mcp-tui test`` underneath: the same connection, the same answers engine
(an answer the function gives is validated against the requested schema, completed with its
defaults, and never sent when it does not fit), the same :class:`Observed` record, which
``expect(...)`` checks like a case's ``expect`` table. The pytest plugin (``plugin.py``) gives it
as the ``mcp_connect`` fixture, which closes every server a test opened.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from anyio.from_thread import BlockingPortal, start_blocking_portal

from mcp_tui.config.answers import AnswerEntry, AnswerScript, ScriptedAnswer
from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.errors import ConnectionFailed
from mcp_tui.headless.elicit import ScriptedHandler
from mcp_tui.headless.engine import MODE_OF_ERA
from mcp_tui.headless.probe import call_for, scripted_answerer
from mcp_tui.headless.testrun import Session
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.testbench.compare import Failure, check, diff_text
from mcp_tui.testbench.model import Era, Expect
from mcp_tui.testbench.observed import Observed

__all__ = [
    "AnswerFn",
    "McpServer",
    "Request",
    "accept",
    "cancel",
    "connect",
    "decline",
    "reply",
]


@dataclass(frozen=True)
class Request:
    """A request the server made, as the answer function sees it (all of it the server's text)."""

    #: ``form``, ``url`` or ``sampling``.
    mode: Literal["form", "url", "sampling"]
    #: The message (form, URL) or the last message's text (sampling).
    message: str
    #: The requestedSchema exactly as received (form mode).
    schema: dict[str, Any] | None = None
    url: str | None = None
    system_prompt: str | None = None


#: What an answer function returns: an answer (``accept(...)``, ``decline()``, ``cancel()``,
#: ``reply(...)``), a dict (accept with that content), a string (sampling: the reply's text; a
#: form or URL request: "accept", "decline" or "cancel"), or ``None`` (the policy: cancel forms,
#: decline URL requests and sampling).
AnswerFn = Callable[[Request], "AnswerEntry | Mapping[str, Any] | str | None"]


def accept(content: Mapping[str, Any] | None = None) -> AnswerEntry:
    """Accept a form (``content``: the fields to send; the rest take their defaults) or a URL
    request (consent only: nothing is opened)."""
    return AnswerEntry(action="accept", content=dict(content) if content is not None else None)


def decline() -> AnswerEntry:
    return AnswerEntry(action="decline")


def cancel() -> AnswerEntry:
    return AnswerEntry(action="cancel")


def reply(text: str, *, model: str = "human", stop_reason: str = "endTurn") -> AnswerEntry:
    """A sampling reply."""
    return AnswerEntry.model_validate(
        {"sampling": {"text": text, "model": model, "stopReason": stop_reason}}
    )


class _FunctionAnswerer:
    """Answers each request with the function's answer, through the answers-file engine."""

    def __init__(self, fn: AnswerFn, tool: str) -> None:
        self.fn = fn
        self.handler = scripted_answerer(Path("<answer function>"), tool, [], [])

    def _script(self, request: Request) -> AnswerScript | None:
        given = self.fn(request)
        if given is None:
            return None
        if isinstance(given, AnswerEntry):
            entry = given
        elif isinstance(given, str):
            if request.mode == "sampling":
                entry = reply(given)
            else:
                entry = AnswerEntry.model_validate({"action": given})
        else:
            entry = accept(given)
        if request.mode == "sampling" and entry.sampling is None:
            entry = entry.model_copy(update={"mode": "sampling"})
        elif request.mode == "url" and entry.mode is None:
            entry = entry.model_copy(update={"mode": "url"})
        return AnswerScript(Path("<answer function>"), (ScriptedAnswer(entry, 0),))

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        seen = Request(
            request.mode,
            request.message,
            dict(request.form.schema) if request.form is not None else None,
            request.url,
        )
        self.handler.answers = self._script(seen)
        return await self.handler.elicit(request)

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        seen = Request("sampling", request.message, system_prompt=request.system_prompt)
        self.handler.answers = self._script(seen)
        return await self.handler.sample(request)

    @property
    def failure(self) -> str | None:
        return self.handler.failure


class McpServer:
    """One connected server; its calls run one after the other on the same connection."""

    def __init__(self, portal: BlockingPortal, session: Session) -> None:
        self._portal = portal
        self._session = session

    @property
    def protocol_version(self) -> str | None:
        info = self._session.server.conn.info
        return info.protocol_version if info else None

    @property
    def tools(self) -> list[str]:
        return [t.name for t in self._session.server.conn.tools]

    def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        answer: AnswerFn | None = None,
        answers: Sequence[Mapping[str, Any]] = (),
        timeout: float | None = 30.0,
    ) -> Observed:
        """Call a tool; ``answer`` (a function) or ``answers`` (answers-file entries) answer
        its elicitation and sampling requests."""
        return self._run("tool", name, dict(arguments or {}), answer, answers, timeout)

    def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None, *, timeout: float = 30.0
    ) -> Observed:
        return self._run("prompt", name, dict(arguments or {}), None, (), timeout)

    def read_resource(self, uri: str, *, timeout: float = 30.0) -> Observed:
        return self._run("resource", uri, {}, None, (), timeout)

    def _run(
        self,
        kind: str,
        target: str,
        arguments: dict[str, Any],
        answer: AnswerFn | None,
        answers: Sequence[Mapping[str, Any]],
        timeout: float | None,
    ) -> Observed:
        tool = target if kind == "tool" else ""
        answerer: ScriptedHandler | _FunctionAnswerer
        if answer is not None:
            answerer = _FunctionAnswerer(answer, tool)
        else:
            entries = [AnswerEntry.model_validate(dict(a)) for a in answers]
            answerer = scripted_answerer(Path("<answers>"), tool, entries, [None] * len(entries))
        server = self._session.server
        call = call_for(server.conn, kind, target, arguments)
        observed: Observed = self._portal.call(
            self._session.probe.observe, server, call, answerer, timeout
        )
        if isinstance(answerer, _FunctionAnswerer) and answerer.failure is not None:
            from dataclasses import replace

            observed = replace(observed, outcome="answer_refused", answer_problem=answerer.failure)
        return observed


def expect(observed: Observed, **expectations: Any) -> None:
    """Check a result like a case's ``expect`` table (``outcome="ok"``, ``text_contains=...``,
    ``pointers={...}``...); ``AssertionError`` listing every difference with its diff."""
    failures = check(Expect.model_validate(expectations), observed)
    if failures:
        raise AssertionError(_explain(failures))


def _explain(failures: list[Failure]) -> str:
    lines: list[str] = []
    for f in failures:
        lines.append(f"- {f.summary}")
        lines += [f"    {d}" for d in diff_text(f.expected, f.got, diffable=f.diffable)]
    return "\n".join(lines)


def server_spec_for(
    *,
    command: Sequence[str] | None = None,
    url: str | None = None,
    demo: bool = False,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    headers: Mapping[str, str] | None = None,
    era: Era = "auto",
) -> ServerSpec:
    given = [w for w, v in (("command", command), ("url", url), ("demo", demo)) if v]
    if len(given) != 1:
        raise ValueError("connect() takes exactly one of command=, url= or demo=True")
    mode = MODE_OF_ERA[era]
    if demo:
        from mcp_tui.demo.server import demo_stdio_command, demo_stdio_env

        argv = list(demo_stdio_command())
        target: StdioTarget | HttpTarget = StdioTarget(
            argv[0], tuple(argv[1:]), env=dict(demo_stdio_env())
        )
        return ServerSpec("demo", target, mode=mode)
    if command:
        target = StdioTarget(
            command[0],
            tuple(command[1:]),
            env=dict(env or {}),
            cwd=str(cwd) if cwd is not None else None,
            inherit_env=True,
        )
        return ServerSpec(Path(command[-1]).name or "server", target, mode=mode)
    assert url is not None
    return ServerSpec("server", HttpTarget(url, headers=dict(headers or {})), mode=mode)


@contextlib.contextmanager
def connect(
    *,
    command: Sequence[str] | None = None,
    url: str | None = None,
    demo: bool = False,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    headers: Mapping[str, str] | None = None,
    era: Era = "auto",
    connect_timeout: float = 30.0,
) -> Iterator[McpServer]:
    """Start (stdio) or reach (HTTP) a server and connect on ``era``; closed on the way out.
    :class:`~mcp_tui.errors.ConnectionFailed` when it cannot be reached (with its stderr)."""
    spec = server_spec_for(
        command=command, url=url, demo=demo, env=env, cwd=cwd, headers=headers, era=era
    )
    with start_blocking_portal() as portal:
        session = Session(spec, connect_timeout)
        with portal.wrap_async_context_manager(session.server):
            why = portal.call(session.start)
            if why is not None:
                raise ConnectionFailed(f"cannot connect to {spec.name}: {why}")
            yield McpServer(portal, session)
