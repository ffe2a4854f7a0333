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

from mcp_tui.config.servers import ServerSpec
from mcp_tui.headless.engine import MODE_OF_ERA, HeadlessServer
from mcp_tui.headless.probe import Probe, call_for, scripted_answerer
from mcp_tui.session.traffic import TrafficLog
from mcp_tui.testbench.compare import check
from mcp_tui.testbench.plan import CasePlan, FilePlan
from mcp_tui.testbench.result import CaseResult, Status


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
        session = Session(spec, plan.connect_timeout, traffic)
        async with session.server:
            for case_plan in (c for c in plan.cases if c.era == era):
                why = None if case_plan.skip is not None else await session.start()
                if why is not None:
                    result = CaseResult(case_plan, "error", message=session.explain(why))
                    out.append(result)
                    on_result(result)
                    continue
                try:
                    result = await run_case(case_plan, session)
                except Exception as exc:  # a bug of ours: one case's error, not a traceback
                    result = CaseResult(
                        case_plan, "error", message=f"mcp-tui could not run it: {exc!r}"
                    )
                    session.server.lose()  # start the next case afresh
                out.append(result)
                on_result(result)
    return out


class Session:
    """A server opened for a file's cases on one era, and the probe that is its handler and
    sink: the engine (``engine.py``) starts it again for the case after one that lost it."""

    def __init__(
        self, spec: ServerSpec, connect_timeout: float, traffic: TrafficLog | None = None
    ) -> None:
        self.probe = Probe()
        self.server = HeadlessServer(
            spec,
            handler=self.probe,
            sink=self.probe.sink,
            traffic=traffic,
            connect_timeout=connect_timeout,
        )

    async def start(self) -> str | None:
        """Until connected (again, if the last case lost the connection): ``None`` when ready,
        else why not (with the server's last stderr), or why the era cannot be used there (a
        2025-only server refuses 2026-07-28, as ``check`` reports it)."""
        if self.server.ready:
            return None
        self.era_refused = False
        why = await self.server.connect()
        if why is not None:
            tail = self.server.last_stderr()
            if tail:
                why += "\nlast stderr:\n" + "\n".join(f"  {line}" for line in tail[-10:])
            await self.server.close()
            return why
        refused = self.server.era_refusal()
        if refused is not None:
            self.era_refused = True
            await self.server.close()
            return refused
        await self.server.first_listing()
        return None

    #: The last :meth:`start` failed because the server refused the era, not to start.
    era_refused = False

    def explain(self, why: str) -> str:
        """A failed :meth:`start`'s reason as a case's error."""
        if self.era_refused:
            return f"the server cannot be tested on this era: {why}"
        return f"the server could not be started: {why}"

    @property
    def ready(self) -> bool:
        return self.server.ready


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
    call = call_for(session.server.conn, case.kind, case.target, dict(case.arguments), case.task)
    seen = await session.probe.observe(session.server, call, answerer, file.model.timeout_of(case))
    failures = check(case.expect, seen)
    status: Status = "failed" if failures else "passed"
    if case.xfail is not None:
        status = "xfailed" if failures else "xpassed"
    return CaseResult(plan, status, failures, seen, seconds=time.perf_counter() - started)
