"""What works on one protocol era and fails on the other, in one sentence with the fix.

A server on ``mcp`` 2.3 or FastMCP 4 speaks both 2025-11-25 and 2026-07-28, and the client's
first request picks one. A tool that asks with ``ctx.elicit()`` (a server-initiated request)
works on 2025-11-25 and can never work for a 2026-07-28 client; a tool that returns
``input_required`` unconditionally is the reverse. ``check --run`` makes the same calls on each
era; this compares them. Which era a failure wanted is read by the session layer
(``needs_era`` in each call), so the wording of the SDKs' errors is known in one place.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcp_tui.check.findings import Finding, Listing, finding, rule
from mcp_tui.untrusted import one_line

#: Why a call fails on an era (the key: the era it fails on) and the fix, as X101 says it and
#: ``mcp-tui test`` repeats it under a case that failed for want of the other era.
ERA_FAILURES = {
    "2025-11-25": (
        "it returns input_required, which exists only on 2026-07-28: every 2025-era client "
        "(most clients today) gets an error",
        "branch on the era (the SDK's Resolve/Elicit helpers do) and ask with ctx.elicit() on "
        "2025-11-25",
    ),
    "2026-07-28": (
        "it asks with a server-initiated request (ctx.elicit()), which 2026-07-28 clients "
        "cannot answer",
        "return input_required instead (the SDK's Resolve/Elicit helpers work on both eras)",
    ),
}


def _call(ok: bool, error: str | None = None, needs_era: str | None = None) -> dict[str, Any]:
    """A rule's example: the call ``sign_up`` as ``check --run`` records it on one era."""
    return {"name": "sign_up", "ok": ok, "error": error, "needs_era": needs_era}


@rule(
    "X101",
    "error",
    "a call that passes on one era and fails on the other",
    across=True,
    why=(
        "A server on the mcp 2.x SDK or FastMCP speaks both eras, and the client's first "
        "request picks one. A tool that asks with ctx.elicit() can never work for a "
        "2026-07-28 client; one that returns input_required unconditionally fails every "
        "2025-era client."
    ),
    bad=[
        {"calls": [_call(True)]},
        {"era": "2026-07-28", "calls": [_call(False, "-32600: no back-channel", "2025-11-25")]},
    ],
    good=[{"calls": [_call(True)]}, {"era": "2026-07-28", "calls": [_call(True)]}],
)
def era_compatibility(listings: list[Listing]) -> Iterator[Finding]:
    by_server: dict[str, list[Listing]] = {}
    for listing in listings:
        by_server.setdefault(listing.server, []).append(listing)
    for group in by_server.values():
        outcomes: dict[str, dict[str, dict[str, object]]] = {}
        for listing in group:
            for call in listing.calls:
                outcomes.setdefault(str(call.get("name")), {})[listing.era] = call
        failing = {listing.era: listing for listing in group}
        for name, by_era in outcomes.items():
            passed = [era for era, call in by_era.items() if call.get("ok")]
            for era, call in sorted(by_era.items()):
                if call.get("ok") or not passed:
                    continue
                needed = call.get("needs_era")
                why, fix = ERA_FAILURES.get(
                    era,
                    (
                        f"it fails there: {one_line(call.get('error'), limit=200)}",
                        "make it work on both",
                    ),
                )
                if needed is None:
                    why = f"it fails there ({one_line(call.get('error'), limit=200)})"
                    fix = "compare the two runs: the error does not name the era"
                yield finding(
                    "X101",
                    failing[era],
                    f"call {one_line(name, limit=80)}",
                    "",
                    f"passes on {', '.join(sorted(passed))} and fails on {era}: {why}",
                    fix,
                )


@rule(
    "X103",
    "warning",
    "a call or case that fails on every era",
    across=True,
    why=(
        "A call or test case that fails on each era the server was checked on says nothing "
        "about the era, but it was made for a reason: check --run should not be silent about "
        "a case that cannot pass."
    ),
    bad=[{"calls": [_call(False, "boom")]}, {"era": "2026-07-28", "calls": [_call(False, "boom")]}],
    good=[{"calls": [_call(False, "boom")]}, {"era": "2026-07-28", "calls": [_call(True)]}],
)
def fails_everywhere(listings: list[Listing]) -> Iterator[Finding]:
    """X101 compares an era where the call passes with one where it fails; a call that fails on
    each era the server was checked on says nothing of the era, but ``check --run`` made it and
    should not be silent about it."""
    by_server: dict[str, list[Listing]] = {}
    for listing in listings:
        by_server.setdefault(listing.server, []).append(listing)
    for group in by_server.values():
        outcomes: dict[str, dict[str, dict[str, object]]] = {}
        for listing in group:
            for call in listing.calls:
                outcomes.setdefault(str(call.get("name")), {})[listing.era] = call
        for name, by_era in outcomes.items():
            if len(by_era) < 2 or any(call.get("ok") for call in by_era.values()):
                continue
            why = "; ".join(
                f"{era}: {one_line(call.get('error'), limit=200)}"
                for era, call in sorted(by_era.items())
            )
            yield Finding(
                rule="X103",
                severity="warning",
                where=f"call {one_line(name, limit=80)}",
                pointer="",
                message=f"fails on every era ({why})",
                fix="run it with mcp-tui test to see each expectation that failed",
                server=group[0].server,
                eras=tuple(sorted(by_era)),
            )


_LOST = {
    "tools/list": "the server seems to offer no tools",
    "prompts/list": "the server seems to offer no prompts",
    "resources/list": "the server seems to offer no resources",
    "resources/templates/list": "the server seems to offer no resource templates",
    "resources/read": "every read fails",
    "server/discover": "the client connects blind: no name, no capabilities, no instructions",
}


@rule(
    "X102",
    "error",
    "a 2026-07-28 result without the cacheScope or ttlMs the era requires",
    why=(
        "2026-07-28 requires cacheScope and ttlMs on every list, read and server/discover "
        "result. A client that validates results (the MCP SDKs' do) rejects the whole result: "
        "the server seems to offer nothing, and all you see is a protocol error."
    ),
    bad={"era": "2026-07-28", "incomplete": [{"method": "tools/list", "missing": ["cacheScope"]}]},
    good={"era": "2026-07-28"},
)
def cache_hints(listing: Listing) -> Iterator[Finding]:
    for item in listing.incomplete:
        method = str(item.get("method"))
        missing = " and ".join(str(k) for k in item.get("missing") or ())
        lost = _LOST.get(method, "the request fails")
        yield finding(
            "X102",
            listing,
            "server",
            "",
            f"{one_line(method, limit=60)} answered without {missing}, which 2026-07-28 requires "
            f"of it: a client that validates (the MCP SDKs' do) rejects the whole result, so "
            f"{lost}, and you see only a protocol error ('cacheScope: Field required')",
            'add cacheScope ("private", or "public" for data that is the same for every user) '
            "and ttlMs (milliseconds a client may reuse it; 0: do not) to every list, read and "
            "server/discover result (the SDKs' servers add them: a hand-built result must)",
        )
