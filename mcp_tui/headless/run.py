"""``mcp-tui call`` and ``mcp-tui list``: one server, no terminal UI, an exit code for CI.

Both open their server with the headless engine (``engine.py``: the same session code as the
TUI) inside ``anyio.run``. Results go to stdout — text, or with ``--json`` the exact result as it
came over the wire — and everything else to stderr: each elicitation and the answer given
(``elicit.py``), notices, and unless ``--quiet`` the server's stderr and log messages.
Server text is escaped before it is printed, and JSON output is pure ASCII, so nothing a server
sends can drive the terminal.

``call`` sends ``tools/call`` only after the catalog's first listing is in: the SDK mirrors a
tool's ``x-mcp-header`` arguments into ``Mcp-Param-*`` HTTP headers only for tools listed earlier
in the session, so a call that races the listing goes without them. A tool the server did not list
is still called (servers may hide tools, and a 2026-07-28 client drops tools with invalid header
annotations from the listing), with a warning on stderr.

Library logging (the SDK's own warnings) goes through ``process.logs.headless_logging``: one
escaped, prefixed line per warning on stderr, nothing with ``--quiet``.

Exit codes (``errors.py``; ``cli/args.py`` documents them in ``--help``): 0 success; 1 the call
failed (``isError`` or a JSON-RPC error); 3 the server could not be reached or the connection was
lost, or the run timed out; 4 an elicitation could not be answered validly.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import anyio

from mcp_tui.config.answers import AnswerScript
from mcp_tui.config.servers import ServerSpec
from mcp_tui.errors import EXIT_CONNECTION, EXIT_ELICITATION, EXIT_OK, EXIT_TOOL_ERROR
from mcp_tui.headless import engine
from mcp_tui.headless.elicit import ElicitPolicy, SamplingRefusal, ScriptedHandler
from mcp_tui.headless.engine import HeadlessServer, traffic_log
from mcp_tui.headless.output import print_catalog, print_outcome
from mcp_tui.process.logs import headless_logging
from mcp_tui.session.elicitation import CancelAll
from mcp_tui.session.era import is_modern
from mcp_tui.session.events import (
    ElicitationRefused,
    LogReceived,
    Notice,
    ServerStateChanged,
    SessionEvent,
    StderrReceived,
    TrafficRecorded,
)
from mcp_tui.session.naming import announced_name
from mcp_tui.session.server_exit import stderr_summary
from mcp_tui.untrusted import one_line, visible

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from mcp_tui.session.elicitation import ElicitationHandler
    from mcp_tui.session.traffic import TrafficLog


@dataclass(frozen=True)
class HeadlessOptions:
    """Options shared by ``call`` and ``list``."""

    json_output: bool = False
    traffic_log: Path | None = None
    #: Give up after this many seconds for the whole run (exit 3).
    timeout: float | None = None
    #: Do not copy server stderr and log messages to our stderr.
    quiet: bool = False
    #: The server log messages asked for (``--log-level``): this level and up.
    log_level: str = "debug"


#: The request each verb sends (``call``, ``read``, ``get``).
VERB_METHODS = {"call": "tools/call", "read": "resources/read", "get": "prompts/get"}


@dataclass(frozen=True)
class CallPlan:
    """``mcp-tui call TOOL`` (or ``read URI``, ``get PROMPT``): what to send and how to answer
    elicitations."""

    #: The tool's name (``read``: the resource's URI; ``get``: the prompt's name).
    tool: str
    arguments: dict[str, Any]
    answers: AnswerScript | None = None
    policy: ElicitPolicy = "cancel"
    sampling: SamplingRefusal = "decline"
    #: ``--task``: an optional-task tool is called as a task (required ones always are).
    as_task: bool = False
    #: ``call`` a tool, ``read`` a resource or ``get`` a prompt.
    verb: str = "call"

    def failed(self) -> str:
        """How a failure of this request starts on stderr."""
        name = one_line(self.tool)
        if self.verb == "read":
            return f"reading {name} failed"
        if self.verb == "get":
            return f"getting the prompt {name} failed"
        return "the call failed"


def run_call(
    spec: ServerSpec,
    plan: CallPlan,
    options: HeadlessOptions,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Connect, call the tool, print the result; returns the exit code."""
    return anyio.run(call_async, spec, plan, options, out or sys.stdout, err or sys.stderr)


def run_list(
    spec: ServerSpec,
    options: HeadlessOptions,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Connect, print tools, prompts and resources; returns the exit code."""
    return anyio.run(list_async, spec, options, out or sys.stdout, err or sys.stderr)


class RunEvents:
    """The event sink of a headless run: the server's stderr and log lines, notices and refused
    forms on stderr, and the raw response ``--json`` prints. Shared by ``call``, ``list`` and
    ``check`` (which adds what it gathers)."""

    def __init__(
        self, err: TextIO, quiet: bool, method: str = "tools/call", generic_name: bool = False
    ) -> None:
        self.err = err
        #: The server's name is generic (``python server.py``): once it announces its own in
        #: ``serverInfo`` its lines are prefixed with that (``session/naming.py``).
        self._generic_name = generic_name
        self._shown: dict[str, str] = {}
        #: The request whose raw response ``--json`` prints.
        self.method = method
        self.quiet = quiet
        self.refused: list[str] = []
        self._call_ids: set[Any] = set()
        #: The last response to ``method`` as it came over the wire (for ``--json``).
        self.raw_result: dict[str, Any] | None = None

    def say(self, text: str) -> None:
        print(f"mcp-tui: {text}", file=self.err, flush=True)

    def shown(self, server: str) -> str:
        """The name ``server`` (its key) is shown by: the announced one, once adopted."""
        return self._shown.get(server, server)

    def sink(self, event: SessionEvent) -> None:
        if isinstance(event, TrafficRecorded):
            self._traffic(event)
        elif isinstance(event, ServerStateChanged):
            if self._generic_name and event.info is not None:
                announced = announced_name(event.info.name, event.server, ())
                self._shown[event.server] = announced or event.server
        elif isinstance(event, StderrReceived):
            if not self.quiet:
                print(
                    f"[{self.shown(event.server)} stderr] {visible(event.line)}",
                    file=self.err,
                    flush=True,
                )
        elif isinstance(event, LogReceived):
            if not self.quiet:
                data = event.data if isinstance(event.data, str) else json.dumps(event.data)
                who = f" {one_line(event.logger)}" if event.logger else ""
                print(
                    f"[{self.shown(event.server)} log {event.level}{who}] {visible(data)}",
                    file=self.err,
                )
        elif isinstance(event, ElicitationRefused):
            problems = "; ".join(event.problems)
            self.refused.append(problems)
            why = "a URL request" if event.mode == "url" else "the schema cannot be shown as a form"
            self.say(
                f"elicitation refused, {why}: "
                f"{_quote(event.message)}: {one_line(problems, limit=1000)}"
            )
        elif isinstance(event, Notice):
            self.say(f"{event.severity}: {one_line(event.text, limit=1000)}")

    async def first_listing(self, server: HeadlessServer) -> bool:
        """Wait for the catalog's first listing (at most ``engine.CATALOG_WAIT`` s), warning
        when it did not come; ``False`` when the connection ended first."""
        ready = await server.first_listing()
        if not server.listed and ready:
            wait = engine.CATALOG_WAIT
            self.say(f"warning: the server listed nothing within {wait:g} s; going on")
        return ready

    def _traffic(self, event: TrafficRecorded) -> None:
        # ``method`` and ``id`` are read without dumping the message (most are never dumped).
        method = event.method
        if event.direction == "out" and method == self.method:
            self._call_ids.add(event.id)
        elif event.direction == "in" and method is None and event.id in self._call_ids:
            result = event.message.get("result")
            if isinstance(result, dict):
                self.raw_result = result


@contextmanager
def reader_may_leave(out: TextIO) -> Iterator[None]:
    """``mcp-tui list | head``: when the reader goes away, stop printing but keep the exit code.

    The rest of stdout goes to the null device, so Python's final flush cannot fail either.
    """
    try:
        yield
        out.flush()
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, out.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass


def _quote(text: str) -> str:
    """Server text in quotes, on one line, every unsafe character escaped."""
    return f'"{one_line(text, limit=300)}"'


async def connected(
    spec: ServerSpec,
    options: HeadlessOptions,
    events: RunEvents,
    handler: ElicitationHandler,
    body: Callable[[HeadlessServer], Awaitable[int]],
    traffic: TrafficLog | None = None,
) -> int:
    """Run ``body(server)`` on a ready connection within ``--timeout``; always close it. The
    traffic log is ``traffic`` (a run's shared one) or ``--log``'s own."""
    with (
        traffic_log(None if traffic else options.traffic_log, events.say) as own,
        headless_logging(events.err, options.quiet),
    ):
        server = HeadlessServer(
            spec,
            handler=handler,
            sink=events.sink,
            traffic=traffic or own,
            log_level=options.log_level,
        )
        async with server:
            return await _serve(server, options, events, body)


async def _serve(
    server: HeadlessServer,
    options: HeadlessOptions,
    events: RunEvents,
    body: Callable[[HeadlessServer], Awaitable[int]],
) -> int:
    code = EXIT_CONNECTION
    with anyio.move_on_after(options.timeout) as scope:
        why = await server.connect()
        if why is None:
            code = int(await body(server))
        else:
            events.say(f"cannot connect to {server.spec.name}: {why}")
    if scope.cancelled_caught:
        events.say(f"gave up after {options.timeout:g} s (--timeout)")
        code = EXIT_CONNECTION
    return code


def _lost(events: RunEvents, server: HeadlessServer) -> int:
    conn = server.conn
    why = conn.detail or conn.state.value
    events.say(f"the connection to {events.shown(conn.name)} was lost: {why}")
    return EXIT_CONNECTION


async def call_async(
    spec: ServerSpec, plan: CallPlan, options: HeadlessOptions, out: TextIO, err: TextIO
) -> int:
    run = RunEvents(err, options.quiet, VERB_METHODS[plan.verb], spec.name_is_generic)
    handler = ScriptedHandler(
        err,
        plan.tool if plan.verb == "call" else None,
        answers=plan.answers,
        policy=plan.policy,
        sampling_policy=plan.sampling,
    )

    async def body(server: HeadlessServer) -> int:
        conn = server.conn
        if not await run.first_listing(server):
            return _lost(run, server)
        _warn_unlisted(run, server, plan)
        await anyio.sleep(conn.roots_settle_left())  # let the server apply roots it asked for
        with anyio.CancelScope() as call_scope:
            handler.on_failure = call_scope.cancel
            if plan.verb == "read":
                outcome = await conn.read_resource(plan.tool)
            elif plan.verb == "get":
                outcome = await conn.get_prompt(plan.tool, plan.arguments)
            else:
                outcome = await conn.call_tool(plan.tool, plan.arguments, as_task=plan.as_task)
        if handler.failure is not None:
            run.say(f"stopped: {handler.failure}")
            return EXIT_ELICITATION
        if call_scope.cancelled_caught:  # pragma: no cover - only on_failure cancels it
            return EXIT_ELICITATION
        if server.ended(outcome):  # not an answer: the server crashed or went away
            if outcome.connection_lost or server.ready:
                run.say(f"{one_line(outcome.error or 'the connection was lost', limit=2000)}")
                return EXIT_CONNECTION
            return _lost(run, server)
        if outcome.stderr:  # the wrapper's words are on stdout; the cause is on stderr
            said = one_line(stderr_summary(outcome.stderr), limit=2000)
            run.say(f"the server wrote to its stderr during the call: {said}")
        with reader_may_leave(out):
            print_outcome(
                outcome,
                run.raw_result,
                out,
                run.say,
                json_output=options.json_output,
                failed=plan.failed(),
            )
        if run.refused:
            return EXIT_ELICITATION
        if outcome.error is not None or outcome.is_error:
            return EXIT_TOOL_ERROR
        return EXIT_OK

    code = await connected(spec, options, run, handler, body)
    if plan.answers is not None and code == EXIT_OK:
        for unused in plan.answers.unused:
            run.say(f"note: {unused.where()} of {plan.answers.path} was not used")
    return code


def _warn_unlisted(run: RunEvents, server: HeadlessServer, plan: CallPlan) -> None:
    """A tool or prompt the server did not list is still asked for, with a warning (resources
    are not checked: a template's URI is never listed as such)."""
    conn = server.conn
    name = f"'{one_line(plan.tool)}'"
    if plan.verb == "call" and plan.as_task and conn.info and is_modern(conn.info.protocol_version):
        run.say("note: --task changes nothing on 2026-07-28, where the server decides")
    if plan.verb == "call":
        if not server.tools_listed:
            run.say(f"warning: calling {name} without a tools listing from the server")
        elif all(t.name != plan.tool for t in conn.tools):
            run.say(f"warning: the server did not list a tool named {name}; calling it anyway")
    elif plan.verb == "get" and server.listed and all(p.name != plan.tool for p in conn.prompts):
        run.say(f"warning: the server did not list a prompt named {name}; asking for it anyway")


async def list_async(spec: ServerSpec, options: HeadlessOptions, out: TextIO, err: TextIO) -> int:
    run = RunEvents(err, options.quiet, generic_name=spec.name_is_generic)
    handler = CancelAll(note="`mcp-tui list` answers no elicitation requests")

    async def body(server: HeadlessServer) -> int:
        if not await run.first_listing(server):
            return _lost(run, server)
        with reader_may_leave(out):
            print_catalog(server.conn, out, json_output=options.json_output)
        return EXIT_OK

    return await connected(spec, options, run, handler, body)
