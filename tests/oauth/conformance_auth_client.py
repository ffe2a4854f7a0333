"""The client the conformance harness runs for its ``auth/*`` scenarios: mcp-tui's session layer.

``conformance client --command "<python> -m tests.oauth.conformance_auth_client" --scenario
auth/NAME`` (the repository root on ``PYTHONPATH``) starts
the scenario's mock authorization and resource servers and runs this with the MCP URL last. What
runs is mcp-tui's own code — ``ServerConnection`` with the OAuth provider, token file, loopback
listener and the real browser opener — with one stand-in: the person at the consent screen,
played by ``ConsentingUser`` (the URL is checked with ``check_url`` as the screen would, then
opened through ``$BROWSER``, here ``follow_browser.py``, which follows the harness's
auto-approving ``/authorize`` back to our listener). The data directory is a fresh temporary one,
so each run signs in anew.

Scenario data (``MCP_CONFORMANCE_CONTEXT``): ``client_id``/``client_secret`` become pre-registered
credentials (``auth/pre-registration``); a scenario whose server advertises client ID metadata
documents gets ``client_metadata_url`` (the URL the harness expects), as a user who hosts one
would configure it; the ``client-credentials`` scenarios get ``grant = "client_credentials"``.
Then the client does what a user does: list the tools, call each one. Exit status 0 when the
connection came up and every call answered without an error.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any

import anyio

from tests.oauth import oauth_testkit as kit

#: The client ID metadata document URL the harness's CIMD scenarios expect (our config key
#: ``client_metadata_url``; mcp-tui hosts no document of its own).
CONFORMANCE_CIMD_URL = "https://conformance-test.local/client-metadata.json"


def log(text: str) -> None:
    print(f"[conformance_auth_client] {text}", file=sys.stderr, flush=True)


async def run(url: str, context: dict[str, Any]) -> int:
    from mcp_tui.config.oauth_settings import OAuthSettings
    from mcp_tui.config.servers import HttpTarget, ServerSpec
    from mcp_tui.session.connection import ServerConnection
    from mcp_tui.session.elicitation import CancelAll

    # Machine-to-machine scenarios: the configured credentials with the client_credentials
    # grant (no browser), as a user would set grant = "client_credentials" for such a server.
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    settings = OAuthSettings(
        grant="client_credentials" if "client-credentials" in scenario else "authorization_code",
        client_id=context.get("client_id"),
        client_secret=context.get("client_secret"),
        client_metadata_url=CONFORMANCE_CIMD_URL,
    )
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION")
    # The harness names the era to test: 2026 scenarios get 2026-07-28 (``auto`` would choose
    # the 2025 handshake with a server that speaks both).
    mode = "legacy" if version is None or version < "2026" else "2026-07-28"
    spec = ServerSpec("conformance", HttpTarget(url, oauth=settings), mode=mode)  # type: ignore[arg-type]
    recorder = kit.Recorder()
    conn = ServerConnection(
        spec, handler=CancelAll(), sink=recorder, authorization=kit.ConsentingUser()
    )
    status = 0
    async with kit.running(conn):
        if not await conn.wait_ready(60):
            log(f"not connected: {conn.detail}")
            return 1
        await conn.refresh_catalog()
        for tool in conn.tools:
            outcome = await conn.call_tool(tool.name, {})
            log(f"call {tool.name}: {outcome.error or 'ok'}")
            if outcome.error is not None:
                status = 1
    for text in recorder.texts():
        if text:
            log(text)
    return status


def main(argv: list[str]) -> int:
    if not argv or not argv[-1].startswith("http"):
        log("usage: conformance_auth_client.py URL")
        return 2
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    with tempfile.TemporaryDirectory() as data:
        os.environ["XDG_DATA_HOME"] = data
        os.environ.setdefault("BROWSER", kit.browser_command())
        return anyio.run(run, argv[-1], context if isinstance(context, dict) else {})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
