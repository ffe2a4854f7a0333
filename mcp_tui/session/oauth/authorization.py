"""The seam between an MCP server that wants OAuth and the person who signs in (TUI or nobody).

When a server answers 401, the SDK's ``OAuthClientProvider`` discovers the authorization server,
registers mcp-tui (or uses configured credentials) and builds an authorization URL. That URL is
built from metadata the server chose, so it gets exactly the treatment of a URL-mode elicitation:
the session hands an :class:`AuthorizationRequest` to the :class:`AuthorizationHandler`, which
shows the same consent screen (``url.check`` verdict, host, warnings, whole URL) and opens the URL
only on the user's say-so through ``browser.open_url_async``. The browser comes back to a one-shot
listener on ``127.0.0.1`` (:class:`PendingRedirect`), or the user pastes the address it landed on.

Nothing here imports ``mcp`` or ``textual``. Headless commands pass no handler: a server that needs
a person to sign in then fails with :class:`AuthorizationRequired`, whose message says what to do.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from mcp_tui.errors import McpTuiError
from mcp_tui.untrusted import command_line

AuthorizationAction = Literal["accept", "decline", "cancel"]


class AuthorizationError(McpTuiError):
    """OAuth authorization did not complete; the message is for the person reading it."""


class AuthorizationRequired(AuthorizationError):
    """The server needs a person to sign in, and no one can (a headless command)."""


class AuthorizationRefused(AuthorizationError):
    """The user declined or cancelled the sign-in, or the authorization server refused it."""


@dataclass(frozen=True)
class RedirectResult:
    """What came back to the redirect URI: a code, or the authorization server's error."""

    code: str | None = None
    state: str | None = None
    #: RFC 9207 ``iss``: the SDK checks it against the authorization server's issuer.
    iss: str | None = None
    error: str | None = None
    error_description: str | None = None
    #: ``listener`` (the browser came back) or ``pasted`` (the user pasted the address).
    via: Literal["listener", "pasted"] = "listener"


class PendingRedirect(Protocol):
    """The redirect a sign-in waits for (implemented by ``oauth.redirect.RedirectListener``)."""

    @property
    def redirect_uri(self) -> str:
        """``http://127.0.0.1:PORT/callback``: where the browser is sent back to."""
        ...

    @property
    def refused(self) -> tuple[str, ...]:
        """Why earlier arrivals were refused (a wrong ``state``, a wrong path), oldest first."""
        ...

    async def wait(self) -> RedirectResult:
        """Wait for the browser (or a paste) to deliver the redirect; a wrong ``state`` is
        refused and waiting goes on."""
        ...

    def paste(self, text: str) -> str | None:
        """Deliver a pasted redirect address; the reason it was refused, or ``None`` if taken."""
        ...

    def on_refused(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(reason)`` each time an arrival is refused (the wait screen shows it)."""
        ...


@dataclass(frozen=True)
class AuthorizationRequest:
    """One sign-in to show. ``server`` and ``server_url`` are ours (command line or config);
    ``url`` and ``authorization_server`` come from the server's metadata and are untrusted."""

    server: str
    server_url: str
    #: The authorization URL exactly as built; check it with ``url.check`` before showing.
    url: str
    redirect: PendingRedirect
    #: The authorization server's issuer (from discovery), for the screen; may be ``None``.
    authorization_server: str | None = None
    scopes: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """What the consent screen says above the URL (our text, not the server's)."""
        lines = [
            f"The server {self.server_url} requires you to sign in (OAuth).",
            "Opening the link lets its authorization server ask you to log in and approve "
            "access for mcp-tui.",
        ]
        if self.scopes:
            lines.append("Access requested (scopes): " + " ".join(self.scopes))
        lines.append(f"Your browser then returns to mcp-tui at {self.redirect.redirect_uri}.")
        return "\n".join(lines)


@dataclass(frozen=True)
class AuthorizationOutcome:
    """``accept`` once the redirect arrived; ``decline``/``cancel`` when the user stopped."""

    action: AuthorizationAction
    note: str | None = None


class AuthorizationHandler(Protocol):
    """Gets the user's consent, opens the URL and waits for the redirect. Must not raise.

    Contract: show ``ElicitationRequest.for_sign_in(request)`` on the URL consent screen; if the
    user accepts (which opens the URL), wait for ``request.redirect.wait()`` while offering to
    paste the address the browser landed on (``request.redirect.paste``) and to cancel; return
    ``accept`` once ``wait()`` returned, else ``decline``/``cancel``. If the sign-in is abandoned
    (the connection closes) the awaiting task is cancelled: close the screens in a ``finally``.
    """

    async def authorize(self, request: AuthorizationRequest) -> AuthorizationOutcome: ...


#: Optional progress notes for the transcript ("signed in", "token refreshed"); never secrets.
AuthNotifier = Callable[[str], None]
AsyncAuthorize = Callable[[AuthorizationRequest], Awaitable[AuthorizationOutcome]]


def headless_message(server: str, server_url: str) -> str:
    """Why a headless command cannot continue, and what the user can do instead."""
    return (
        f"{server_url} requires you to sign in (OAuth), which needs a person and a browser: "
        f"run `{command_line('mcp-tui', server)}` once and sign in there (the tokens are stored "
        "and reused by `mcp-tui call`), or configure pre-registered client credentials with "
        'grant = "client_credentials" for this server.'
    )
