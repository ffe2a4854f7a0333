"""A model endpoint that cannot answer is named in one sentence (``mcp_tui/chat/guidance.py``):
nothing listening at a closed 127.0.0.1 port (Ollama not started), a 404 from a tiny HTTP server
on 127.0.0.1, instead of "Connection error." and the repr of a Python dict."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from mcp_tui.chat.conversation import Conversation
from mcp_tui.chat.providers import build_model
from mcp_tui.chat.tools import ToolCatalog
from mcp_tui.config.chat_settings import ChatSettings

pytestmark = pytest.mark.anyio


def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def answering_404(body: bytes, content_type: str) -> Iterator[str]:
    """A 127.0.0.1 HTTP server that answers every request 404 with ``body``; it stops when the
    block ends (``shutdown`` ends ``serve_forever``, the thread is joined)."""

    class NotFound(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(404)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), NotFound)
    thread = threading.Thread(target=server.serve_forever, name="answering-404", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


async def turn_error(base_url: str) -> str:
    settings = ChatSettings(provider="openai-compatible", base_url=base_url, model="llama3.2")

    async def never(*_: Any) -> Any:
        raise AssertionError("no tool is called")

    ended = await Conversation(system_prompt="be brief").run_turn(
        "hello", model=build_model(settings, {}), tools=ToolCatalog([]), approve=never,
        call=never, emit=lambda _: None,
    )  # fmt: skip
    assert ended.status == "error" and ended.error is not None
    return ended.error


async def test_nothing_listening_names_the_url_and_the_likely_cause() -> None:
    port = closed_port()
    error = await turn_error(f"http://127.0.0.1:{port}/v1")
    assert error.startswith(f"Nothing is listening at http://127.0.0.1:{port}/v1/chat/completions")
    assert "connection was refused" in error and "ollama serve" in error
    assert "Connection error" not in error


async def test_a_404_is_a_sentence_with_status_url_and_what_the_endpoint_said() -> None:
    body = b'{"error": {"message": "model \\"llama3.2\\" not found, try pulling it first"}}'
    with answering_404(body, "application/json") as url:
        error = await turn_error(url)
    assert error.startswith(f"{url}/chat/completions answered HTTP 404 Not Found: model ")
    assert 'model "llama3.2" not found, try pulling it first.' in error
    assert "Check the endpoint" in error and "(llama3.2)" in error
    assert "{" not in error and "status_code" not in error


async def test_a_404_with_a_plain_body() -> None:
    with answering_404(b"404 page not found", "text/plain") as url:
        error = await turn_error(url)
    assert error.startswith(f"{url}/chat/completions answered HTTP 404 Not Found: 404 page not")
    assert "body:" not in error
