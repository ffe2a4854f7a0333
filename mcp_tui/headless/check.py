"""``mcp-tui check``: connect on each era the server speaks, list everything, run the checks.

The checks themselves are pure (``mcp_tui.check``) and read the JSON the server sent, so this
module only gathers it: the ``*/list`` results (every page) and the capabilities from the traffic
tap, the negotiated version from the connection. Each era is its own connection: mode
``legacy`` (``initialize``: 2025-11-25, or the older version the server answers with) and
``2026-07-28`` (``server/discover``); an era the server refuses is reported as such, not as a
failure. Exit codes: 0 clean, 1 errors (``--strict``: warnings too), 2 usage, 3 cannot connect
on any era.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

import anyio
import msgspec

from mcp_tui.check import Listing, run_checks
from mcp_tui.check.report import CheckReport, ServerEras
from mcp_tui.config.answers import AnswerScript
from mcp_tui.config.servers import ServerSpec
from mcp_tui.errors import EXIT_CONNECTION
from mcp_tui.headless.cache_hints import CacheHints
from mcp_tui.headless.elicit import ElicitPolicy, SamplingRefusal, ScriptedHandler
from mcp_tui.headless.engine import HeadlessServer, traffic_log
from mcp_tui.headless.run import HeadlessOptions, RunEvents, connected
from mcp_tui.session.elicitation import (
    CancelAll,
    ElicitationOutcome,
    ElicitationRequest,
)
from mcp_tui.session.era import LEGACY_ERA, MODERN_ERA, needed_era
from mcp_tui.session.events import Notice, SessionEvent, TrafficRecorded
from mcp_tui.session.naming import announced_name
from mcp_tui.session.sampling import SamplingOutcome, SamplingRequest
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from mcp_tui.headless.check_baseline import BaselineGate
    from mcp_tui.headless.check_github import CheckGithub
    from mcp_tui.headless.fuzz import FuzzPlan
    from mcp_tui.session.traffic import TrafficLog
    from mcp_tui.testbench.load import LoadedFile
    from mcp_tui.testbench.redact import Redactor

#: The modes ``check`` connects with, and the era each stands for in the report.
ERA_MODES = (("legacy", LEGACY_ERA), (MODERN_ERA, MODERN_ERA))
_LISTS = {
    "tools/list": ("tools", "tools"),
    "prompts/list": ("prompts", "prompts"),
    "resources/list": ("resources", "resources"),
    "resources/templates/list": ("templates", "resourceTemplates"),
}


@dataclass(frozen=True)
class CheckCall:
    """A call ``check`` makes on every era (``--call``), to see the forms it asks for."""

    tool: str
    arguments: dict[str, Any]
    answers: AnswerScript | None = None
    policy: ElicitPolicy = "cancel"
    sampling: SamplingRefusal = "decline"
    #: Cancel the call after this many seconds (``--no-elicitation``: a tool that waits for a
    #: form the client cannot show hangs); ``None``: no limit.
    timeout: float | None = None


@dataclass(frozen=True)
class CheckOptions:
    json_output: bool = False
    strict: bool = False
    ignore: tuple[str, ...] = ()
    #: Only these eras (``--era``); empty: every era.
    eras: tuple[str, ...] = ()
    colour: bool = False
    calls: tuple[CheckCall, ...] = ()
    #: ``--fuzz N`` (with ``--tool``): ``None`` fuzzes nothing.
    fuzz: FuzzPlan | None = None
    #: ``--run FILE``: the test file of each server (same order as the specs), or ``None``.
    runs: tuple[LoadedFile | None, ...] = ()
    #: ``--no-elicitation``: connect as a client without the elicitation capability.
    no_elicitation: bool = False
    #: ``--baseline FILE`` (``--baseline-update``): ``None`` compares with nothing.
    baseline: BaselineGate | None = None
    #: GitHub Actions output (``--github``): ``None`` writes none.
    github: CheckGithub | None = None


class Gatherer(RunEvents):
    """The headless run's sink, plus the listings' JSON as it came over the wire."""

    def __init__(self, err: TextIO, server: str) -> None:
        super().__init__(err, quiet=True)
        self.server = server
        #: Request id -> (method, first page?) of the listings asked for.
        self._asked: dict[Any, tuple[str, bool]] = {}
        self.lists: dict[str, list[dict[str, Any]]] = {}
        self.errors: dict[str, str] = {}
        self.elicitations: list[dict[str, Any]] = []
        self.notifications: list[str] = []
        #: The call being made (``--call``), named in the elicitations it asks.
        self.calling: str | None = None
        self.hints = CacheHints()

    def sink(self, event: SessionEvent) -> None:
        if isinstance(event, Notice):
            return  # an era refused, roots sent: the report says what matters, once
        super().sink(event)
        if isinstance(event, TrafficRecorded):
            self._see(event)
            self.hints.see(event)

    def _see(self, event: TrafficRecorded) -> None:
        method = event.method
        if event.direction == "out" and method in _LISTS:
            params = event.message.get("params")
            first = not (isinstance(params, dict) and params.get("cursor"))
            self._asked[event.id] = (method, first)
        elif event.direction == "in" and event.id is None and method is not None:
            self.notifications.append(method)
        elif event.direction == "in" and method == "elicitation/create":
            self._asked_for(event.message.get("params"))
        elif event.direction == "in" and method is None and event.id not in self._asked:
            result = event.message.get("result")
            if isinstance(result, dict) and result.get("resultType") == "input_required":
                requests = result.get("inputRequests")
                for request in (requests if isinstance(requests, dict) else {}).values():
                    if isinstance(request, dict) and request.get("method") == "elicitation/create":
                        self._asked_for(request.get("params"))
        elif event.direction == "in" and method is None and event.id in self._asked:
            method, first = self._asked.pop(event.id)
            kind, key = _LISTS[method]
            message = event.message
            if isinstance(message.get("result"), dict):
                page = message["result"].get(key)
                if isinstance(page, list):
                    if first:  # a new listing (list_changed): it replaces the one before
                        self.lists[kind] = []
                        self.errors.pop(kind, None)
                    self.lists.setdefault(kind, []).extend(p for p in page if isinstance(p, dict))
            elif isinstance(message.get("error"), dict):
                self.errors[kind] = str(message["error"].get("message", "error"))

    def _asked_for(self, params: object) -> None:
        """An elicitation request (server-initiated, or inside ``input_required``)."""
        if isinstance(params, dict):
            self.elicitations.append({**params, "_mcp_tui_call": self.calling})


class CallAnswers:
    """The handler of one connection: each ``--call``'s own script (forms and sampling, as
    ``mcp-tui call`` answers them), else cancel."""

    def __init__(self) -> None:
        self.current: ScriptedHandler | CancelAll = CancelAll(
            note="`mcp-tui check` answers nothing here"
        )

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        return await self.current.elicit(request)

    async def sample(self, request: SamplingRequest) -> SamplingOutcome:
        return await self.current.sample(request)


async def _call(
    server: HeadlessServer, g: Gatherer, h: CallAnswers, call: CheckCall
) -> dict[str, Any]:
    """Make ``call`` on this era; what happened, as the era check reads it."""
    h.current = ScriptedHandler(
        io.StringIO(),
        call.tool,
        answers=call.answers,
        policy=call.policy,
        sampling_policy=call.sampling,
    )
    g.calling = call.tool
    conn = server.conn
    outcome = None
    try:
        with anyio.move_on_after(call.timeout):
            outcome = await conn.call_tool(call.tool, call.arguments)
    finally:
        g.calling = None
    if outcome is None:
        return {
            "name": call.tool,
            "ok": False,
            "outcome": "timeout",
            "error": f"no answer within {call.timeout:g} s",
            "needs_era": None,
        }
    version = conn.info.protocol_version if conn.info else None
    failed = outcome.error is not None or outcome.is_error
    error = outcome.error or (" ".join(i.text or "" for i in outcome.items) if failed else None)
    return {
        "name": call.tool,
        "ok": not failed,
        "outcome": "error" if outcome.error is not None else "tool_error" if failed else "ok",
        "error": error,
        "needs_era": needed_era(outcome, version),
    }


def check_servers(
    specs: list[ServerSpec],
    options: HeadlessOptions,
    check: CheckOptions,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Connect to each server on every era, print one report; returns the exit code."""
    return anyio.run(check_async, specs, options, check, out or sys.stdout, err or sys.stderr)


async def gather(
    spec: ServerSpec,
    options: HeadlessOptions,
    eras: tuple[str, ...],
    err: TextIO,
    calls: tuple[CheckCall, ...] = (),
    taken: Collection[str] = (),
    traffic: TrafficLog | None = None,
) -> tuple[list[Listing], ServerEras]:
    """One connection per era: what the server listed on each, and the eras it refused, with
    the name the server is shown by (its ``serverInfo`` name for a generic key, apart from the
    ``taken`` names of the servers before it).

    Listing only, the eras connect at once (``check`` then takes about as long as ``list``);
    with ``--call`` one after the other, so two runs of a tool never overlap.
    """
    seen = ServerEras(spec.name)
    taken = list(taken)
    chosen = [(mode, era) for mode, era in ERA_MODES if not eras or era in eras]
    results: dict[str, tuple[Listing | None, int]] = {}

    async def one(mode: str, era: str) -> None:
        eras_spec = msgspec.structs.replace(spec, mode=mode)
        results[era] = await _one_era(eras_spec, era, options, err, calls, seen, taken, traffic)

    if calls:
        for mode, era in chosen:
            await one(mode, era)
    else:
        async with anyio.create_task_group() as tasks:
            for mode, era in chosen:
                tasks.start_soon(one, mode, era)
    listings: list[Listing] = []
    for _, era in chosen:
        found, code = results[era]
        if found is not None:
            listings.append(found)
            seen.connected.append(found.era)
        elif era not in seen.refused and era not in seen.timed_out:
            seen.refused[era] = "could not connect" if code else "refused"
    return listings, seen


async def _one_era(
    spec: ServerSpec,
    era: str,
    options: HeadlessOptions,
    err: TextIO,
    calls: tuple[CheckCall, ...],
    seen: ServerEras,
    taken: Collection[str],
    traffic: TrafficLog | None,
) -> tuple[Listing | None, int]:
    """One connection in ``spec.mode``: its listing (``None``: era refused), and the exit code."""
    gatherer = Gatherer(err, spec.name)
    handler = CallAnswers()
    found: list[Listing] = []

    async def body(server: HeadlessServer) -> int:
        if not await gatherer.first_listing(server):
            return EXIT_CONNECTION
        conn = server.conn
        if conn.discover_timeout is not None:  # no answer: not a refusal of the era
            seen.timed_out[era] = conn.discover_timeout
            return 0
        if conn.discover_refusal is not None and not gatherer.hints.discover_answered:
            # Refused (server-everything: -32601). One that answered with a result the SDK
            # refused speaks the era: it is listed, and X102 says what its result lacked.
            seen.refused[era] = conn.discover_refusal
            return 0
        made = [await _call(server, gatherer, handler, call) for call in calls]
        info = conn.info
        if spec.name_is_generic and info is not None and not seen.name:
            seen.name = announced_name(info.name, spec.name, taken) or ""
        found.append(
            Listing(
                server=spec.name,
                era=(info.protocol_version if info else None) or era,
                capabilities=dict(info.capabilities) if info else {},
                tools=gatherer.lists.get("tools"),
                prompts=gatherer.lists.get("prompts"),
                resources=gatherer.lists.get("resources"),
                templates=gatherer.lists.get("templates"),
                errors=dict(gatherer.errors),
                elicitations=list(gatherer.elicitations),
                notifications=list(gatherer.notifications),
                incomplete=gatherer.hints.as_listing(),
                elicitation_advertised=spec.advertise_elicitation,
                calls=made,
            )
        )
        return 0

    code = await connected(spec, options, gatherer, handler, body, traffic)
    return (found[0] if found else None), code


async def check_async(
    specs: list[ServerSpec], options: HeadlessOptions, check: CheckOptions, out: TextIO, err: TextIO
) -> int:
    from mcp_tui.testbench.redact import RedactingWriter, Redactor

    # What the servers were given from the environment (``--run``: the files' ``${VAR}``s; a
    # config's) is masked in the report, the baseline it writes, the annotations and whatever
    # is said on stderr, however a server echoes it.
    given = [spec.from_environment for spec in specs]
    redactor = Redactor.union([*(f.secrets for f in check.runs if f is not None), *given])
    if redactor:
        err = RedactingWriter(err, redactor)
    github = check.github
    if github is not None:  # before anything a server sent can be printed (--json: on stderr)
        github.start(err if check.json_output else out, sorted(redactor.values))
    try:
        return await _check_all(specs, options, check, out, err, redactor)
    finally:
        if github is not None:
            github.resume()  # however the run ended, the step's commands are back on
        err.flush()


async def _check_all(
    specs: list[ServerSpec],
    options: HeadlessOptions,
    check: CheckOptions,
    out: TextIO,
    err: TextIO,
    redactor: Redactor,
) -> int:
    listings: list[Listing] = []
    servers: list[ServerEras] = []

    def say(text: str) -> None:
        print(f"mcp-tui: {text}", file=err, flush=True)

    with traffic_log(options.traffic_log, say) as traffic:  # one log for every connection
        for index, spec in enumerate(specs):
            taken = [s.name for s in specs if s is not spec] + [s.shown for s in servers]
            if check.no_elicitation:
                spec = msgspec.structs.replace(spec, advertise_elicitation=False)
            found, seen = await gather(spec, options, check.eras, err, check.calls, taken, traffic)
            loaded = check.runs[index] if index < len(check.runs) else None
            if found and loaded is not None:
                from mcp_tui.headless.check_cases import run_cases_into

                await run_cases_into(found, loaded, spec, traffic)
            if found and check.fuzz is not None:
                await _fuzz_into(found[0], spec, check.fuzz, err, traffic)
            listings += found
            servers.append(seen)
            if not found:
                unanswered = {era: f"timed out, {why}" for era, why in seen.timed_out.items()}
                reasons = "; ".join(
                    f"{era}: {why}" for era, why in (seen.refused | unanswered).items()
                )
                why = one_line(reasons, limit=500)
                say(f"cannot connect to {one_line(spec.name)} on any era ({why})")
    if not listings:
        return EXIT_CONNECTION
    report = run_checks(listings, servers=servers, ignore=check.ignore)
    if check.baseline is not None:
        from mcp_tui.headless.check_baseline import compare_with_baseline

        eras = list(check.eras) or [era for _, era in ERA_MODES]
        live = redactor.value(listings)  # the baseline file is committed
        compare_with_baseline(
            report, live, servers, check.baseline, eras=eras, ignore=check.ignore, err=err
        )
    report = redactor.value(report)  # the checks ran on what came; what is shown is masked
    print_report(report, out, json_output=check.json_output, colour=check.colour)
    if check.github is not None:
        check.github.finish(report, check.baseline)
    code = report.exit_code(strict=check.strict)
    unreachable = any(not s.connected for s in servers)
    return EXIT_CONNECTION if code == 0 and unreachable else code


async def _fuzz_into(
    listing: Listing, spec: ServerSpec, plan: FuzzPlan, err: TextIO, traffic: TrafficLog | None
) -> None:
    """``--fuzz``: on one more connection (the default mode), the failures into ``listing``."""
    from mcp_tui.headless.fuzz import fuzz

    searches, notes = await fuzz(spec, listing.tools or [], plan, err, traffic)
    for note in notes:
        print(f"mcp-tui: fuzz: {one_line(note, limit=400)}", file=err)
    for search in searches:
        if search["kind"] == "not-fuzzed":
            which = "valid" if search["valid"] else "invalid"
            why = one_line(search["detail"], limit=300)
            print(f"mcp-tui: fuzz: {one_line(search['tool'])}: no {which} inputs ({why})", file=err)
    listing.fuzz = [f for f in searches if f["kind"] not in ("not-fuzzed", "none")]
    for search in searches:
        which = "valid_calls" if search["valid"] else "invalid_calls"
        entry = next((t for t in listing.fuzzed if t["tool"] == search["tool"]), None)
        if entry is None:
            entry = {"tool": search["tool"], "valid_calls": 0, "invalid_calls": 0}
            listing.fuzzed.append(entry)
        entry[which] += search.get("calls", 0)


def print_report(report: CheckReport, out: TextIO, *, json_output: bool, colour: bool) -> None:
    if json_output:
        print(json.dumps(report.as_json(), indent=2, ensure_ascii=True), file=out)
    else:
        print(report.text(colour=colour), file=out)
