"""``check --run FILE``: a test file's cases made on every era, for the forms they ask and the
cases that pass on one era and fail on the other.

The cases run exactly as ``mcp-tui test`` runs them (``testrun``: the same connection, answers
engine and expectations), each on 2025-11-25 and on 2026-07-28 whatever eras the file names for
it (that is the question ``check`` asks). What they saw goes into the era's listing: every
``requestedSchema`` (for the subset checks) and each case as a call that passed or failed (for
the era check); why a failure wanted the other era is read by ``session/era.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_tui.check import Listing
from mcp_tui.config.servers import ServerSpec
from mcp_tui.headless.testrun import run_plans
from mcp_tui.session.era import needed_era
from mcp_tui.session.events import CallOutcome, ContentItem
from mcp_tui.testbench.load import LoadedFile
from mcp_tui.testbench.model import Era
from mcp_tui.testbench.plan import CasePlan, FilePlan
from mcp_tui.testbench.result import CaseResult

if TYPE_CHECKING:
    from mcp_tui.session.traffic import TrafficLog

ERAS: tuple[Era, ...] = ("2025-11-25", "2026-07-28")


async def run_cases_into(
    listings: list[Listing],
    loaded: LoadedFile,
    spec: ServerSpec,
    traffic: TrafficLog | None = None,
) -> None:
    """Run every case of ``loaded`` on each era that has a listing; record it there (and every
    message in ``traffic``, ``--log``)."""
    by_era = {listing.era: listing for listing in listings}
    eras = [era for era in ERAS if era in by_era]
    cases = tuple(
        CasePlan(loaded, index, era)
        for era in eras
        for index, case in enumerate(loaded.model.case)
        if case.skip is None
    )
    plan = FilePlan(loaded, spec, cases, connect_timeout=loaded.model.server_decl.connect_timeout)
    for result in await run_plans([plan], traffic=traffic):
        _record(by_era[result.plan.era], result)


def _record(listing: Listing, result: CaseResult) -> None:
    name = result.plan.case.name
    seen = result.observed
    if seen is None:  # the server could not be started for it: nothing to compare
        return
    for request in seen.elicitations:
        if request.mode == "form" and request.schema is not None:
            asked: dict[str, Any] = {
                "message": request.message,
                "requestedSchema": request.schema,
                "_mcp_tui_call": name,
            }
            if request.app_ui is not None:
                asked["_meta"] = {"ui": {"resourceUri": request.app_ui}}
            listing.elicitations.append(asked)
    outcome = CallOutcome(
        items=(ContentItem("text", text=seen.text),) if seen.text else (),
        is_error=seen.outcome == "tool_error",
        error=seen.error,
        error_code=seen.error_code,
    )
    call: dict[str, Any] = {
        "name": name,
        "ok": result.status in ("passed", "xfailed"),
        "error": _why(result),
        "needs_era": needed_era(outcome, seen.protocol_version),
    }
    listing.calls.append(call)


def _why(result: CaseResult) -> str | None:
    if result.status in ("passed", "xfailed"):
        return None
    if result.observed is not None and result.observed.error:
        return result.observed.error
    if result.failures:
        return result.failures[0].summary
    return result.message
