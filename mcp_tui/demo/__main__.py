"""`python -m mcp_tui.demo`: run the demo server on its own, for mcp-tui or any MCP client.

Over stdio (the default) stdout carries the protocol and nothing else: logs go to stderr. With
`--http` it serves Streamable HTTP on 127.0.0.1 and prints the endpoint URL as the first line of
stdout once it accepts connections, so a parent process can read the URL and connect (`--port 0`,
the default, picks a free port).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
from types import FrameType
from typing import TYPE_CHECKING, Any

import anyio

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

HOST = "127.0.0.1"
HTTP_PATH = "/mcp"
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mcp_tui.demo",
        description="The mcp-tui demo MCP server: every kind of elicitation, both protocol eras.",
    )
    parser.add_argument(
        "--http",
        action="store_true",
        help=f"serve Streamable HTTP on {HOST} instead of stdio; prints the URL first",
    )
    parser.add_argument("--port", type=int, default=0, help="HTTP port (default 0: any free port)")
    parser.add_argument(
        "--log-level",
        choices=_LEVELS,
        default="WARNING",
        help="level of the server's own log on stderr (default WARNING)",
    )
    return parser


async def serve_http(server: MCPServer[Any], port: int) -> None:
    """Serve `server` over Streamable HTTP on 127.0.0.1:`port` until interrupted."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    actual_port = sock.getsockname()[1]
    config = uvicorn.Config(
        server.streamable_http_app(streamable_http_path=HTTP_PATH, host=HOST),
        log_config=None,
        access_log=False,
        ws="none",
        timeout_graceful_shutdown=2,
    )
    http = uvicorn.Server(config)
    ended = anyio.Event()

    async def serve() -> None:
        try:
            await http.serve(sockets=[sock])
        finally:
            ended.set()

    async with anyio.create_task_group() as task_group:
        task_group.start_soon(serve)
        while not http.started and not ended.is_set():
            await anyio.sleep(0.01)
        if http.started:
            print(f"http://{HOST}:{actual_port}{HTTP_PATH}", flush=True)


def _exit_at_once(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C in stdio mode: leave now. The SDK reads stdin in a worker thread that cancellation
    cannot interrupt, so a graceful stop would wait for the next line of input; there is nothing
    to flush (every message is flushed as it is written) and the OS closes the page's socket."""
    os._exit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # Before the server exists: MCPServer otherwise installs a Rich log handler of its own.
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, args.log_level),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from mcp_tui.demo.server import build_server

    server = build_server()
    try:
        if args.http:
            anyio.run(serve_http, server, args.port)
        else:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                signal.signal(signal.SIGINT, _exit_at_once)
            server.run("stdio")
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"mcp_tui.demo: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
