"""A 401 from a server mcp-tui gives no credentials says HTTP 401 and what to do.

The SDK reports any HTTP error answer as "-32603 Server returned an error response"; mcp-tui
watches its HTTP client's responses and names the status.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from mcp_tui.config.oauth_settings import OAuthSettings
from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.events import ConnectionState
from tests.session.session_testkit import Recorder, ScriptedHandler, serve_http

pytestmark = pytest.mark.anyio


def refusing_app(status: int) -> Any:
    """An ASGI app answering every request with ``status`` and a plain-text body."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        headers = [(b"content-type", b"text/plain")]
        if status == 401:
            headers.append((b"www-authenticate", b'Bearer realm="mcp"'))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"no"})

    return app


async def failure_for(target: HttpTarget) -> str:
    conn = ServerConnection(
        ServerSpec("guarded", target), handler=ScriptedHandler(), sink=Recorder()
    )
    with anyio.fail_after(20):
        await conn.run()
    assert conn.state is ConnectionState.FAILED
    return conn.detail or ""


async def test_401_with_oauth_switched_off_names_the_status_and_the_ways_in() -> None:
    async with serve_http(refusing_app(401)) as port:
        url = f"http://127.0.0.1:{port}/mcp"
        detail = await failure_for(HttpTarget(url, oauth=OAuthSettings(enabled=False)))
    assert f"{url} answered HTTP 401 Unauthorized" in detail
    assert "OAuth is switched off for guarded" in detail
    assert '--header "Authorization: Bearer …"' in detail
    assert "[servers.guarded.oauth]" in detail
    assert "-32603" not in detail and "Server returned an error response" not in detail


async def test_401_with_a_static_token_says_the_token_was_refused() -> None:
    async with serve_http(refusing_app(401)) as port:
        url = f"http://127.0.0.1:{port}/mcp"
        detail = await failure_for(HttpTarget(url, headers={"Authorization": "Bearer old"}))
    assert "answered HTTP 401 Unauthorized" in detail
    assert "refused the Authorization header" in detail
    assert "Bearer old" not in detail  # the token itself is never repeated


async def test_other_statuses_are_named_too() -> None:
    async with serve_http(refusing_app(403)) as port:
        url = f"http://127.0.0.1:{port}/mcp"
        detail = await failure_for(HttpTarget(url, oauth=OAuthSettings(enabled=False)))
    assert detail == f"{url} answered HTTP 403 Forbidden."


def test_the_sdk_still_hides_the_status() -> None:
    """When this fails the SDK reports HTTP statuses itself: re-check ``http_status.py``."""
    import inspect

    from mcp.client import streamable_http

    source = inspect.getsource(streamable_http)
    assert json.dumps("Server returned an error response") in source
