"""Streamable HTTP and legacy SSE against the fixture server on 127.0.0.1 (in-process uvicorn)."""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import pytest

from mcp_tui.config.servers import HttpTarget, ProtocolMode, ServerSpec
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.events import CatalogChanged, ConnectionState
from mcp_tui.session.transports import http_client
from tests.session.session_testkit import (
    Recorder,
    ScriptedHandler,
    connected,
    http_fixture,
    load_fixture,
    serve_http,
)

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


def free_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["streamable-http", "sse"])
@pytest.mark.parametrize(
    ("mode", "version"),
    [("legacy", "2025-11-25"), ("auto", "2025-11-25"), ("2026-07-28", "2026-07-28")],
)
async def test_connect_list_and_call(transport: str, mode: ProtocolMode, version: str) -> None:
    rec = Recorder()
    async with (
        http_fixture(transport) as target,
        connected(
            ServerSpec("web", target, mode=mode),
            recorder=rec,
        ) as conn,
    ):
        assert conn.info is not None and conn.info.protocol_version == version
        assert conn.info.name == "fixture-server"
        await rec.wait_for(CatalogChanged)
        assert "echo" in {t.name for t in conn.tools}
        outcome = await conn.call_tool("echo", {"text": "over http"})
        assert outcome.items[0].text == "over http"
        prompt = await conn.get_prompt("greet", {"name": "Lin"})
        assert prompt.items[0].text == "Hello, Lin!"
    assert conn.state is ConnectionState.CLOSED


@pytest.mark.anyio
async def test_headers_reach_the_server() -> None:
    seen: list[dict[str, str]] = []
    app = load_fixture("elicit_server").build_server().streamable_http_app()

    async def recording(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            seen.append({k.decode(): v.decode() for k, v in scope["headers"]})
        await app(scope, receive, send)

    async with serve_http(recording) as port:
        target = HttpTarget(
            f"http://127.0.0.1:{port}/mcp",
            headers={"Authorization": "Bearer s3cret", "X-Team": "a"},
        )
        async with connected(ServerSpec("web", target, mode="legacy")) as conn:
            assert (await conn.call_tool("echo", {"text": "h"})).items[0].text == "h"
    assert seen and all(h.get("authorization") == "Bearer s3cret" for h in seen)
    assert all(h.get("x-team") == "a" for h in seen)


def test_streamable_http_reads_never_time_out() -> None:
    client = http_client(HttpTarget("http://127.0.0.1:1/mcp", headers={"X-A": "b"}))
    assert client.timeout.read is None  # a person may take minutes in a form
    assert client.timeout.connect == 30
    assert client.headers["X-A"] == "b"


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["streamable-http", "sse"])
async def test_refused_url_fails_with_one_sentence(transport: str) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    spec = ServerSpec("down", HttpTarget(url, transport=transport))  # type: ignore[arg-type]
    conn = ServerConnection(spec, handler=ScriptedHandler(), sink=Recorder())
    await conn.run()
    assert conn.state is ConnectionState.FAILED
    assert conn.detail is not None
    assert conn.detail.startswith(f"Cannot connect to {url}: the connection was refused")
    assert "\n" not in conn.detail


@pytest.mark.anyio
async def test_wrong_path_fails_readably() -> None:
    async with http_fixture() as target:
        url = target.url.replace("/mcp", "/not-mcp")
        conn = ServerConnection(
            ServerSpec("lost", HttpTarget(url), mode="legacy"),
            handler=ScriptedHandler(),
            sink=Recorder(),
        )
        await conn.run()
    assert conn.state is ConnectionState.FAILED
    assert conn.detail is not None and url in conn.detail
    assert "Traceback" not in conn.detail
