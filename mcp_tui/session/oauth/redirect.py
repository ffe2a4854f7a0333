"""The one-shot loopback listener the browser returns to after signing in (RFC 8252 §7.3).

:func:`open_redirect_listener` binds ``127.0.0.1`` (never every interface) on a random port, or
on the configured one, and serves exactly one useful request: ``GET /callback?code=…&state=…``
carrying the ``state`` of the authorization URL it was armed with (:meth:`RedirectListener.arm`).
Anything else is answered and ignored: another path is a 404 (browsers ask for ``/favicon.ico``),
a foreign ``Host`` header (a DNS-rebinding page) or a missing or wrong ``state`` a 400 that the
wait screen reports (:attr:`RedirectListener.refused`) while the real redirect can still arrive.
Once the redirect is taken the socket is closed at once, and it is closed in any case when the
sign-in ends (the context manager).

The user can also paste the address the browser landed on (:meth:`RedirectListener.paste`): the
way to finish when the browser runs on another machine, where ``127.0.0.1`` is not us. The same
checks apply.

The SDK checks ``state`` again (and ``iss``) on what we deliver; this check is the one that keeps a
forged or stale redirect from ending a sign-in in progress. Request parsing is deliberately small:
the request line and headers, bounded in size and time; no body is read.
"""

from __future__ import annotations

import html
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Literal
from urllib.parse import parse_qs, urlsplit

import anyio
import anyio.abc

from mcp_tui.session.oauth.authorization import RedirectResult
from mcp_tui.untrusted import one_line

CALLBACK_PATH = "/callback"
LOOPBACK = "127.0.0.1"
#: A request head bigger than this is not a browser coming back from a sign-in.
MAX_HEAD_BYTES = 16 * 1024
#: How long one connection may take to send its request head.
HEAD_TIMEOUT = 10.0


def _page(title: str, text: str) -> bytes:
    body = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>mcp-tui</title></head>"
        "<body style='font-family:sans-serif;max-width:36em;margin:3em auto'>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></body></html>"
    )
    return body.encode("utf-8")


def _response(status: str, title: str, text: str) -> bytes:
    body = _page(title, text)
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\n"
        "Referrer-Policy: no-referrer\r\nConnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class RedirectListener:
    """See the module docstring. Built by :func:`open_redirect_listener`."""

    def __init__(self, port: int, path: str = CALLBACK_PATH) -> None:
        self.port = port
        self.path = path
        self._expected_state: str | None = None
        self._result: RedirectResult | None = None
        self._done = anyio.Event()
        self._refused: list[str] = []
        self._listeners: list[Callable[[str], None]] = []
        self._serve_scope: anyio.CancelScope | None = None

    # ---- the PendingRedirect protocol -----------------------------------------------------------

    @property
    def redirect_uri(self) -> str:
        return f"http://{LOOPBACK}:{self.port}{self.path}"

    @property
    def refused(self) -> tuple[str, ...]:
        return tuple(self._refused)

    @property
    def result(self) -> RedirectResult | None:
        return self._result

    def arm(self, state: str) -> None:
        """Accept only a redirect carrying ``state`` (the authorization URL's)."""
        self._expected_state = state

    async def wait(self) -> RedirectResult:
        await self._done.wait()
        assert self._result is not None
        return self._result

    def on_refused(self, callback: Callable[[str], None]) -> None:
        self._listeners.append(callback)

    def paste(self, text: str) -> str | None:
        """Take a pasted redirect address; the reason it is refused, or ``None``."""
        if self._result is not None:
            return "The sign-in already received its answer."
        raw = text.strip()
        parts = urlsplit(raw)
        try:
            port = parts.port
        except ValueError:
            port = None
        if (
            parts.scheme != "http"
            or parts.hostname not in (LOOPBACK, "localhost")
            or port != self.port
            or parts.path != self.path
        ):
            return f"That is not the address the browser was sent back to ({self.redirect_uri}?…)."
        problem, result = self._judge(parts.query, "pasted")
        if problem is not None:
            return problem
        assert result is not None
        self._deliver(result)
        return None

    # ---- checks shared by the listener and paste ----------------------------------------------

    def _judge(
        self, query: str, via: Literal["listener", "pasted"]
    ) -> tuple[str | None, RedirectResult | None]:
        params = parse_qs(query, keep_blank_values=True)
        for name in ("code", "state", "error", "iss"):
            if len(params.get(name, [])) > 1:
                return f"The response repeats the parameter {name!r}; it was refused.", None
        state = params.get("state", [None])[0]
        expected = self._expected_state
        if expected is None or state is None or not secrets.compare_digest(state, expected):
            return (
                "A response with a missing or wrong `state` arrived and was refused: it does not "
                "belong to this sign-in.",
                None,
            )
        code = params.get("code", [None])[0]
        error = params.get("error", [None])[0]
        if not code and not error:
            return "The response carries neither an authorization code nor an error.", None
        result = RedirectResult(
            code=code or None,
            state=state,
            iss=params.get("iss", [None])[0],
            error=error or None,
            error_description=params.get("error_description", [None])[0],
            via=via,
        )
        return None, result

    def _refuse(self, reason: str) -> None:
        self._refused.append(reason)
        for callback in list(self._listeners):
            with suppress(Exception):  # a broken screen must not break the sign-in
                callback(reason)

    def _deliver(self, result: RedirectResult, *, close: bool = True) -> None:
        if self._result is not None:
            return
        self._result = result
        self._done.set()
        if close:
            self._close()

    def _close(self) -> None:
        """One shot: stop serving and close the socket."""
        if self._serve_scope is not None:
            self._serve_scope.cancel()

    # ---- the HTTP side ------------------------------------------------------------------------

    async def _serve(
        self,
        listener: anyio.abc.SocketListener,
        *,
        task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED,
    ) -> None:
        async with listener:
            with anyio.CancelScope() as self._serve_scope:
                task_status.started()
                if self._result is None:
                    await listener.serve(self._handle)

    async def _read_head(self, stream: anyio.abc.ByteStream) -> bytes | None:
        head = b""
        with anyio.move_on_after(HEAD_TIMEOUT):
            while b"\r\n\r\n" not in head:
                try:
                    chunk = await stream.receive(4096)
                except (anyio.EndOfStream, anyio.BrokenResourceError, OSError):
                    return None
                head += chunk
                if len(head) > MAX_HEAD_BYTES:
                    return None
            return head
        return None

    def _answer(self, head: bytes) -> bytes:
        lines = head.decode("latin-1").split("\r\n")
        request = lines[0].split(" ")
        if len(request) != 3 or not request[2].startswith("HTTP/"):
            return _response("400 Bad Request", "Bad request", "mcp-tui's sign-in listener.")
        method, target, _ = request
        headers = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        host = headers.get("host", f"{LOOPBACK}:{self.port}").lower()
        if host not in (f"{LOOPBACK}:{self.port}", f"localhost:{self.port}"):
            self._refuse(f"A request for another host ({one_line(host, limit=80)}) was refused.")
            return _response("400 Bad Request", "Refused", "Wrong host.")
        parts = urlsplit(target)
        if parts.path != self.path:
            return _response("404 Not Found", "Not found", "Nothing here.")
        if method != "GET":
            return _response("405 Method Not Allowed", "Not allowed", "Only GET is answered.")
        if self._result is not None:
            return _response("410 Gone", "Already done", "This sign-in has already finished.")
        problem, result = self._judge(parts.query, "listener")
        if problem is not None:
            self._refuse(problem)
            return _response("400 Bad Request", "Sign-in response refused", problem)
        assert result is not None
        self._deliver(result, close=False)  # closed once this reply is sent
        if result.error:
            text = f"The authorization server refused: {result.error}. Return to mcp-tui."
            return _response("200 OK", "Sign-in failed", text)
        return _response(
            "200 OK", "Signed in", "mcp-tui has received the sign-in. You can close this tab."
        )

    async def _handle(self, stream: anyio.abc.SocketStream) -> None:
        async with stream:
            head = await self._read_head(stream)
            if head is None:
                return
            reply = self._answer(head)
            with anyio.move_on_after(HEAD_TIMEOUT):
                with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                    await stream.send(reply)
        if self._result is not None:
            self._close()


@asynccontextmanager
async def open_redirect_listener(
    port: int = 0, path: str = CALLBACK_PATH
) -> AsyncIterator[RedirectListener]:
    """Bind ``127.0.0.1:port`` (0: any free port) and serve until the redirect arrives or the block
    ends; raises ``OSError`` when the port cannot be bound."""
    listener = await anyio.create_tcp_listener(local_host=LOOPBACK, local_port=port)
    bound = listener.extra(anyio.abc.SocketAttribute.local_port)
    redirect = RedirectListener(bound, path)
    async with anyio.create_task_group() as tasks:
        await tasks.start(redirect._serve, listener)
        try:
            yield redirect
        finally:
            redirect._close()


def free_loopback_port() -> int:
    """A port that was free on 127.0.0.1 a moment ago (for registering a redirect URI)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
        return port
