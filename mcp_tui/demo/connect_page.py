"""The little web page that URL-mode elicitation sends the user to.

URL mode exists for things that must not pass through the MCP client (sign-ins, payments), so the
demo needs a real page outside the client: this module serves one on 127.0.0.1 at a random free
port, started the first time a tool needs it. `GET /connect/<token>` shows a "Connect" button;
its `POST /complete/<token>` connects the demo account, which sends
`notifications/elicitation/complete` to the clients waiting for it (2025-11-25) and wakes a tool
that is waiting for the page (both eras). Tests press the button with a plain HTTP POST.

The page server runs as a task in the MCP server's lifespan task group, so it lives in the same
event loop as the sessions it notifies and stops with the server. It never binds anything but
loopback, checks the `Host` header (against DNS rebinding), and does not take over the process's
signal handlers as `uvicorn.Server.serve` otherwise would.
"""

from __future__ import annotations

import html
import logging
import socket
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Final

import anyio
import uvicorn
from anyio.abc import TaskGroup
from mcp.server.mcpserver.exceptions import ToolError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from mcp_tui.demo.state import ACCOUNT_NAME, DemoState

logger = logging.getLogger(__name__)

HOST: Final = "127.0.0.1"
START_TIMEOUT_SECONDS: Final = 10.0

_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

_STYLE: Final = """
body { font-family: system-ui, sans-serif; max-width: 34rem; margin: 4rem auto; padding: 0 1rem;
       color: #1d2430; background: #f6f7f9; }
main { background: #fff; border-radius: 12px; padding: 2rem; box-shadow: 0 2px 12px #0002; }
h1 { font-size: 1.4rem; margin-top: 0; }
button { font-size: 1.1rem; padding: .7rem 1.4rem; border: 0; border-radius: 8px;
         background: #2454d6; color: #fff; cursor: pointer; }
.ok { color: #137333; } .muted { color: #5f6b7a; font-size: .9rem; }
"""


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    document = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{body}</main></body></html>"
    )
    return HTMLResponse(document, status_code=status, headers=_HEADERS)


class _QuietServer(uvicorn.Server):
    """A uvicorn server that leaves SIGINT/SIGTERM to its host process."""

    @contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


class ConnectPage:
    """Serves the connect pages of one `DemoState`, lazily, inside a lifespan task group."""

    def __init__(self, state: DemoState) -> None:
        self._state = state
        self._hosts: list[TaskGroup] = []
        self._server: _QuietServer | None = None
        self._host: TaskGroup | None = None
        self._base_url: str | None = None
        self._lock = anyio.Lock()

    @contextmanager
    def hosting(self, task_group: TaskGroup) -> Iterator[None]:
        """Offer `task_group` (a connection's lifespan) to run the page server in; when it ends,
        stop the page server if it ran there. The next tool that needs it starts a new one."""
        self._hosts.append(task_group)
        try:
            yield
        finally:
            self._hosts.remove(task_group)
            if self._host is task_group:
                self.stop()

    def stop(self) -> None:
        """Ask the page server to shut down; its task ends within about a tenth of a second."""
        if self._server is not None:
            self._server.should_exit = True
        self._server = None
        self._host = None
        self._base_url = None

    async def url_for(self, token: str) -> str:
        """The page URL for a link's token, starting the page server if needed."""
        base = await self._ensure_started()
        return f"{base}/connect/{token}"

    async def _ensure_started(self) -> str:
        async with self._lock:
            if self._base_url is not None:
                return self._base_url
            if not self._hosts:
                raise ToolError("The demo's connect page can only run while the server is serving.")
            host = self._hosts[-1]
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            try:
                sock.bind((HOST, 0))
            except OSError:
                sock.close()
                raise
            port = sock.getsockname()[1]
            config = uvicorn.Config(
                self._app(),
                log_config=None,
                access_log=False,
                lifespan="off",
                http="h11",
                ws="none",
                timeout_graceful_shutdown=1,
            )
            server = _QuietServer(config)
            ended = anyio.Event()

            async def serve() -> None:
                try:
                    await server.serve(sockets=[sock])
                finally:
                    ended.set()

            host.start_soon(serve)
            with anyio.move_on_after(START_TIMEOUT_SECONDS):
                while not server.started and not ended.is_set():
                    await anyio.sleep(0.01)
            if not server.started:
                server.should_exit = True
                raise ToolError("The demo's connect page did not start.")
            self._server, self._host = server, host
            self._base_url = f"http://{HOST}:{port}"
            logger.info("Connect page serving at %s", self._base_url)
            return self._base_url

    def _app(self) -> Starlette:
        routes = [
            Route("/connect/{token}", self._show, methods=["GET"]),
            Route("/complete/{token}", self._complete, methods=["POST"]),
        ]
        middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=[HOST, "localhost"])]
        return Starlette(routes=routes, middleware=middleware)

    async def _show(self, request: Request) -> HTMLResponse:
        token = str(request.path_params["token"])
        link = self._state.link(token)
        if link is None:
            return _expired()
        if link.done.is_set():
            return _connected(already=True)
        action = html.escape(f"/complete/{token}", quote=True)
        return _page(
            "Connect your demo account",
            "<h1>Connect your demo account</h1>"
            "<p>The <b>mcp-tui demo</b> server wants to use the account "
            f"<b>{html.escape(ACCOUNT_NAME)}</b>.</p>"
            "<p>Nothing real happens here: this page stands in for a sign-in or payment page that "
            "an MCP client must never see into.</p>"
            f"<form method='post' action='{action}'><button type='submit'>Connect account</button>"
            "</form><p class='muted'>Served by the demo itself on 127.0.0.1.</p>",
        )

    async def _complete(self, request: Request) -> HTMLResponse:
        token = str(request.path_params["token"])
        link = self._state.link(token)
        if link is None:
            return _expired()
        already = link.done.is_set()
        if not await self._state.complete(token):
            return _expired()
        return _connected(already=already)


def _connected(*, already: bool) -> HTMLResponse:
    headline = "Already connected" if already else "Connected"
    return _page(
        headline,
        f"<h1 class='ok'>{headline} ✓</h1>"
        "<p>Your demo account is connected. You can close this tab and return to your MCP "
        "client.</p>",
    )


def _expired() -> HTMLResponse:
    return _page(
        "Link expired",
        "<h1>This link is unknown or has expired</h1>"
        "<p>Ask the demo server for a new one (run <code>connect_account</code> again).</p>",
        status=404,
    )
