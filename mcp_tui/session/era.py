"""How mcp-tui chooses the protocol era, and what it says when a call fails because of it.

MCP has two eras that ask the user for input in incompatible ways:

- **2025-11-25** (and older; the ``initialize`` handshake): the server sends ``elicitation/create``
  to the client in the middle of a tool call — a *server-initiated request*. This is what
  ``ctx.elicit()`` does in the Python SDK (``mcp`` 1.x and 2.x), FastMCP (2.x to 4.x) and
  ``server.elicitInput()`` in the TypeScript SDK: the documented elicitation API of every
  mainstream framework, and how nearly every server in the wild asks.
- **2026-07-28** (``server/discover``, per-request metadata): there is no back-channel. A tool
  returns an ``input_required`` result and the client calls it again with the answers.

What real servers do (read in their code, and checked by running them):

- ``mcp`` 2.3 and FastMCP 4.x servers speak *both* eras; the client's first request picks one for
  the whole connection. On 2026-07-28 their ``ctx.elicit()`` cannot reach the client: the SDK
  fails the call with -32600 ``NoBackChannelError`` ("no back-channel for server-initiated
  requests"), FastMCP with "elicitation via server-initiated requests is unavailable on
  2026-07-28 connections".
- Tools written for 2026 either branch on the era (the SDK's ``Resolve``/``Elicit`` helpers do it
  for them, and so do hand-written tools that check ``ctx.protocol_version``) and then work on
  both, or return an ``InputRequiredResult`` unconditionally and fail on 2025-11-25 (FastMCP:
  "... only exists at MCP 2026-07-28"; the SDK: -32603 "Handler returned an invalid result", which
  a plain server bug also gives, so that hint only suggests trying the other era).
- ``mcp`` 1.x, the TypeScript SDK 1.x and the npm reference servers speak only 2025-era versions;
  some never answer the 2026 ``server/discover`` probe sent before ``initialize``, which made the
  SDK's ``auto`` wait 10 s before falling back.

So ``auto`` (the default) **prefers the 2025-11-25 handshake**: it sends ``initialize`` first,
and only when the server refuses it does it try ``server/discover`` and adopt 2026-07-28 (a
server that speaks only 2026). Every ``ctx.elicit()`` server then shows its form with no flag,
tools in the 2026 style that branch on the era work too, nothing waits for a probe, and servers
that speak only 2026 still connect. ``--mode 2026-07-28`` tests the new era on purpose;
``--mode legacy`` never tries 2026 at all.

The cost is the rare tool that *only* works on 2026-07-28: in ``auto`` it is called again on a
2026-07-28 connection by itself (``era_retry.py``: such a tool fails on its first round, which
only asks, so nothing was done yet), and the transcript and ``call``'s stderr say so. Any other
call that fails because of the era — either way round, or in a pinned mode — gets one sentence
with the fix: ``E`` reconnects the server on the other era. mcp-tui never re-runs any other
failed call on its own: a tool may have done half its work (side effects) before it failed.

This module is pure (no ``mcp``): the wording and the recognition of the era errors, used by the
session layer, the UI and headless ``call``. The handshake itself is ``era_client.py``.
"""

from __future__ import annotations

from typing import Literal

from mcp_tui.session.events import CallOutcome

#: The era a request needs: the one its connection did not negotiate.
Era = Literal["2025-11-25", "2026-07-28"]

LEGACY_ERA: Era = "2025-11-25"
MODERN_ERA: Era = "2026-07-28"

#: Phrases of the errors a server gives when ``ctx.elicit()`` (a server-initiated request) runs on
#: a 2026-07-28 connection: the SDK's ``NoBackChannelError`` (-32600, also quoted by tools that
#: catch it) and FastMCP's own message. Matched case-insensitively.
_NO_BACK_CHANNEL = (
    "no back-channel for server-initiated requests",
    "server-initiated requests is unavailable on 2026-07-28",
)
#: ... and when a tool that returns ``input_required`` runs on a 2025-era connection (FastMCP).
_NEEDS_MODERN = ("only exists at mcp 2026-07-28",)
#: The ``mcp`` 2.x SDK's words for a result that does not fit the connection's version: on a
#: 2025-era connection the usual cause is a tool that returns ``input_required`` unconditionally,
#: but a plain server bug reads the same, so the hint for it only suggests the other era.
_MAYBE_NEEDS_MODERN = ("handler returned an invalid result",)

#: The extension 2026-07-28 moved tasks into (SEP-2663). It exists only on that era, so a tool
#: that runs only as a task refuses a 2025-era call with -32021 naming it (FastMCP's tasks
#: extension does), before it does anything.
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021


def is_modern(protocol_version: str | None) -> bool:
    """True for the 2026-07-28 era (no ``initialize``; every later dated version too)."""
    return protocol_version is not None and protocol_version >= MODERN_ERA


def needed_era(outcome: CallOutcome, protocol_version: str | None) -> Era | None:
    """The era ``outcome`` failed for want of, or ``None`` when it did not fail because of it.

    Only failures (a JSON-RPC error, or a result with ``isError``) whose text names the era
    problem count, and only on the era that causes it: a stateless HTTP server has no
    back-channel on 2025-11-25 either, and switching would not help it.
    """
    legacy = protocol_version is not None and not is_modern(protocol_version)
    if legacy and needs_tasks_extension(outcome):
        return MODERN_ERA
    texts = [outcome.error] if outcome.error is not None else []
    if outcome.is_error:
        texts += [item.text for item in outcome.items if item.text]
    if not texts:
        return None
    folded = " ".join(texts).casefold()
    if is_modern(protocol_version):
        if any(phrase in folded for phrase in _NO_BACK_CHANNEL):
            return LEGACY_ERA
    elif protocol_version is not None and any(
        phrase in folded for phrase in (*_NEEDS_MODERN, *_MAYBE_NEEDS_MODERN)
    ):
        return MODERN_ERA
    return None


def needs_tasks_extension(outcome: CallOutcome) -> bool:
    """The call was refused with -32021 for want of the tasks extension (``requiredCapabilities``
    names it, as the spec says a server must)."""
    if outcome.error_code != MISSING_REQUIRED_CLIENT_CAPABILITY:
        return False
    data = outcome.error_data
    required = data.get("requiredCapabilities") if isinstance(data, dict) else None
    extensions = required.get("extensions") if isinstance(required, dict) else None
    return isinstance(extensions, dict) and TASKS_EXTENSION in extensions


def _only_maybe(outcome: CallOutcome) -> bool:
    """True when the era was inferred from the SDK's generic invalid-result error alone."""
    folded = (outcome.error or "").casefold()
    return any(p in folded for p in _MAYBE_NEEDS_MODERN) and not any(
        p in folded for p in _NEEDS_MODERN
    )


def mode_for(era: Era) -> Literal["legacy", "2026-07-28"]:
    """The ``--mode`` that connects on ``era``."""
    return "legacy" if era == LEGACY_ERA else "2026-07-28"


def other_era(protocol_version: str | None, mode: str) -> Era:
    """The era to switch to: the one the connection is not on (or was not asked for)."""
    if protocol_version is not None:
        return LEGACY_ERA if is_modern(protocol_version) else MODERN_ERA
    return LEGACY_ERA if mode == MODERN_ERA else MODERN_ERA


def era_hint(era: Era, *, key: str | None = "E", maybe: bool = False) -> str:
    """One sentence: why the call failed and how to fix it (``key=None``: no TUI, e.g. headless).

    ``maybe``: the error only *may* be the era's (the SDK's generic invalid-result error), so the
    sentence says what usually causes it and offers the other era as a thing to try.
    """
    mode = mode_for(era)
    if maybe:
        why = (
            "The server's SDK refused this tool's result on 2025-11-25, as it does when a tool "
            "written for 2026-07-28 returns input_required"
        )
        if key is None:
            return f'{why}: try --mode {mode} (or mode = "{mode}" in the config).'
        return f"{why}: press {key} to try it on {era} (or run with --mode {mode})."
    if era == LEGACY_ERA:
        why = (
            "This server asks questions with server-initiated requests, which 2026-07-28 "
            "connections cannot carry"
        )
    else:
        why = (
            "This server asks questions with 2026-07-28 input_required results, which "
            "2025-11-25 connections cannot carry"
        )
    if key is None:
        return f'{why}: run again with --mode {mode} (or mode = "{mode}" in the config).'
    return f"{why}: press {key} to reconnect on {era} (or run with --mode {mode})."


def outcome_hint(outcome: CallOutcome, *, key: str | None = "E") -> str | None:
    """:func:`era_hint` for an outcome that failed because of its era (``needs_era``), else None."""
    if outcome.needs_era == LEGACY_ERA:
        return era_hint(LEGACY_ERA, key=key)
    if outcome.needs_era == MODERN_ERA:
        return era_hint(MODERN_ERA, key=key, maybe=_only_maybe(outcome))
    return None


def discover_refused_note(refusal: str) -> str:
    """What a connection pinned to 2026-07-28 says when the server refused ``server/discover``:
    it goes on at that era as asked, but a server that speaks only 2025-11-25 (server-everything)
    then fails every request on fields 2026-07-28 requires, which alone does not name the cause."""
    return (
        f"the server refused server/discover ({refusal}): connected on {MODERN_ERA} anyway, as "
        f"the mode asks, without its name or capabilities. A server that speaks only "
        f"{LEGACY_ERA} fails every request from here on; mode auto (the default) connects on "
        "the era the server speaks (in the TUI, E reconnects on the other era)."
    )
