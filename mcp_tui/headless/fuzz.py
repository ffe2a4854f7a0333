"""``check --fuzz N``: call the tools an author names (or read-only ones) with generated arguments.

Only tools named with ``--tool`` or annotated ``readOnlyHint: true`` are ever called: a fuzzed
call can delete data. For each, hypothesis draws N valid argument sets from the ``inputSchema``
(``check/fuzz_values.py``) and N just-invalid ones, and each call is judged: the server crashed
(the connection ended), hung past ``--timeout``, answered a valid input with a JSON-RPC error
(a tool's own ``isError`` is its right), or accepted an invalid input. A failure is shrunk by
hypothesis to the smallest arguments that still fail, which re-runs the call. The server is opened
by the headless engine (``engine.py``), as ``call`` and ``test`` open theirs: a call crashed it
when its connection ended (the engine's one rule: a -32000 the server sends on a live connection
is its answer), the server is then started again for the next call (:class:`Supervisor`), and
every call is in ``--log``. Each search returns what it found and how many calls it made, so the
report can end with a line per fuzzed tool.

Hypothesis drives a plain function, so its search runs in a worker thread and each call comes
back to the event loop with ``anyio.from_thread.run``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

import anyio

from mcp_tui.config.servers import ServerSpec
from mcp_tui.errors import UsageError
from mcp_tui.headless.engine import HeadlessServer
from mcp_tui.session.elicitation import CancelAll
from mcp_tui.session.events import CallOutcome

if TYPE_CHECKING:
    from mcp_tui.session.traffic import TrafficLog

#: JSON-RPC error codes that mean "the protocol failed", not "the tool said no" (-32042 asks for
#: a URL flow: a valid answer).
_NOT_PROTOCOL_FAILURES = (-32042,)


@dataclass(frozen=True)
class FuzzPlan:
    examples: int
    #: The tools named with ``--tool``; empty: every tool annotated ``readOnlyHint: true``.
    tools: tuple[str, ...] = ()
    #: Seconds one call may take before it counts as hung.
    timeout: float = 10.0


def chosen_tools(
    listed: list[dict[str, Any]], plan: FuzzPlan
) -> tuple[list[dict[str, Any]], list[str]]:
    """The tools to fuzz, and a note for each one skipped or named but not listed."""
    from mcp_tui.check.fuzz_values import fuzzable

    notes: list[str] = []
    by_name = {t.get("name"): t for t in listed}
    if plan.tools:
        picked = []
        for name in plan.tools:
            if name in by_name:
                picked.append(by_name[name])
            else:
                notes.append(f"--tool {name}: the server lists no such tool; not fuzzed")
    else:
        picked = [t for t in listed if _read_only(t)]
        if not picked:
            notes.append(
                "no tool is annotated readOnlyHint: true and none was named with --tool: "
                "nothing was fuzzed (a fuzzed call can change data, so mcp-tui asks you to name it)"
            )
    usable = []
    for tool in picked:
        why = fuzzable(tool.get("inputSchema"))
        if why is None:
            usable.append(tool)
        else:
            notes.append(f"{tool.get('name')}: not fuzzed, {why}")
    return usable, notes


def _read_only(tool: dict[str, Any]) -> bool:
    annotations = tool.get("annotations")
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is True


class Supervisor:
    """The fuzzed server, opened by the headless engine: the connection a call crashed is
    started again for the next call, and every call is in ``--log``."""

    def __init__(self, server: HeadlessServer) -> None:
        self.server = server

    async def call(
        self, tool: str, arguments: dict[str, Any], timeout: float
    ) -> tuple[str, str] | CallOutcome:
        """The outcome, or (``crash``/``hang``, what was seen)."""
        server = self.server
        if not server.ready:
            why = await server.connect()
            if why is not None:
                raise RuntimeError(f"the server could not be started again: {why}")
            await server.first_listing()
        conn = server.conn
        with anyio.move_on_after(timeout) as scope:
            outcome = await conn.call_tool(tool, arguments)
        if scope.cancelled_caught:
            return "hang", f"no answer within {timeout:g} s"
        if server.ended(outcome):
            return (
                "crash",
                f"the connection ended during the call ({conn.detail or 'no reason given'})",
            )
        return outcome


class _Found(Exception):
    """A call that failed the property: hypothesis shrinks the arguments that raise it."""

    def __init__(self, kind: str, detail: str, arguments: dict[str, Any]) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail, self.arguments = kind, detail, arguments


def judge(outcome: tuple[str, str] | CallOutcome, *, valid: bool) -> tuple[str, str] | None:
    """What is wrong with a call's outcome, as (kind, detail), or ``None``."""
    if isinstance(outcome, tuple):
        return outcome
    if valid:
        if outcome.error is not None and outcome.error_code not in _NOT_PROTOCOL_FAILURES:
            return "protocol-error", outcome.error
        return None
    if outcome.error is None and not outcome.is_error:
        return "accepted-invalid", "the call succeeded"
    return None


async def fuzz(
    spec: ServerSpec,
    listed: list[dict[str, Any]],
    plan: FuzzPlan,
    err: TextIO,
    traffic: TrafficLog | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Fuzz the chosen tools; each failure as ``{"tool", "kind", "arguments", "detail", ...}``."""
    try:
        import hypothesis  # noqa: F401
        import hypothesis_jsonschema  # noqa: F401
    except ImportError:
        raise UsageError(
            "--fuzz needs hypothesis and hypothesis-jsonschema: pip install 'mcp-tui-client[fuzz]'."
        ) from None
    tools, notes = chosen_tools(listed, plan)
    failures: list[dict[str, Any]] = []
    server = HeadlessServer(
        spec,
        handler=CancelAll(note="`mcp-tui check --fuzz` answers no elicitation requests"),
        traffic=traffic,
    )
    async with server:
        supervisor = Supervisor(server)
        for tool in tools:
            for valid in (True, False):
                found = await anyio.to_thread.run_sync(_search, supervisor, tool, valid, plan)
                failures.append(found)
    return failures, notes


def _search(
    supervisor: Supervisor, tool: dict[str, Any], valid: bool, plan: FuzzPlan
) -> dict[str, Any]:
    """Hypothesis's search for one tool, valid or invalid inputs (in a worker thread): what it
    found, ``kind`` ``none`` when nothing, ``calls`` how many calls it made."""
    from hypothesis import HealthCheck, Phase, given, settings

    from mcp_tui.check.fuzz_values import invalid_arguments, valid_arguments

    name, schema = str(tool.get("name")), tool.get("inputSchema") or {}
    calls = 0

    def one(arguments: dict[str, Any], broken: str | None) -> None:
        nonlocal calls
        calls += 1
        outcome = anyio.from_thread.run(supervisor.call, name, arguments, plan.timeout)
        problem = judge(outcome, valid=valid)
        if problem is not None:
            detail = f"{problem[1]} ({broken})" if broken else problem[1]
            raise _Found(problem[0], detail, arguments)

    config = settings(
        max_examples=plan.examples,
        database=None,
        deadline=None,
        derandomize=True,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.generate, Phase.shrink),
    )

    def with_valid(arguments: dict[str, Any]) -> None:
        one(arguments, None)

    def with_invalid(pair: tuple[str, dict[str, Any]]) -> None:
        one(pair[1], pair[0])

    if valid:
        test = config(given(valid_arguments(schema))(with_valid))
    else:
        test = config(given(invalid_arguments(schema))(with_invalid))
    try:
        test()
    except _Found as found:
        return {
            "tool": name,
            "kind": found.kind,
            "valid": valid,
            "arguments": found.arguments,
            "detail": found.detail,
            "calls": calls,
        }
    except Exception as exc:  # a schema hypothesis cannot draw from, too few invalid sets, ...
        return {
            "tool": name,
            "kind": "not-fuzzed",
            "valid": valid,
            "detail": _why(exc),
            "calls": calls,
        }
    return {"tool": name, "kind": "none", "valid": valid, "calls": calls}


def _why(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]
