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
from mcp_tui.testbench.load import LoadedFile
from mcp_tui.testbench.plan import CasePlan, FilePlan
from mcp_tui.testbench.result import CaseResult, Status, setup_failed, with_teardown
from mcp_tui.testbench.steps import Phase, StepFailure, StepRef, not_run, step_failure


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
        cases = [c for c in plan.cases if c.era == era]
        runs = [c for c in cases if c.skip is None]
        #: The file's setup on this connection: not made yet (None), or how it went.
        file_setup: list[StepFailure] | None = None
        async with session.server:
            for case_plan in cases:
                why = None if case_plan.skip is not None else await session.start()
                if why is not None:
                    result = CaseResult(case_plan, "error", message=session.explain(why))
                elif case_plan.skip is not None:
                    result = await run_case(case_plan, session)
                else:
                    if file_setup is None:  # once, before the first case that runs
                        file_setup = await run_steps(plan.file, _file_steps("setup", plan), session)
                    try:
                        result = await run_case(case_plan, session, file_setup)
                    except Exception as exc:  # a bug of ours: one case's error, not a traceback
                        result = CaseResult(
                            case_plan, "error", message=f"mcp-tui could not run it: {exc!r}"
                        )
                        session.server.lose()  # start the next case afresh
                if file_setup is not None and case_plan is runs[-1]:
                    # After the last case, told with it (as pytest tells a module's teardown).
                    late = await run_steps(plan.file, _file_steps("teardown", plan), session)
                    result = with_teardown(result, late)
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


def _file_steps(phase: Phase, plan: FilePlan) -> list[StepRef]:
    return [StepRef(phase, i) for i in range(len(getattr(plan.file.model, phase)))]


def _case_steps(phase: Phase, plan: CasePlan) -> list[StepRef]:
    return [StepRef(phase, i, plan.index) for i in range(len(getattr(plan.case, phase)))]


async def run_case(
    plan: CasePlan, session: Session | None, file_setup: Sequence[StepFailure] = ()
) -> CaseResult:
    """One case on a live session (``None``: it is skipped): its setup, its call, its teardown.
    ``file_setup``: the file's setup failed (the case is an error, nothing of it is made)."""
    if plan.skip is not None or session is None:
        return CaseResult(plan, "skipped", message=plan.skip)
    if file_setup:
        return setup_failed(plan, list(file_setup))
    started = time.perf_counter()
    failed = await run_steps(plan.file, _case_steps("setup", plan), session)
    result = setup_failed(plan, failed) if failed else await run_call(plan, session)
    late = await run_steps(plan.file, _case_steps("teardown", plan), session)
    result = with_teardown(result, late)
    result.seconds = time.perf_counter() - started
    return result


async def run_call(plan: CasePlan, session: Session) -> CaseResult:
    """The case's own call, checked against its expectations."""
    case = plan.case
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


async def run_steps(
    file: LoadedFile, refs: Sequence[StepRef], session: Session
) -> list[StepFailure]:
    """Make each step's call, in order; the steps that failed. A setup stops at its first
    failure (what follows needs it); every teardown step is made whatever failed before, while
    the server can be reached (one that could not be started is not tried for each step)."""
    failed: list[StepFailure] = []
    for ref in refs:
        problem = await run_step(file, ref, session)
        if problem is not None:
            failed.append(problem)
            if ref.phase == "setup" or not problem.reached:
                break
    return failed


async def run_step(file: LoadedFile, ref: StepRef, session: Session) -> StepFailure | None:
    """One step's call (on a fresh connection if the one before lost it), and how it failed."""
    step = ref.step_of(file.model)
    line = file.line_of(*ref.key)
    why = await session.start()
    if why is not None:
        return not_run(ref, step, session.explain(why), line)
    answerer = scripted_answerer(
        file.path,
        step.tool or "",
        list(step.answers),
        [file.line_of(*ref.key, "answers", i) for i in range(len(step.answers))],
        policy=step.elicit,
        sampling=step.sampling,
    )
    call = call_for(session.server.conn, step.kind, step.target, dict(step.arguments), step.task)
    seen = await session.probe.observe(session.server, call, answerer, file.model.timeout_of(step))
    return step_failure(ref, step, seen, line)
