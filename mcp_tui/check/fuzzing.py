"""What ``check --fuzz`` found, as findings: each with the smallest arguments that reproduce it.

The calls themselves are made by ``headless/fuzz.py``; each failure it records in
``Listing.fuzz`` becomes one finding here, so the fuzz results are reported, ignored
(``--ignore F104``) and counted like every other check.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from mcp_tui.check.findings import Finding, Listing, finding, rule
from mcp_tui.untrusted import command_line, one_line

_FIXES = {
    "crash": "catch the error in the tool and return isError with a message",
    "hang": "bound the tool's work, or report progress and honour notifications/cancelled",
    "protocol-error": "return isError with a message for inputs the tool cannot handle",
    "accepted-invalid": "validate the arguments against the inputSchema (the SDKs can do it)",
}


#: The check each kind of fuzz failure is reported under.
RULE_OF_KIND = {
    "crash": "F101",
    "hang": "F102",
    "protocol-error": "F103",
    "accepted-invalid": "F104",
}


def fuzz_lines(listings: list[Listing], *, servers: int = 1) -> list[str]:
    """The report's last lines: one per fuzzed tool, what it was called with and what was found,
    so a run that found nothing says so ("echo: 10 valid + 10 invalid calls, nothing found")."""
    lines = []
    for listing in listings:
        for tool in listing.fuzzed:
            name = one_line(str(tool["tool"]), limit=80)
            found = sorted(
                {
                    RULE_OF_KIND[str(f["kind"])]
                    for f in listing.fuzz
                    if f.get("tool") == tool["tool"]
                }
            )
            what = f"found {', '.join(found)}" if found else "nothing found"
            server = f"{one_line(listing.server)}: " if servers > 1 else ""
            lines.append(
                f"fuzz: {server}{name}: {tool['valid_calls']} valid + {tool['invalid_calls']} "
                f"invalid calls, {what}"
            )
    return lines


def _fuzz_example(kind: str | None = None, detail: str = "") -> dict[str, Any]:
    """A rule's example: a read-only ``lookup`` fuzzed, with what was found (``kind``)."""
    schema = {"type": "object", "properties": {"word": {"type": "string"}}}
    tool = {"name": "lookup", "description": "Looks a word up.", "inputSchema": schema}
    found = {"tool": "lookup", "kind": kind, "arguments": {"word": ""}, "detail": detail}
    return {
        "tools": [{**tool, "annotations": {"readOnlyHint": True}}],
        "fuzz": [{**found, "valid": kind != "accepted-invalid", "calls": 12}] if kind else [],
    }


def _reproduce(tool: str, arguments: object) -> str:
    """The ``mcp-tui call`` to paste (with the server's target added): the tool's name and the
    arguments are the server's and the fuzzer's words, quoted for the shell."""
    args = json.dumps(arguments, ensure_ascii=True, sort_keys=True)
    return command_line("mcp-tui", "call", tool, "--args", args)


def _failures(listing: Listing, kind: str) -> Iterator[dict[str, object]]:
    for failure in listing.fuzz:
        if failure.get("kind") == kind:
            yield failure


def _finding(rule_id: str, listing: Listing, failure: dict[str, object], what: str) -> Finding:
    tool = str(failure.get("tool"))
    return finding(
        rule_id,
        listing,
        f"tool {one_line(tool, limit=80)}",
        "/inputSchema",
        f"{what}: {one_line(failure.get('detail'), limit=300)}; the smallest arguments found "
        f"(after {failure.get('calls', '?')} calls): {_reproduce(tool, failure.get('arguments'))}",
        _FIXES[str(failure.get("kind"))],
    )


@rule(
    "F101",
    "error",
    "fuzz: a call crashed the server",
    why=(
        "A call with arguments its own schema allows ended the server's process: every "
        "client's session with it ends, mid-conversation. (A -32000 error the server sends on "
        "a live connection is an answer, not a crash.)"
    ),
    bad=_fuzz_example("crash", "the connection ended during the call"),
    good=_fuzz_example(),
)
def crashed(listing: Listing) -> Iterator[Finding]:
    for failure in _failures(listing, "crash"):
        yield _finding("F101", listing, failure, "the server crashed")


@rule(
    "F102",
    "error",
    "fuzz: a call hung past --call-timeout",
    why=(
        "A call that never answers holds the client's request (and, in a chat, the whole "
        "turn) until the client gives up."
    ),
    bad=_fuzz_example("hang", "no answer within 10 s"),
    good=_fuzz_example(),
)
def hung(listing: Listing) -> Iterator[Finding]:
    for failure in _failures(listing, "hang"):
        yield _finding("F102", listing, failure, "the call hung")


@rule(
    "F103",
    "error",
    "fuzz: a valid input answered with a JSON-RPC error",
    why=(
        "A JSON-RPC error tells the client the protocol failed; a tool that cannot handle "
        "valid input should say so with isError and a message, which a model can read and act "
        "on."
    ),
    bad=_fuzz_example("protocol-error", "-32603 (internal error): division by zero"),
    good=_fuzz_example(),
)
def protocol_error(listing: Listing) -> Iterator[Finding]:
    for failure in _failures(listing, "protocol-error"):
        yield _finding("F103", listing, failure, "valid arguments got a protocol error")


@rule(
    "F104",
    "warning",
    "fuzz: an input the schema refuses was accepted",
    why=(
        "The tool ran with arguments its inputSchema refuses: it does not check them, so a "
        "client's mistake (or a model's) is acted on instead of refused."
    ),
    bad=_fuzz_example("accepted-invalid", "the call succeeded"),
    good=_fuzz_example(),
)
def accepted_invalid(listing: Listing) -> Iterator[Finding]:
    for failure in _failures(listing, "accepted-invalid"):
        yield _finding("F104", listing, failure, "arguments the inputSchema refuses were accepted")
