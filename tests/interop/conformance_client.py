"""The client the official MCP conformance harness runs: mcp-tui's headless commands, nothing else.

The harness (``conformance client --command "<this> " --scenario NAME``) starts a mock server for
the scenario, then runs this script with the server's URL as the last argument and the scenario's
name in ``MCP_CONFORMANCE_SCENARIO``; the 0.2 alphas also set
``MCP_CONFORMANCE_PROTOCOL_VERSION``. The SDKs' own conformance clients work the same way: the
scenario name says what a user of the client would do against that server (which tool to call,
with which arguments, how to answer its elicitation). This script only decides *that*; every
request on the wire is made by ``mcp-tui call`` / ``list`` — mcp-tui's real command line
(``mcp_tui.cli.main``), session, schema and headless code — run one after the other in this
process (the harness puts the repository root on ``PYTHONPATH``), printing to this process's
stdout and stderr, so the harness's ``stdout.txt`` / ``stderr.txt`` show exactly what mcp-tui
printed. One process per scenario instead of one per command: each would import the SDK again
(~1 s of CPU), for up to five commands a scenario.

Protocol version: the harness names the era a scenario tests, and mcp-tui is pinned to it, as a
user testing one era would: dated versions up to 2025-11-25 use the stateful lifecycle and get
``--mode legacy`` (``initialize``), 2026-07-28 gets ``--mode 2026-07-28`` (``auto`` would choose
the 2025 handshake with a mock server that speaks both). Without a version mcp-tui's default
``auto`` runs.

Exit status: 0 when every step exited 0, else the first non-zero status (every step still runs,
so the harness sees as many checks as possible). An unknown scenario exits 2.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: mcp-tui runs from the repository root (its default root is the working directory), as it
#: did when each command was its own process started there.
REPO_ROOT = Path(__file__).resolve().parents[2]

LEGACY_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)


def log(text: str) -> None:
    print(f"[conformance_client] {text}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Step:
    """One mcp-tui command's exit status and, when captured, what it printed on stdout."""

    returncode: int
    stdout: str


class Client:
    """Runs mcp-tui commands against one URL and remembers the first failure."""

    def __init__(
        self, url: str, protocol_version: str | None, context: dict[str, Any] | None = None
    ) -> None:
        self.url = url
        #: ``MCP_CONFORMANCE_CONTEXT``: scenario data some scenarios pass (calls to make, ...).
        self.context = context or {}
        if protocol_version in LEGACY_VERSIONS:
            self.mode_args = ["--mode", "legacy"]
        elif protocol_version in MODERN_VERSIONS:
            self.mode_args = ["--mode", protocol_version]
        else:
            self.mode_args = []
        self.status = 0

    def run(self, args: Sequence[str], *, capture: bool = False) -> Step:
        # The URL goes last, as the harness passes it to clients; `--` never appears, so the
        # URL cannot be read as a stdio command.
        from mcp_tui.cli.main import main as mcp_tui

        argv = [*args, *self.mode_args, self.url]
        log("$ mcp_tui " + " ".join(argv))
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured) if capture else contextlib.nullcontext():
            try:
                code = mcp_tui(argv)
            except SystemExit as exit:  # argparse's own errors
                code = exit.code if isinstance(exit.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        log(f"exit {code}")
        if code != 0 and self.status == 0:
            self.status = code
        return Step(code, captured.getvalue())

    def call(self, tool: str, arguments: dict[str, Any] | None = None, *extra: str) -> None:
        args = ["call", tool]
        if arguments is not None:
            args += ["--args", json.dumps(arguments)]
        self.run([*args, *extra])

    def tools(self) -> list[dict[str, Any]]:
        """``mcp-tui list --json``: the tools exactly as mcp-tui kept them."""
        done = self.run(["list", "--json"], capture=True)
        sys.stdout.write(done.stdout)
        if done.returncode != 0:
            return []
        try:
            tools: list[dict[str, Any]] = json.loads(done.stdout)["tools"]
        except (ValueError, KeyError, TypeError) as exc:
            log(f"`mcp-tui list --json` printed something that is not a catalog: {exc}")
            self.status = self.status or 1
            return []
        return tools


def sample_arguments(input_schema: dict[str, Any]) -> dict[str, Any]:
    """A plausible value for every required argument (what a user would type into the form)."""
    properties = input_schema.get("properties") or {}
    arguments: dict[str, Any] = {}
    for name in input_schema.get("required") or []:
        prop = properties.get(name) or {}
        if "enum" in prop:
            arguments[name] = prop["enum"][0]
        elif "const" in prop:
            arguments[name] = prop["const"]
        else:
            arguments[name] = {
                "integer": 1,
                "number": 1.5,
                "boolean": True,
                "array": [],
                "object": {},
            }.get(str(prop.get("type")), "sample")
    return arguments


# ---- what a user would do against each scenario's server ----------------------------------------


def initialize(c: Client) -> None:
    c.run(["list"])


def tools_call(c: Client) -> None:
    c.call("add_numbers", {"a": 5, "b": 3})


def elicitation_defaults(c: Client) -> None:
    # The server asks for five fields, all optional with defaults, and wants them all back.
    c.call("test_client_elicitation_defaults", None, "--elicit", "accept-defaults")


def sse_retry(c: Client) -> None:
    c.call("test_reconnection")


def request_state(c: Client) -> None:
    # SEP-2322: two tools answer with input_required (with and without requestState); one is an
    # unrelated call; one returns a result without resultType (which means "complete").
    c.call("test_mrtr_echo_state", None, "--elicit", "accept-defaults")
    c.call("test_mrtr_no_state", None, "--elicit", "accept-defaults")
    c.call("test_mrtr_unrelated")
    c.call("test_mrtr_no_result_type")


def list_only(c: Client) -> None:
    c.run(["list"])
    c.tools()


def call_every_listed_tool(c: Client) -> None:
    """List, then call every tool mcp-tui kept (a tool it should have refused must not be there)."""
    for tool in c.tools():
        c.call(tool["name"], sample_arguments(tool.get("inputSchema") or {}))


def context_tool_calls(c: Client) -> None:
    """Scenarios that say which calls to make (``MCP_CONFORMANCE_CONTEXT.toolCalls``): make them.

    The arguments are the harness's, byte for byte (``null`` included), so what it checks is how
    mcp-tui puts them on the wire (for example ``Mcp-Param-*`` headers and their encoding).
    """
    calls = c.context.get("toolCalls")
    if not isinstance(calls, list) or not calls:
        log("MCP_CONFORMANCE_CONTEXT has no toolCalls for this scenario")
        c.status = c.status or 1
        return
    for call in calls:
        c.call(str(call["name"]), dict(call.get("arguments") or {}))


def schema_round_trip(c: Client) -> None:
    # Hand back the focal tool's inputSchema exactly as mcp-tui holds it, via the echo tool.
    tools = c.tools()
    echo = "json_schema_echo"
    focal = [t for t in tools if t["name"] != echo]
    if not focal or not any(t["name"] == echo for t in tools):
        log(f"expected {echo} and one other tool, got {[t['name'] for t in tools]}")
        c.status = c.status or 1
        return
    c.call(echo, {"schema": focal[0]["inputSchema"]})


SCENARIOS: dict[str, Callable[[Client], None]] = {
    "initialize": initialize,
    "tools_call": tools_call,
    "elicitation-sep1034-client-defaults": elicitation_defaults,
    "sse-retry": sse_retry,
    "sep-2322-client-request-state": request_state,
    "request-metadata": list_only,
    "http-standard-headers": call_every_listed_tool,
    "http-custom-headers": context_tool_calls,
    "http-invalid-tool-headers": call_every_listed_tool,
    "json-schema-ref-no-deref": list_only,
    "json-schema-2020-12-preservation": schema_round_trip,
}


def main(argv: Sequence[str]) -> int:
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    if len(argv) < 1 or not argv[-1].startswith(("http://", "https://")):
        log("usage: conformance_client.py URL (with MCP_CONFORMANCE_SCENARIO set)")
        return 2
    plan = SCENARIOS.get(scenario)
    if plan is None:
        log(f"no plan for scenario {scenario!r}; known: {', '.join(sorted(SCENARIOS))}")
        return 2
    try:
        context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    except ValueError as exc:
        log(f"MCP_CONFORMANCE_CONTEXT is not JSON: {exc}")
        return 2
    client = Client(
        argv[-1],
        os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION"),
        context if isinstance(context, dict) else {},
    )
    log(f"scenario {scenario} against {client.url}")
    os.chdir(REPO_ROOT)
    plan(client)
    return client.status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
