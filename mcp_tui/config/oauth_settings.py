"""Per-server OAuth settings: what the user configured, before any server was asked anything.

Pure data (no ``mcp``): built by ``config`` from a ``[servers.NAME.oauth]`` table and carried on
:class:`~mcp_tui.config.servers.HttpTarget`. The defaults need no configuration at all: discovery
(protected resource metadata, then authorization server metadata), dynamic client registration and
the authorization code flow with PKCE, all done by the SDK when a server answers 401.

Configure only what the authorization server cannot tell us: a client it registered for us
beforehand (``client_id``/``client_secret``, and the exact loopback port it was registered with),
the scopes to ask for beyond what the server challenges with, a client ID metadata document we host
(``client_metadata_url``), or the machine-to-machine ``client_credentials`` grant, which needs no
browser and so also works in headless ``mcp-tui call``.
"""

from __future__ import annotations

import os
from typing import Literal

from msgspec import Struct

#: How the token endpoint authenticates us. ``none`` is a public client (PKCE only).
TokenEndpointAuthMethod = Literal["none", "client_secret_basic", "client_secret_post"]

#: ``authorization_code`` asks a person in a browser (TUI only); ``client_credentials`` is
#: machine-to-machine with a pre-registered secret (works headless).
Grant = Literal["authorization_code", "client_credentials"]

#: What we ask for when registering dynamically and nothing is configured. ``client_secret_post``
#: is what most MCP authorization servers accept from a dynamically registered client (the
#: TypeScript SDK's authorization server checks the secret only in the body); the server's answer
#: decides in the end, and the SDK uses whatever method it assigned.
DEFAULT_REGISTRATION_AUTH_METHOD: TokenEndpointAuthMethod = "client_secret_post"


class OAuthSettings(Struct, frozen=True):
    """One server's OAuth configuration; every field is optional."""

    #: ``False``: never answer a 401 with OAuth (for servers reached with a static header).
    enabled: bool = True
    grant: Grant = "authorization_code"
    #: A client registered beforehand; when set, dynamic registration is never attempted.
    client_id: str | None = None
    client_secret: str | None = None
    #: Name of an environment variable holding the client secret (instead of the config file).
    client_secret_env: str | None = None
    token_endpoint_auth_method: TokenEndpointAuthMethod | None = None
    #: Space-separated scopes to request in addition to those the server challenges with.
    scope: str | None = None
    #: The loopback port the redirect listener uses. Unset: a random free port (RFC 8252 lets a
    #: native client pick any loopback port; set this when the client was registered with one).
    redirect_port: int | None = None
    #: An https URL of a client ID metadata document we host; used as ``client_id`` when the
    #: authorization server advertises ``client_id_metadata_document_supported``.
    client_metadata_url: str | None = None
    #: The issuer the pre-registered credentials belong to (``client_credentials``): tokens are
    #: then only requested from that authorization server.
    issuer: str | None = None

    @property
    def preregistered(self) -> bool:
        return bool(self.client_id)

    def secret(self, environ: dict[str, str] | None = None) -> str | None:
        """The client secret: ``client_secret``, else the variable ``client_secret_env`` names."""
        if self.client_secret:
            return self.client_secret
        if self.client_secret_env:
            env = os.environ if environ is None else environ
            return env.get(self.client_secret_env) or None
        return None

    def auth_method(self, environ: dict[str, str] | None = None) -> TokenEndpointAuthMethod:
        """The configured method, else ``client_secret_basic`` with a secret (RFC 6749's default
        for a confidential client) and ``none`` without one."""
        if self.token_endpoint_auth_method is not None:
            return self.token_endpoint_auth_method
        return "client_secret_basic" if self.secret(environ) else "none"
