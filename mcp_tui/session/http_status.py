"""The HTTP status behind the SDK's "-32603 Server returned an error response", in words.

``mcp`` 2.3.0's Streamable HTTP transport turns any HTTP error answer to a request (other than 404,
and unless the body is a JSON-RPC error) into the JSON-RPC error ``-32603 Server returned an error
response``, dropping the status. For a 401 that is the one thing the user needs: the server wants
authorization, and mcp-tui did not give it (OAuth is switched off for the server) or the token in
a static ``Authorization`` header was refused. :class:`HttpStatusLog` watches the responses of our
HTTP client (an ``httpx2`` response hook) and keeps the last error status; :func:`explain_status`
turns it into a sentence with what to do.
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx2

from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.oauth.provider import oauth_settings

#: The SDK's stand-in message for an HTTP error status (``streamable_http.py``).
SDK_HTTP_ERROR_MESSAGE = "Server returned an error response"


@dataclass(frozen=True)
class HttpError:
    status: int
    reason: str


class HttpStatusLog:
    """The last HTTP error status a server answered (a response hook; cheap, never raises)."""

    def __init__(self) -> None:
        self.last: HttpError | None = None

    async def hook(self, response: httpx2.Response) -> None:
        if response.status_code >= 400:
            self.last = HttpError(response.status_code, response.reason_phrase or "")

    def watch(self, client: httpx2.AsyncClient) -> None:
        hooks = client.event_hooks
        hooks["response"] = [*hooks.get("response", []), self.hook]
        client.event_hooks = hooks


def explain_status(spec: ServerSpec, status: int, reason: str) -> str:
    """``answered HTTP 401 Unauthorized: ...`` with what to do, for one server."""
    target = spec.target
    url = target.url if isinstance(target, HttpTarget) else spec.name
    text = f"{url} answered HTTP {status} {reason or ''}".rstrip()
    if status != 401:
        return text + "."
    has_header = isinstance(target, HttpTarget) and any(
        name.strip().lower() == "authorization" for name in target.headers
    )
    if has_header:
        return (
            f"{text}: the server refused the Authorization header given for it (a wrong or "
            'expired token?). Check --header "Authorization: Bearer …", or leave the header out '
            "to sign in with OAuth."
        )
    if oauth_settings(spec) is None:
        return (
            f"{text}: the server wants authorization, and OAuth is switched off for "
            f'{spec.name}. Pass a token with --header "Authorization: Bearer …", or turn OAuth '
            f"on (enabled = true in [servers.{spec.name}.oauth])."
        )
    return (
        f"{text}: the server wants authorization but did not start an OAuth sign-in (no usable "
        'WWW-Authenticate challenge?). Pass a token with --header "Authorization: Bearer …".'
    )


def sdk_http_error(code: int | None, message: str | None) -> bool:
    """True for the SDK's ``-32603`` stand-in for an HTTP error status."""
    return code == -32603 and SDK_HTTP_ERROR_MESSAGE in (message or "")
