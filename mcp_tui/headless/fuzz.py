"""``check --fuzz N``: call the tools an author names (or read-only ones) with generated arguments.

Only tools named with ``--tool`` or annotated ``readOnlyHint: true`` are ever called: a fuzzed
call can delete data. For each, hypothesis draws N valid argument sets from the ``inputSchema``
(``check/fuzz_values.py``) and N just-invalid ones, and each call is judged: the server crashed
(the connection ended), hung past ``--timeout``, answered a valid input with a JSON-RPC error
(a tool's own ``isError`` is its right), or accepted an invalid input. A failure is shrunk by
hypothesis to the smallest arguments that still fail, which re-runs the call; a server that
crashed is started again for the next call (:class:`_Supervisor`).

Hypothesis drives a plain function, so its search runs in a worker thread and each call comes
back to the event loop with ``anyio.from_thread.run``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

import anyio

from mcp_tui.config.servers import ServerSpec
from mcp_tui.errors import UsageError
from mcp_tui.session.elicitation import CancelAll
from mcp_tui.session.events import CallOutcome, ConnectionState, SessionEvent

if TYPE_CHECKING:
    from anyio.abc import TaskGroup

    from mcp_tui.session.connection import ServerConnection

#: JSON-RPC error codes that mean "the protocol failed", not "the tool said no" (-32042 asks for
#: a URL flow: a valid answer).
_NOT_PROTOCOL_FAILURES = (-32042,)
#: The SDK's code for a request whose connection ended before the answer.
_CONNECTION_CLOSED = -32000


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


class _Supervisor:
    """One live connection to the server, started again when a call crashed it."""

    def __init__(self, spec: ServerSpec, tasks: TaskGroup) -> None:
        self.spec = spec
        self.tasks = tasks
        self.conn: ServerConnection | None = None
        #: The last call ended the connection: the next one starts the server again.
        self.crashed = False

    async def connection(self) -> ServerConnection:
        from mcp_tui.headless.run import NO_RATE_LIMIT
        from mcp_tui.session.connection import ServerConnection

        if self.conn is not None and self.conn.state is ConnectionState.READY and not self.crashed:
            return self.conn
        self.crashed = False
        if self.conn is not None:
            await self.conn.close()
        conn = ServerConnection(
            self.spec,
            handler=CancelAll(note="`mcp-tui check --fuzz` answers no elicitation requests"),
            sink=_ignore,
            rate_limit=NO_RATE_LIMIT,
        )
        self.conn = conn
        self.tasks.start_soon(conn.run)
        if not await conn.wait_ready(60):
            raise RuntimeError(
                f"the server could not be started again: {conn.detail or conn.state.value}"
            )
        return conn

    async def call(
        self, tool: str, arguments: dict[str, Any], timeout: float
    ) -> tuple[str, str] | CallOutcome:
        """The outcome, or (``crash``/``hang``, what was seen)."""
        conn = await self.connection()
        with anyio.move_on_after(timeout) as scope:
            outcome = await conn.call_tool(tool, arguments)
        if scope.cancelled_caught:
            return "hang", f"no answer within {timeout:g} s"
        if outcome.error_code == _CONNECTION_CLOSED or conn.state is not ConnectionState.READY:
            self.crashed = True
            return (
                "crash",
                f"the connection ended during the call ({conn.detail or 'no reason given'})",
            )
        return outcome

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()


def _ignore(event: SessionEvent) -> None:
    return None


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
    spec: ServerSpec, listed: list[dict[str, Any]], plan: FuzzPlan, err: TextIO
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
    async with anyio.create_task_group() as tasks:
        supervisor = _Supervisor(spec, tasks)
        try:
            for tool in tools:
                for valid in (True, False):
                    found = await anyio.to_thread.run_sync(_search, supervisor, tool, valid, plan)
                    if found is not None:
                        failures.append(found)
        finally:
            with anyio.CancelScope(shield=True):
                await supervisor.close()
            tasks.cancel_scope.cancel()
    return failures, notes


def _search(
    supervisor: _Supervisor, tool: dict[str, Any], valid: bool, plan: FuzzPlan
) -> dict[str, Any] | None:
    """Hypothesis's search for one tool, valid or invalid inputs (in a worker thread)."""
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
        return {"tool": name, "kind": "not-fuzzed", "valid": valid, "detail": _why(exc)}
    return None


def _why(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]
