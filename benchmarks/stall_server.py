"""An MCP server (hand-written, no SDK: it starts in milliseconds) that sends what stalls a UI.

``python benchmarks/stall_server.py [--tools N] [--description-bytes B] [--http]``

Over stdio by default; ``--http`` serves Streamable HTTP on 127.0.0.1 (a free port, printed on
the first line of stdout): each request answered with JSON, except ``tools/call``, answered with
an SSE stream carrying what the call sends and then its result (as 2025-era servers do).

- ``tools/list``: ``N`` tools (default 3), each with a description of ``B`` bytes, plus the
  tools below. A ``list_changed`` makes the next listing differ a little (one tool renamed, one
  added): what a server that registers tools as it goes does.
- ``big_meta(keys)``: one ``notifications/message`` whose ``_meta`` holds ``keys`` keys (10^6:
  about 14 MB on one line), then a text result.
- ``big_log(bytes)``: one log message whose ``data`` is a string of that many bytes.
- ``big_log_object(keys)``: one log message whose ``data`` is an object of that many keys.
- ``big_progress(bytes)``: one ``notifications/progress`` (for this call's progress token, when
  the client sent one) whose ``message`` is that long.
- ``list_changed``: the tool list changes (see above) and ``notifications/tools/list_changed``
  is sent.
- ``task_flood(requests)``, to a client on 2026-07-28 (``server/discover`` is answered, every
  answer carries ``resultType``): the call becomes task ``flood-1`` (the tasks extension), whose
  ``tasks/get`` lists ``requests`` input requests (elicitation forms) at once until
  ``tasks/cancel``; ``tasks/update`` is acknowledged. Each ``tasks/*`` request is counted, and
  written to stderr as ``tasks/<method> <responses>`` (the benchmark reads them from there).

Used only by ``benchmarks/stalls.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

Message = dict[str, Any]

EXTRA_TOOLS = (
    "big_meta", "big_log", "big_log_object", "big_progress", "list_changed", "task_flood"
)  # fmt: skip
MODERN = "2026-07-28"
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"


class StallServer:
    def __init__(self, tools: int, description_bytes: int, out: Any = None) -> None:
        #: Where messages go (stdout by default).
        self.out = out or send
        self.tools = tools
        self.description_bytes = description_bytes
        self.generation = 0
        #: The task of ``task_flood``: its input requests, and its status.
        self.flood: dict[str, Any] = {}
        self.flood_status = "input_required"

    def tool_list(self) -> list[Message]:
        words = "the quick brown fox jumps over the lazy dog "
        body = (words * (self.description_bytes // len(words) + 1))[: self.description_bytes]
        names = [f"tool_{i:05d}" for i in range(self.tools)]
        if self.generation and names:  # one renamed, ``generation`` added at the end
            names[self.generation % len(names)] = f"renamed_{self.generation:05d}"
            names += [f"added_{g:05d}" for g in range(1, self.generation + 1)]
        listed = [
            {
                "name": name,
                "description": f"{name}: {body}",
                "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
            }
            for name in names
        ]
        extra = [
            {
                "name": name,
                "description": f"stall benchmark: {name}",
                "inputSchema": {
                    "type": "object",
                    "properties": {"keys": {"type": "integer"}, "bytes": {"type": "integer"}},
                },
            }
            for name in EXTRA_TOOLS
        ]
        return extra + listed

    def handle(self, msg: Message) -> None:
        method = msg.get("method")
        if method is None or "id" not in msg:
            return
        params = msg.get("params") or {}
        modern = (params.get("_meta") or {}).get(
            "io.modelcontextprotocol/protocolVersion"
        ) == MODERN or method == "server/discover"
        if method.startswith("tasks/"):
            responses = params.get("inputResponses") or {}
            sys.stderr.write(f"{method} {len(responses)}\n")
            sys.stderr.flush()
        if method == "server/discover":
            result: Message = {
                "supportedVersions": [MODERN],
                "capabilities": {"tools": {}, "extensions": {TASKS_EXTENSION: {}}},
                "serverInfo": {"name": "stall", "version": "1.0"},
                "ttlMs": 0,
                "cacheScope": "private",
            }
        elif method == "tasks/get":
            result = self.flood_task()
        elif method == "tasks/update":
            for key in params.get("inputResponses") or {}:
                self.flood.pop(key, None)
            result = {}
        elif method == "tasks/cancel":
            self.flood_status, self.flood = "cancelled", {}
            result = {}
        elif method == "initialize":
            result = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {"listChanged": True}, "logging": {}},
                "serverInfo": {"name": "stall", "version": "1.0"},
            }
        elif method == "tools/list":
            result = {"tools": self.tool_list()}
            if modern:
                result.update(ttlMs=0, cacheScope="private")
        elif method == "tools/call" and params.get("name") == "task_flood" and modern:
            count = int((params.get("arguments") or {}).get("requests", 10_000))
            self.flood = {f"q{i:06d}": question(i) for i in range(count)}
            self.flood_status = "working"  # created; the first tasks/get lists the requests
            result = {"resultType": "task", **self.flood_task()}
            self.flood_status = "input_required"
        elif method == "tools/call":
            result = self.call(params)
        elif method in ("ping", "logging/setLevel"):
            result = {}
        else:
            self.out(
                {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no"}}
            )
            return
        if modern:
            result.setdefault("resultType", "complete")
        self.out({"jsonrpc": "2.0", "id": msg["id"], "result": result})

    def flood_task(self) -> Message:
        task: Message = {
            "taskId": "flood-1",
            "status": self.flood_status,
            "createdAt": "2026-01-01T00:00:00Z",
            "lastUpdatedAt": "2026-01-01T00:00:00Z",
            "ttlMs": 600_000,
            "pollIntervalMs": 500,
        }
        if self.flood_status == "input_required":
            task["inputRequests"] = self.flood
        return task

    def call(self, params: Message) -> Message:
        name = params.get("name")
        arguments = params.get("arguments") or {}
        if name == "big_meta":
            keys = int(arguments.get("keys", 1_000_000))
            meta = {f"k{i}": 1 for i in range(keys)}
            self.out(
                notify("notifications/message", {"level": "info", "data": "big", "_meta": meta})
            )
        elif name == "big_log":
            size = int(arguments.get("bytes", 14_000_000))
            self.out(notify("notifications/message", {"level": "info", "data": "L" * size}))
        elif name == "big_log_object":
            data = {f"k{i}": 1 for i in range(int(arguments.get("keys", 1_000_000)))}
            self.out(notify("notifications/message", {"level": "info", "data": data}))
        elif name == "big_progress":
            size = int(arguments.get("bytes", 14_000_000))
            token = (params.get("_meta") or {}).get("progressToken", "none")
            progress = {"progressToken": token, "progress": 1, "total": 2, "message": "P" * size}
            self.out(notify("notifications/progress", progress))
        elif name == "list_changed":
            self.generation += 1
            self.out(notify("notifications/tools/list_changed", {}))
        return {"content": [{"type": "text", "text": f"{name} done"}]}


def question(i: int) -> Message:
    """One input request of ``task_flood``: a one-field form."""
    schema = {"type": "object", "properties": {"ok": {"type": "boolean", "title": "OK?"}}}
    params = {"mode": "form", "message": f"question {i}", "requestedSchema": schema}
    return {"method": "elicitation/create", "params": params}


def notify(method: str, params: Any) -> Message:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def send(message: Message) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve_http(tools: int, description_bytes: int) -> None:
    """Streamable HTTP on 127.0.0.1: one POST per message, no session id, no GET stream."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    lock = threading.Lock()
    server = StallServer(tools, description_bytes)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:  # no standalone stream
            self.reply(405, b"", "text/plain")

        def do_DELETE(self) -> None:
            self.reply(200, b"", "text/plain")

        def do_POST(self) -> None:
            msg = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
            if not isinstance(msg, dict) or "id" not in msg or "method" not in msg:
                self.reply(202, b"", "text/plain")
                return
            sent: list[Message] = []
            with lock:
                server.out = sent.append
                server.handle(msg)
            if msg["method"] != "tools/call":
                self.reply(200, json.dumps(sent[-1]).encode(), "application/json")
                return
            events = b"".join(
                b"event: message\r\ndata: " + json.dumps(m).encode() + b"\r\n\r\n" for m in sent
            )
            self.reply(200, events, "text/event-stream")

        def reply(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("content-type", kind)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(httpd.server_address[1], flush=True)
    httpd.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=3)
    parser.add_argument("--description-bytes", type=int, default=2000)
    parser.add_argument("--http", action="store_true")
    args = parser.parse_args()
    if args.http:
        serve_http(args.tools, args.description_bytes)
        return
    server = StallServer(args.tools, args.description_bytes)
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict):
            server.handle(msg)


if __name__ == "__main__":
    main()
