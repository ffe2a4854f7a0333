"""A tool that works only for a client with elicitation, and says so nowhere.

Many clients have no forms (model APIs' own MCP connectors, most agents run unattended, older
hosts). A tool that asks with ``ctx.elicit()`` regardless gets an error from the client's SDK, or,
written against a client that never answers, waits forever. The server sees the client's
capabilities (``elicitation`` at the handshake, or per request on 2026-07-28) and must not ask a
client that did not advertise it; it can do better: not list such a tool (server-everything hides
its elicitation tools), answer without asking (defaults, arguments), or return a tool error that
says it needs a client with forms. ``check --call TOOL --no-elicitation`` connects as a client
without the capability and reads how the call ended.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mcp_tui.check.findings import Finding, Listing, finding, form_example, rule, tool_example
from mcp_tui.untrusted import one_line

#: Words by which a tool's error or description says it needs a client with forms.
_SAYS_SO = re.compile(r"elicit|\bforms?\b|interactive|user input|capabilit", re.IGNORECASE)

_FIX = (
    "check the client's capabilities before asking (the session's client capabilities: "
    "elicitation), and without them work from the arguments and defaults, or return a tool "
    "error that says the tool needs a client that can show forms; say so in its description"
)


@rule(
    "E109",
    "warning",
    "a tool that asks, fails or hangs when the client has no elicitation",
    why=(
        "Many clients have no forms (model APIs' connectors, unattended agents). The spec "
        "forbids asking a client that did not advertise elicitation; a tool that asks anyway "
        "fails or hangs there, and one that fails should say it needs a client with forms."
    ),
    bad={
        "elicitation_advertised": False,
        "tools": [tool_example(name="ask")],
        "calls": [
            {
                "name": "ask",
                "ok": False,
                "outcome": "error",
                "error": "-32600 (invalid request): Elicitation not supported",
            }
        ],
        "elicitations": [{**form_example({"a": {"type": "string"}}), "_mcp_tui_call": "ask"}],
    },
    good={
        "elicitation_advertised": False,
        "tools": [tool_example(name="ask")],
        "calls": [
            {
                "name": "ask",
                "ok": False,
                "outcome": "tool_error",
                "error": "This tool needs a client with forms.",
            }
        ],
    },
)
def needs_elicitation(listing: Listing) -> Iterator[Finding]:
    if listing.elicitation_advertised:
        return
    tools = {t.get("name"): t for t in listing.tools or () if isinstance(t, dict)}
    for call in listing.calls:
        name, outcome = call.get("name"), call.get("outcome")
        if outcome is None or name not in tools:
            continue  # a tool not listed to such a client is the right answer, not a fault
        where = f"tool {one_line(name, limit=80)}"
        asked = sum(1 for e in listing.elicitations if e.get("_mcp_tui_call") == name)
        if asked:
            ended = {"ok": "it recovered (a result)", "timeout": "no answer"}.get(
                str(outcome), one_line(call.get("error"), limit=160)
            )
            yield finding(
                "E109",
                listing,
                where,
                "",
                f"it sent {asked} elicitation request{'s' if asked != 1 else ''} to a client that "
                "does not advertise elicitation, which the spec forbids: such a client refuses "
                f"it (the SDKs answer -32600 'Elicitation not supported'), and the call ended: "
                f"{ended}",
                _FIX,
                severity="warning" if outcome == "ok" else "error",
            )
            continue
        if outcome == "ok":
            continue
        if outcome == "timeout":
            yield finding(
                "E109",
                listing,
                where,
                "",
                f"called by a client that does not advertise elicitation, it gave {call['error']}"
                ": a client without forms waits until it gives up",
                _FIX,
                severity="error",
            )
            continue
        error = str(call.get("error") or "")
        description = str(tools[name].get("description") or "")
        if _SAYS_SO.search(error) or _SAYS_SO.search(description):
            continue
        kind = "a JSON-RPC error" if outcome == "error" else "a tool error"
        yield finding(
            "E109",
            listing,
            where,
            "",
            f"called by a client that does not advertise elicitation, it fails with {kind} "
            f"({one_line(error, limit=160)}), and neither that nor its description says it "
            "needs a client with forms",
            _FIX,
        )
