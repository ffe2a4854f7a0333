"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat completions API, scripted by a test.

Each ``POST /v1/chat/completions`` takes the next :class:`Reply` of the script and answers it as
the API does: a server-sent event stream of ``chat.completion.chunk`` objects when the request asks
for ``stream``, one ``chat.completion`` otherwise. Text streams in several chunks; tool calls come
as the API sends them (the name first, the arguments in pieces). Every request body is kept, so a
test can check what the model was sent (the tool result of the turn before, the tools offered),
and every request's headers (the ``Authorization`` the client sent).

A reply may ``hold`` until the test releases it, to test stopping a generation mid-stream.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class ToolCall:
    name: str
    arguments: dict[str, Any]
    id: str = "call_1"


@dataclass
class Reply:
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    #: Send the first chunk, then wait for this event before the rest (stop-generation tests).
    hold: threading.Event | None = None


class FakeOpenAI:
    """The scripted server; ``url`` is its ``/v1`` base URL."""

    def __init__(self, script: list[Reply]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        #: Each request's headers, in the order the requests came.
        self.headers: list[dict[str, str]] = []
        self.url = ""
        self._lock = threading.Lock()

    def next_reply(self, body: dict[str, Any], headers: dict[str, str]) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            if not self.script:
                return Reply(text="(the script has no more replies)")
            return self.script.pop(0)


def _chunks(reply: Reply) -> Iterator[dict[str, Any]]:
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "fake"}
    yield base | {"choices": [{"index": 0, "delta": {"role": "assistant"}}]}
    words = reply.text.split(" ")
    for i, word in enumerate(words):
        piece = word if i == 0 else " " + word
        if piece:
            yield base | {"choices": [{"index": 0, "delta": {"content": piece}}]}
    for n, call in enumerate(reply.tool_calls):
        args = json.dumps(call.arguments)
        half = len(args) // 2
        first = {"index": n, "id": call.id, "type": "function"}
        first["function"] = {"name": call.name, "arguments": args[:half]}
        yield base | {"choices": [{"index": 0, "delta": {"tool_calls": [first]}}]}
        rest = {"index": n, "function": {"arguments": args[half:]}}
        yield base | {"choices": [{"index": 0, "delta": {"tool_calls": [rest]}}]}
    reason = "tool_calls" if reply.tool_calls else "stop"
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    yield base | {"choices": [{"index": 0, "delta": {}, "finish_reason": reason}], "usage": usage}


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            if not self.path.endswith("/chat/completions"):
                self.send_error(404)
                return
            reply = fake.next_reply(body, dict(self.headers.items()))
            if body.get("stream"):
                self._stream(reply)
            else:
                self._whole(reply)

        def _stream(self, reply: Reply) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                for i, chunk in enumerate(_chunks(reply)):
                    self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                    self.wfile.flush()
                    if i == 1 and reply.hold is not None:
                        reply.hold.wait(timeout=30)
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped listening (a stopped generation)
            self.close_connection = True

        def _whole(self, reply: Reply) -> None:
            message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
            if reply.tool_calls:
                message["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                    }
                    for c in reply.tool_calls
                ]
            payload = json.dumps(
                {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "created": 0,
                    "model": "fake",
                    "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


@contextmanager
def fake_openai(script: list[Reply]) -> Iterator[FakeOpenAI]:
    """Run a :class:`FakeOpenAI` on 127.0.0.1 (a free port) for the ``with`` block."""
    fake = FakeOpenAI(script)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, name="fake-openai", daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        for reply in fake.script:
            if reply.hold is not None:
                reply.hold.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
