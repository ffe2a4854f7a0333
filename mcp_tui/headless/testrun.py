"""``mcp-tui test``'s running half: the cases of each file against its server, a connection per
file and era, files in parallel (``-j``).

A file's cases run in order on one connection per era (one server process, as a person's session
would be), so a case may build on the one before (``disconnect_account`` then ``list_files``). A
case that ends the connection (``connection_lost``) gets the next one a fresh connection; a server
that cannot be started fails the cases it would have run, with the reason and the server's last
stderr (exit 3). Everything here is the session layer used as ``mcp-tui call`` uses it: the same
connection, the same answers engine, the same rate limit off.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import anyio
import msgspec

from mcp_tui.config.servers import ProtocolMode, ServerSpec
from mcp_tui.headless.probe import Probe, call_for, scripted_answerer
from mcp_tui.headless.run import NO_RATE_LIMIT
from mcp_tui.session.events import ConnectionState
from mcp_tui.session.head_start import HeadStart
from mcp_tui.session.traffic import TrafficLog
from mcp_tui.testbench.compare import check
from mcp_tui.testbench.model import Era
from mcp_tui.testbench.plan import CasePlan, FilePlan
from mcp_tui.testbench.result import CaseResult, Status

#: The connection mode that gives each era.
MODE_OF_ERA: dict[Era, ProtocolMode] = {
    "auto": "auto",
    "2025-11-25": "legacy",
    "2026-07-28": "2026-07-28",
}


async def run_plans(
    plans: Sequence[FilePlan],
    jobs: int = 1,
    on_result: Callable[[CaseResult], None] = lambda _: None,
    traffic: TrafficLog | None = None,
) -> list[CaseResult]:
    """Run every file (``jobs`` at a time); results in plan order, reported as they come.
    ``traffic`` (``--log``) records every message of every connection."""
    limiter = anyio.CapacityLimiter(max(1, jobs))
    results: list[list[CaseResult]] = [[] for _ in plans]

    async def one(i: int, plan: FilePlan) -> None:
        async with limiter:
            results[i] = await run_file(plan, on_result, traffic)

    async with anyio.create_task_group() as tg:
        for i, plan in enumerate(plans):
            tg.start_soon(one, i, plan)
    return [r for rs in results for r in rs]


async def run_file(
    plan: FilePlan,
    on_result: Callable[[CaseResult], None] = lambda _: None,
    traffic: TrafficLog | None = None,
) -> list[CaseResult]:
    """A file's cases, era by era, in file order; one connection per era while it lasts."""
    out: list[CaseResult] = []
    eras = list(dict.fromkeys(c.era for c in plan.cases))
    for era in eras:
        # Named FILE@ERA: in the traffic log and in messages, each connection says which it is.
        spec = msgspec.structs.replace(
            plan.spec, mode=MODE_OF_ERA[era], name=f"{plan.spec.name}@{era}"
        )
        async with anyio.create_task_group() as tg:
            session: Session | None = None
            try:
                for case_plan in (c for c in plan.cases if c.era == era):
                    if case_plan.skip is None and (session is None or not session.ready):
                        if session is not None:
                            await session.close()
                        session = await Session.started_early(spec, plan.connect_timeout, traffic)
                        tg.start_soon(session.conn.run)
                        why = await session.start()
                        if why is not None:
                            await session.close()
                            session = None
                            result = CaseResult(
                                case_plan,
                                "error",
                                message=f"the server could not be started: {why}",
                            )
                            out.append(result)
                            on_result(result)
                            continue
                    try:
                        result = await run_case(case_plan, session)
                    except Exception as exc:  # a bug of ours: one case's error, not a traceback
                        result = CaseResult(
                            case_plan, "error", message=f"mcp-tui could not run it: {exc!r}"
                        )
                        if session is not None:
                            session.lost = True  # start the next case afresh
                    out.append(result)
                    on_result(result)
            finally:
                if session is not None:
                    with anyio.CancelScope(shield=True):
                        await session.close()
    return out


class Session:
    """A connection and the probe that is its handler and sink (its ``run`` is the caller's)."""

    def __init__(
        self,
        spec: ServerSpec,
        connect_timeout: float,
        head_start: HeadStart | None = None,
        traffic: TrafficLog | None = None,
    ) -> None:
        from mcp_tui.session.connection import ServerConnection

        self.probe = Probe()
        self.conn = ServerConnection(
            spec,
            handler=self.probe,
            sink=self.probe.sink,
            rate_limit=NO_RATE_LIMIT,
            connect_timeout=connect_timeout,
            head_start=head_start,
            traffic_log=traffic,
        )

    @classmethod
    async def started_early(
        cls, spec: ServerSpec, connect_timeout: float, traffic: TrafficLog | None = None
    ) -> Session:
        """A session whose stdio server is spawned before the SDK is imported, so the server's
        start-up overlaps ours, as ``mcp-tui call`` does (``session/head_start.py``)."""
        from mcp_tui.session.head_start import start_stdio

        head = await start_stdio(spec, None)
        try:
            return cls(spec, connect_timeout, head, traffic)
        except BaseException:
            if head is not None:
                await head.discard()
            raise

    async def start(self) -> str | None:
        """Until connected: ``None`` when ready, else why not (with the server's last stderr)."""
        if not await self.conn.wait_ready():
            why = self.conn.detail or self.conn.state.value
            tail = self.conn.stderr_tail or tuple(self.probe.stderr_tail)
            if tail:
                why += "\nlast stderr:\n" + "\n".join(f"  {line}" for line in tail[-10:])
            return why
        await self.probe.first_listing()
        return None

    #: A call saw the connection end (its state may not say so yet): the next case starts afresh.
    lost = False

    @property
    def ready(self) -> bool:
        return self.conn.state is ConnectionState.READY and not self.lost

    async def close(self) -> None:
        await self.conn.close()


async def run_case(plan: CasePlan, session: Session | None) -> CaseResult:
    """One case on a live session (``None``: it is skipped)."""
    case = plan.case
    if plan.skip is not None or session is None:
        return CaseResult(plan, "skipped", message=plan.skip)
    started = time.perf_counter()
    file = plan.file
    answerer = scripted_answerer(
        file.path,
        case.tool or "",
        list(case.answers),
        [file.line_of("case", plan.index, "answers", i) for i in range(len(case.answers))],
        policy=case.elicit,
        sampling=case.sampling,
    )
    call = call_for(session.conn, case.kind, case.target, dict(case.arguments), case.task)
    seen = await session.probe.observe(session.conn, call, answerer, file.model.timeout_of(case))
    session.lost = seen.outcome == "connection_lost"
    failures = check(case.expect, seen)
    status: Status = "failed" if failures else "passed"
    if case.xfail is not None:
        status = "xfailed" if failures else "xpassed"
    return CaseResult(plan, status, failures, seen, seconds=time.perf_counter() - started)
