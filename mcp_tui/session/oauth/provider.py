"""The SDK's OAuth client, wired to mcp-tui: token files, the loopback listener, the consent seam.

:func:`build_auth` returns the ``httpx2.Auth`` for one HTTP server (or ``None``: stdio, OAuth
disabled, or a static ``Authorization`` header, which always wins). It is the SDK's
``OAuthClientProvider``, which does the protocol — protected resource and authorization server
discovery, dynamic client registration or a client ID metadata document, PKCE, scope selection and
step-up, the token exchange, refresh — with three things of ours:

- **Storage** (:class:`FileTokenStorage`): the owner-only token file of ``oauth.store``, plus the
  absolute expiry the SDK does not keep, restored on start so an expired token is refreshed
  instead of being sent and bounced (a 401 would mean signing in again).
- **The redirect**: a random loopback port chosen before registration (registered redirect URIs
  must match exactly) and reused while that registration lives; the one-shot listener
  (``oauth.redirect``) is open only while a sign-in waits.
- **Consent**: the authorization URL goes to the
  :class:`~mcp_tui.session.oauth.authorization.AuthorizationHandler` (the TUI's URL consent
  screen) and is opened only if the user agrees. Without a handler (headless), a sign-in
  fails at once with :class:`~mcp_tui.session.oauth.authorization.AuthorizationRequired`.

``grant = "client_credentials"`` uses the SDK's ``ClientCredentialsOAuthProvider`` instead: no
person, no browser, so it also works headless.
"""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx2
from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.utils import union_scopes
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)
from pydantic import AnyUrl, ValidationError

from mcp_tui import __version__
from mcp_tui.config.oauth_settings import DEFAULT_REGISTRATION_AUTH_METHOD, OAuthSettings
from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.oauth.authorization import (
    AuthNotifier,
    AuthorizationError,
    AuthorizationHandler,
    AuthorizationRefused,
    AuthorizationRequest,
    AuthorizationRequired,
    headless_message,
)
from mcp_tui.session.oauth.redirect import (
    CALLBACK_PATH,
    LOOPBACK,
    RedirectListener,
    free_loopback_port,
    open_redirect_listener,
)
from mcp_tui.session.oauth.store import TokenFile

#: How long a sign-in may wait for the user and the browser before it is given up.
AUTHORIZATION_TIMEOUT = 15 * 60.0
CLIENT_NAME = "mcp-tui"


class FileTokenStorage:
    """The SDK's ``TokenStorage`` on a :class:`TokenFile`; configured credentials override the
    stored registration and are never written to disk."""

    def __init__(
        self,
        file: TokenFile,
        fixed_client: OAuthClientInformationFull | None = None,
        on_tokens: Callable[[bool], None] | None = None,
    ) -> None:
        self.file = file
        self.fixed_client = fixed_client
        self._on_tokens = on_tokens

    async def get_tokens(self) -> OAuthToken | None:
        raw = self.file.load().get("tokens")
        if not isinstance(raw, dict):
            return None
        try:
            return OAuthToken.model_validate(raw)
        except ValidationError:
            return None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        had_tokens = isinstance(self.file.load().get("tokens"), dict)
        expires_at = time.time() + tokens.expires_in if tokens.expires_in else None
        self.file.update(
            tokens=tokens.model_dump(mode="json", exclude_none=True), expires_at=expires_at
        )
        if self._on_tokens is not None:
            self._on_tokens(had_tokens)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        if self.fixed_client is not None:
            return self.fixed_client
        raw = self.file.load().get("client_info")
        if not isinstance(raw, dict):
            return None
        try:
            return OAuthClientInformationFull.model_validate(raw)
        except ValidationError:
            return None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        if self.fixed_client is None:
            self.file.update(client_info=client_info.model_dump(mode="json", exclude_none=True))

    def expires_at(self) -> float | None:
        value = self.file.load().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    def drop_registration(self) -> None:
        """Forget a dynamic registration (its redirect URI can no longer be served)."""
        if self.fixed_client is None:
            self.file.update(client_info=None)


def _redirect_port(uri: object) -> int | None:
    parts = urlsplit(str(uri))
    try:
        port = parts.port
    except ValueError:
        return None
    if parts.scheme == "http" and parts.hostname == LOOPBACK and parts.path == CALLBACK_PATH:
        return port
    return None


class McpTuiOAuthProvider(OAuthClientProvider):
    """``OAuthClientProvider`` with our redirect listener and consent seam (module docstring)."""

    def __init__(
        self,
        *,
        server: str,
        server_url: str,
        settings: OAuthSettings,
        storage: FileTokenStorage,
        handler: AuthorizationHandler | None,
        timeout: float = AUTHORIZATION_TIMEOUT,
        on_person: Callable[[bool], None] | None = None,
    ) -> None:
        metadata = OAuthClientMetadata(
            # Replaced in _initialize, before any registration, by the port we will listen on.
            redirect_uris=[AnyUrl(f"http://{LOOPBACK}{CALLBACK_PATH}")],
            client_name=CLIENT_NAME,
            software_id=CLIENT_NAME,
            software_version=__version__,
            grant_types=["authorization_code", "refresh_token"],
            token_endpoint_auth_method=(
                settings.token_endpoint_auth_method or DEFAULT_REGISTRATION_AUTH_METHOD
            ),
            scope=settings.scope,
        )
        super().__init__(
            server_url,
            metadata,
            storage,
            redirect_handler=self._open_authorization,
            callback_handler=self._redirect_result,
            client_metadata_url=settings.client_metadata_url,
        )
        self.server = server
        self.settings = settings
        self.storage = storage
        self.handler = handler
        self.timeout = timeout
        self.on_person = on_person
        self.port: int | None = None
        self._listener: RedirectListener | None = None

    # ---- start: stored tokens, their expiry, the redirect port ----------------------------------

    async def _initialize(self) -> None:
        await super()._initialize()
        if self.context.current_tokens is not None:
            self.context.token_expiry_time = self.storage.expires_at()
        self.port = self._choose_port()
        uri = AnyUrl(f"http://{LOOPBACK}:{self.port}{CALLBACK_PATH}")
        self.context.client_metadata.redirect_uris = [uri]

    def _choose_port(self) -> int:
        if self.settings.redirect_port:
            return self.settings.redirect_port
        client = self.context.client_info
        if client is not None and self.storage.fixed_client is None and client.redirect_uris:
            port = _redirect_port(client.redirect_uris[0])
            if port:
                return port
        return free_loopback_port()

    # ---- the browser step -----------------------------------------------------------------------

    async def _perform_authorization_code_grant(self) -> tuple[str, str]:
        if self.handler is None:
            raise AuthorizationRequired(headless_message(self.server, self.context.server_url))
        if self.settings.scope:
            scope = union_scopes(self.settings.scope, self.context.client_metadata.scope)
            self.context.client_metadata.scope = scope
        assert self.port is not None
        async with contextlib.AsyncExitStack() as stack:
            try:
                listener = await stack.enter_async_context(open_redirect_listener(self.port))
            except OSError as exc:
                self.storage.drop_registration()
                self._initialized = False
                raise AuthorizationError(
                    f"Cannot listen for the sign-in on {LOOPBACK}:{self.port} "
                    f"({exc.strerror or exc}); try again"
                    + (" (a new port will be used)." if not self.settings.redirect_port else ".")
                ) from exc
            self._listener = listener
            try:
                return await super()._perform_authorization_code_grant()
            finally:
                self._listener = None

    async def _open_authorization(self, url: str) -> None:
        listener = self._listener
        assert listener is not None and self.handler is not None
        state = parse_qs(urlsplit(url).query).get("state", [""])[0]
        listener.arm(state)
        metadata = self.context.oauth_metadata
        scope = self.context.client_metadata.scope or ""
        request = AuthorizationRequest(
            server=self.server,
            server_url=self.context.server_url,
            url=url,
            redirect=listener,
            authorization_server=str(metadata.issuer) if metadata is not None else None,
            scopes=tuple(scope.split()),
        )
        if self.on_person is not None:
            self.on_person(True)
        try:
            with anyio.fail_after(self.timeout):
                outcome = await self.handler.authorize(request)
        except TimeoutError as exc:
            raise AuthorizationError(
                f"The sign-in was given up: no answer within {self.timeout / 60:g} minutes."
            ) from exc
        except Exception as exc:  # a handler must not raise; if it does, stop cleanly
            raise AuthorizationError(f"The sign-in failed: {exc!r}") from exc
        finally:
            if self.on_person is not None:
                self.on_person(False)
        if outcome.action != "accept":
            verb = "declined" if outcome.action == "decline" else "cancelled"
            raise AuthorizationRefused(f"The sign-in to {self.context.server_url} was {verb}.")
        result = listener.result
        if result is None:
            raise AuthorizationError("The sign-in ended before the browser came back.")
        if result.error:
            detail = f": {result.error_description}" if result.error_description else ""
            raise AuthorizationRefused(
                f"The authorization server refused the sign-in ({result.error}{detail})."
            )

    async def _redirect_result(self) -> AuthorizationCodeResult:
        listener = self._listener
        result = listener.result if listener is not None else None
        if result is None or not result.code:
            raise AuthorizationError("No authorization code arrived.")
        return AuthorizationCodeResult(code=result.code, state=result.state, iss=result.iss)


def _client_credentials(
    url: str, settings: OAuthSettings, storage: FileTokenStorage
) -> httpx2.Auth:
    from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider

    secret = settings.secret()
    if not settings.client_id or not secret:
        raise AuthorizationError(
            'grant = "client_credentials" needs client_id and client_secret '
            "(or client_secret_env) in this server's oauth settings."
        )
    method = settings.auth_method()
    if method == "none":
        method = "client_secret_basic"
    with warnings.catch_warnings():  # a missing issuer is allowed (deprecated) by the SDK
        warnings.simplefilter("ignore")
        return ClientCredentialsOAuthProvider(
            url,
            storage,
            settings.client_id,
            secret,
            token_endpoint_auth_method=method,
            scope=settings.scope,
            issuer=settings.issuer,
        )


def _fixed_client(settings: OAuthSettings) -> OAuthClientInformationFull | None:
    if not settings.client_id:
        return None
    return OAuthClientInformationFull(
        client_id=settings.client_id,
        client_secret=settings.secret(),
        token_endpoint_auth_method=settings.auth_method(),
        redirect_uris=None,
        grant_types=["authorization_code", "refresh_token"],
        scope=settings.scope,
    )


def oauth_settings(spec: ServerSpec) -> OAuthSettings | None:
    """The OAuth settings that apply to ``spec``, or ``None`` when OAuth is off for it."""
    target = spec.target
    if not isinstance(target, HttpTarget):
        return None
    configured: Any = getattr(target, "oauth", None)
    settings = configured if isinstance(configured, OAuthSettings) else OAuthSettings()
    if not settings.enabled:
        return None
    if any(name.strip().lower() == "authorization" for name in target.headers):
        return None  # a static bearer token (or other scheme) was configured: it wins
    return settings


def build_auth(
    spec: ServerSpec,
    handler: AuthorizationHandler | None,
    *,
    notify: AuthNotifier | None = None,
    directory: Path | None = None,
    timeout: float = AUTHORIZATION_TIMEOUT,
    on_person: Callable[[bool], None] | None = None,
) -> httpx2.Auth | None:
    """The ``httpx2.Auth`` for ``spec`` (see the module docstring), or ``None``.

    ``notify`` gets fixed progress sentences (never a token); ``on_person(True/False)`` brackets
    the time a person is at the consent screen or in the browser, so timeouts can leave it out.
    """
    settings = oauth_settings(spec)
    if settings is None:
        return None
    assert isinstance(spec.target, HttpTarget)
    url = spec.target.url

    def saved(refreshed: bool) -> None:
        if notify is not None:
            notify("access token refreshed and stored" if refreshed else "signed in; token stored")

    file = TokenFile(url, directory)
    storage = FileTokenStorage(file, _fixed_client(settings), on_tokens=saved)
    if settings.grant == "client_credentials":
        storage.fixed_client = None  # the SDK provider holds its own client record
        return _client_credentials(url, settings, storage)
    return McpTuiOAuthProvider(
        server=spec.name,
        server_url=url,
        settings=settings,
        storage=storage,
        handler=handler,
        timeout=timeout,
        on_person=on_person,
    )
