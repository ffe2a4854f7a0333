"""The TypeScript SDK's ``elicitationUrlExample.js`` (1.32.2): OAuth, then its two -32042 flows.

The example requires OAuth through its own demo authorization server (``MCP_AUTH_PORT``; a
dynamically registered client must use ``client_secret_post``, mcp-tui's default). mcp-tui's
``ServerConnection`` signs in with :class:`ConsentingUser` at the consent seam and ``BROWSER``
following the flow; the browser keeps cookies (``FOLLOW_COOKIES``), because the demo's sign-in
sets the session cookie its payment page later checks.

- ``payment-confirm`` fails with -32042 and a URL on the example's own host; the user opens it,
  the "browser" presses *Confirm Payment* (``FOLLOW_SUBMIT``), and the server sends
  ``notifications/elicitation/complete`` for that elicitation.
- ``third-party-auth`` fails with -32042 and a link to another site; its server completes the
  elicitation by itself five seconds later (a simulated token arrival), and the notification
  arrives.
"""

from __future__ import annotations

import socket
import time
from pathlib import Path

import anyio
import pytest

from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.elicitation import CancelAll, ElicitationRequest
from mcp_tui.session.events import ElicitationCompleted
from mcp_tui.url.browser import open_url_async
from mcp_tui.url.check import check_url
from tests.interop.interop_peers import (  # type: ignore[import-not-found, unused-ignore]
    SDK_EXAMPLES,
    NodeServer,
    free_port,
    node_command,
    require_peers,
)
from tests.oauth.oauth_testkit import ConsentingUser, Recorder, running, use_fake_browser

pytestmark = [pytest.mark.interop, pytest.mark.anyio]

URL_EXAMPLE_JS = SDK_EXAMPLES / "server" / "elicitationUrlExample.js"


def wait_listening(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            sock.settimeout(0.5)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


async def completed(recorder: Recorder, elicitation_id: str, timeout: float = 30.0) -> None:
    with anyio.fail_after(timeout):
        while not any(
            isinstance(e, ElicitationCompleted) and e.elicitation_id == elicitation_id
            for e in recorder.events
        ):
            await anyio.sleep(0.05)


async def test_url_example_signs_in_and_completes_both_flows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    require_peers()
    browser = use_fake_browser(monkeypatch, tmp_path)
    monkeypatch.setenv("FOLLOW_COOKIES", str(tmp_path / "cookies.txt"))
    mcp_port, auth_port = free_port(), free_port()
    server = NodeServer(
        node_command(URL_EXAMPLE_JS),
        mcp_port,
        tmp_path / "url-example.log",
        env={"MCP_PORT": str(mcp_port), "MCP_AUTH_PORT": str(auth_port)},
    )
    server.start()
    try:
        wait_listening(auth_port)
        url = f"http://localhost:{mcp_port}/mcp"  # the resource the example's tokens are for
        user, recorder = ConsentingUser(), Recorder()
        from mcp_tui.session.connection import ServerConnection

        spec = ServerSpec("url-example", HttpTarget(url), mode="legacy")
        conn = ServerConnection(spec, handler=CancelAll(), sink=recorder, authorization=user)
        async with running(conn):
            assert await conn.wait_ready(60), f"{conn.detail}\n{server.output()}"
            [signin] = user.requests
            assert signin.url.startswith(f"http://localhost:{auth_port}/authorize?")
            await conn.refresh_catalog()
            assert {t.name for t in conn.tools} >= {"payment-confirm", "third-party-auth"}

            # payment-confirm: -32042, the user opens the page and confirms.
            outcome = await conn.call_tool("payment-confirm", {"cartId": "cart-42"})
            assert outcome.error_code == -32042, outcome
            [payment] = outcome.url_elicitations
            assert isinstance(payment, ElicitationRequest) and payment.elicitation_id
            verdict = check_url(payment.url or "")
            assert verdict.allowed and verdict.host == "localhost", verdict
            monkeypatch.setenv("FOLLOW_SUBMIT", "action=confirm")
            assert (await open_url_async(verdict)).opened
            await completed(recorder, payment.elicitation_id)
            assert any("/confirm-payment" in v and "-> 200" in v for v in browser.visits())
            assert "Payment confirmed for cart cart-42" in server.output()

            # third-party-auth: -32042 for another site; the server completes it by itself.
            outcome = await conn.call_tool("third-party-auth", {"param1": "x"})
            assert outcome.error_code == -32042, outcome
            [third] = outcome.url_elicitations
            assert third.url == "https://www.example.com/oauth/authorize"
            assert check_url(third.url).allowed
            await completed(recorder, third.elicitation_id)
    finally:
        server.stop()
