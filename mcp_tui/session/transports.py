"""Build the SDK transport for a :class:`ServerSpec`, and say in one sentence why it failed.

- stdio: ``bounded_stdio_client`` (the SDK's ``stdio_client`` with a bound on message size) with
  the spec's command, arguments, working directory and environment (merged by the SDK over its
  small default environment: ``HOME``, ``PATH``, ...; a server that inherits the caller's
  environment is handed all of it), and ``errlog`` set to our stderr pipe — never the terminal.
- Streamable HTTP: our own ``httpx2`` client carrying the spec's headers, with **no read timeout**:
  on 2025-era servers the answer to a tool call waits on the call's SSE stream while the user fills
  in a form, and a person may take many minutes (the SDK's default is 300 s). One SSE event (one
  message, on 2025-era servers) may be as large as a stdio message (the SDK's default is 1 MiB,
  which failed results a 2026-07-28 connection, answered with plain JSON, carried).
- legacy HTTP+SSE: ``sse_client`` with the headers and a day-long read timeout, for the same
  reason.

Both HTTP clients carry ``big_http.BigPayloads``: a large message's oversized ``_meta`` is cut
in a worker thread before the SDK parses it on the event loop.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TextIO

import anyio.abc
import httpx2
from mcp.client._transport import Transport, TransportStreams
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, get_default_environment
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage

from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.session.big_http import BigPayloads
from mcp_tui.session.convert import describe_code, primary_exception
from mcp_tui.session.head_start import server_environment
from mcp_tui.session.http_status import HttpError, HttpStatusLog, explain_status, sdk_http_error
from mcp_tui.session.oauth.authorization import AuthorizationError
from mcp_tui.session.stdio_transport import DEFAULT_MAX_MESSAGE_BYTES, bounded_stdio_client

#: Connect, write and pool timeouts for HTTP (seconds). Reads have none: see the module docstring.
HTTP_TIMEOUT = 30.0
#: How long the legacy SSE stream may stay silent before the SDK gives up on it.
SSE_READ_TIMEOUT = 24 * 3600.0


def stdio_parameters(target: StdioTarget) -> StdioServerParameters:
    return StdioServerParameters(
        command=target.command,
        args=list(target.args),
        # The SDK puts these over its small default environment: for a server that inherits the
        # caller's environment, that is all of it (``head_start.server_environment``).
        env=(server_environment(target) if target.inherit_env else dict(target.env)) or None,
        cwd=target.cwd,
        encoding_error_handler="replace",
    )


def open_transport(
    spec: ServerSpec,
    errlog: TextIO | None,
    *,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    auth: httpx2.Auth | None = None,
    on_undelivered: Callable[[SessionMessage, str], None] | None = None,
    http_status: HttpStatusLog | None = None,
    process: anyio.abc.Process | None = None,
    on_exit: Callable[[int], None] | None = None,
    big: BigPayloads | None = None,
) -> Transport:
    """The (not yet entered) transport for ``spec``; ``errlog`` is required for stdio.

    ``auth`` (HTTP only) is the OAuth provider from ``oauth.provider.build_auth``;
    ``on_undelivered`` (stdio only) hears of a message lost when writing to the server failed;
    ``http_status`` (Streamable HTTP) keeps the last HTTP error status, which the SDK drops;
    ``process`` (stdio) is the server already started by ``head_start``; ``on_exit`` (stdio)
    hears its exit status when its output ends; ``big`` (HTTP) reads large messages for the
    SDK (``big_http``: whoever reads the transport's stream must pass each item through its
    ``restore``).
    """
    target = spec.target
    if isinstance(target, StdioTarget):
        if errlog is None:
            raise ValueError("a stdio server needs an errlog: its stderr must not reach the tty")
        return bounded_stdio_client(
            stdio_parameters(target),
            errlog=errlog,
            max_message_bytes=max_message_bytes,
            on_undelivered=on_undelivered,
            process=process,
            on_exit=on_exit,
        )
    if target.transport == "sse":

        def client_factory(
            headers: dict[str, str] | None = None,
            timeout: httpx2.Timeout | None = None,
            auth: httpx2.Auth | None = None,
        ) -> httpx2.AsyncClient:
            client = create_mcp_http_client(headers=headers, timeout=timeout, auth=auth)
            if big is not None:
                big.watch(client)
            return client

        return sse_client(
            target.url,
            headers=dict(target.headers) or None,
            timeout=HTTP_TIMEOUT,
            sse_read_timeout=SSE_READ_TIMEOUT,
            auth=auth,
            httpx_client_factory=client_factory,
        )
    return _streamable_http(target, auth, http_status, max_message_bytes, big)


def http_client(target: HttpTarget, auth: httpx2.Auth | None = None) -> httpx2.AsyncClient:
    """The HTTP client for Streamable HTTP: the spec's headers, and no read timeout."""
    return create_mcp_http_client(
        headers=dict(target.headers) or None,
        timeout=httpx2.Timeout(HTTP_TIMEOUT, read=None),
        auth=auth,
    )


@asynccontextmanager
async def _streamable_http(
    target: HttpTarget,
    auth: httpx2.Auth | None = None,
    http_status: HttpStatusLog | None = None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    big: BigPayloads | None = None,
) -> AsyncIterator[TransportStreams]:
    http = http_client(target, auth)
    if http_status is not None:
        http_status.watch(http)
    if big is not None:
        big.watch(http)
    async with (
        http,
        streamable_http_client(
            target.url, http_client=http, max_sse_event_size=max_message_bytes
        ) as streams,
    ):
        yield streams


def describe_connect_failure(
    spec: ServerSpec,
    exc: BaseException,
    stderr_tail: str = "",
    http_error: HttpError | None = None,
) -> str:
    """One readable sentence (plus the server's last stderr, if any) for a failed connection.

    ``http_error`` is the last HTTP error status seen (``HttpStatusLog.last``): it names the status
    behind the SDK's "-32603 Server returned an error response" (a 401 says what to do).
    """
    leaf = primary_exception(exc)
    if isinstance(leaf, AuthorizationError):  # OAuth: the sentence is already for the user
        return str(leaf)
    target = spec.target
    tail = f" Last stderr: {stderr_tail}" if stderr_tail else ""
    if isinstance(target, StdioTarget):
        command = target.command
        if isinstance(leaf, FileNotFoundError | NotADirectoryError):
            if target.cwd is not None and not os.path.isdir(target.cwd):
                return (
                    f"Cannot start {command!r}: the working directory {target.cwd!r} "
                    "does not exist."
                )
            path = (target.env or {}).get("PATH") or get_default_environment().get("PATH")
            if shutil.which(command, path=path) is None:
                return f"Cannot start {command!r}: no such command (not found on PATH)."
            return f"Cannot start {command!r}: {leaf.strerror or leaf}."
        if isinstance(leaf, PermissionError):
            return f"Cannot start {command!r}: permission denied."
        if isinstance(leaf, OSError) and not isinstance(leaf, ConnectionError):
            return f"Cannot start {command!r}: {leaf.strerror or leaf}."
        where = f"The server {target.describe()!r}"
    else:
        url = target.url
        if isinstance(leaf, httpx2.ConnectError):
            return f"Cannot connect to {url}: the connection was refused or failed ({leaf})."
        if isinstance(leaf, httpx2.TimeoutException):
            return f"Cannot connect to {url}: timed out."
        if isinstance(leaf, httpx2.HTTPStatusError):
            code = leaf.response.status_code
            reason = leaf.response.reason_phrase
            if code == 401:
                return explain_status(spec, code, reason)
            return f"{url} answered HTTP {code} {reason}; is this an MCP endpoint?"
        if isinstance(leaf, httpx2.HTTPError):
            return f"Cannot connect to {url}: {leaf}."
        where = f"The server at {url}"
    if isinstance(leaf, MCPError):
        if http_error is not None and sdk_http_error(leaf.code, leaf.message):
            return explain_status(spec, http_error.status, http_error.reason)
        if leaf.code == -32000:
            return f"{where} closed the connection during start-up.{tail}"
        return f"{where} refused the handshake: {describe_code(leaf.code)}: {leaf.message}.{tail}"
    text = str(leaf).strip() or type(leaf).__name__
    return f"{where} could not be reached: {text}.{tail}"
