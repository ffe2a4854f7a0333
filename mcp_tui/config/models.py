"""The pydantic models of our TOML config: one frozen, strict model per table.

``extra="forbid"``: a typo in our own file is an error with its key path and line (``load.py``
adds the line). Every field has a description; ``config.example.toml`` documents each one and a
test checks that it does. The JSON files of other clients are translated into these same models.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from mcp_tui.config.chat_settings import ChatSettings, ProviderKind
from mcp_tui.config.oauth_settings import Grant, OAuthSettings, TokenEndpointAuthMethod
from mcp_tui.config.servers import (
    DEFAULT_RATE_LIMIT,
    DEFAULT_TRANSPORT,
    ElicitationPolicy,
    ProtocolMode,
    SamplingPolicy,
    Transport,
)
from mcp_tui.config.settings import AppSettings

# The defaults are written once, in the plain records these tables become (see ``DEFAULT_MODE``
# in ``config/servers.py`` for why there); an empty table gives exactly what no file gives.
_APP = AppSettings()
_OAUTH = OAuthSettings()


class ConfigModel(BaseModel):
    """Frozen, strict, and no unknown keys: the shape of every table in our TOML."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def check_url(url: str) -> str:
    """The URL without surrounding blanks, if it is http(s) with a host; else ``ValueError``."""
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not an http:// or https:// URL with a host")
    return url.strip()


class RateLimitConfig(ConfigModel):
    """Automatic anti-spam limit for elicitation requests from one server."""

    count: int = Field(
        default=DEFAULT_RATE_LIMIT.count,
        ge=1,
        description="How many requests within `seconds` are allowed before the stop.",
    )
    seconds: float = Field(
        default=DEFAULT_RATE_LIMIT.seconds,
        gt=0,
        description="The length of the window, in seconds.",
    )


class AppConfig(ConfigModel):
    """The ``[app]`` table: settings for the whole run."""

    review_before_send: bool = Field(
        default=_APP.review_before_send,
        description="Show a summary of the content before an accepted form is sent.",
    )
    traffic_log: str | None = Field(
        default=None, description="Write every JSON-RPC message as JSON Lines here (like `--log`)."
    )
    stderr_log: str | None = Field(
        default=None,
        description="Where server stderr is written; unset chooses the platform log directory.",
    )
    mode: ProtocolMode = Field(
        default=_APP.mode,
        description="Default protocol mode for servers that do not set their own.",
    )
    elicitation: ElicitationPolicy = Field(
        default=_APP.elicitation,
        description="Default elicitation policy for servers that do not set their own.",
    )
    sampling: SamplingPolicy = Field(
        default=_APP.sampling,
        description="Default sampling policy for servers that do not set their own.",
    )
    rate_limit: RateLimitConfig = Field(
        default_factory=RateLimitConfig,
        description="The anti-spam limit for elicitation and sampling requests.",
    )
    connect_timeout: float = Field(
        default=_APP.connect_timeout,
        gt=0,
        description="Seconds a server may take to answer the handshake (like `--connect-timeout`).",
    )
    arming_delay: float | None = Field(
        default=None,
        ge=0,
        description=(
            "Seconds a newly shown question ignores its accepting key and button (0: none); "
            "unset: 0.6."
        ),
    )


class ChatConfig(ConfigModel):
    """The ``[chat]`` table: the model of ``mcp-tui chat`` (the chat extra). Keys are never
    written here: only the name of the environment variable that holds one."""

    provider: ProviderKind | None = Field(
        default=None,
        description="Unset: from base_url (openai-compatible) or the first key in the environment.",
    )
    model: str | None = Field(default=None, description="Unset: the provider's default model.")
    base_url: str | None = Field(
        default=None,
        description="An OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 (Ollama).",
    )
    api_key_env: str | None = Field(
        default=None,
        description="The environment variable holding the key (default: ANTHROPIC_API_KEY or "
        "OPENAI_API_KEY by provider).",
    )
    system_prompt: str | None = Field(default=None, description="Unset: mcp-tui's own prompt.")

    def settings(self) -> ChatSettings:
        values = {k: v for k, v in self.model_dump().items() if v is not None}
        return ChatSettings(**values)


class CheckConfig(ConfigModel):
    """The ``[check]`` table: the checks ``mcp-tui check`` leaves out, and how strict it is."""

    ignore: list[str] = Field(
        default_factory=list,
        description='Check ids not to run (as --ignore): e.g. ["T202", "T203"].',
    )
    strict: bool = Field(default=False, description="Exit 1 on warnings too (as --strict).")


class OAuthConfig(ConfigModel):
    """``[servers.NAME.oauth]``: OAuth for an HTTP server; nothing is needed for servers that
    support discovery and dynamic client registration (see ``config/oauth_settings.py``)."""

    enabled: bool = Field(
        default=_OAUTH.enabled,
        description="false: never sign in with OAuth (e.g. a static header is used).",
    )
    grant: Grant = Field(
        default=_OAUTH.grant,
        description="authorization_code (sign in with a browser, in the TUI) or "
        "client_credentials (pre-registered secret, no browser; works headless).",
    )
    client_id: str | None = Field(
        default=None, description="A client registered beforehand (skips dynamic registration)."
    )
    client_secret: str | None = Field(
        default=None, description="Its secret; prefer client_secret_env to keep it out of files."
    )
    client_secret_env: str | None = Field(
        default=None, description="Name of an environment variable holding the client secret."
    )
    token_endpoint_auth_method: TokenEndpointAuthMethod | None = Field(
        default=None,
        description="none, client_secret_basic or client_secret_post (default: basic with a "
        "secret, none without; client_secret_post for dynamic registration).",
    )
    scope: str | None = Field(
        default=None, description="Space-separated scopes to request besides the server's."
    )
    redirect_port: int | None = Field(
        default=None,
        ge=1,
        le=65535,
        description="Fixed port of the 127.0.0.1 redirect listener (unset: a random free port).",
    )
    client_metadata_url: str | None = Field(
        default=None,
        description="https URL of a client ID metadata document you host, used as client_id "
        "where the authorization server supports it.",
    )
    issuer: str | None = Field(
        default=None,
        description="client_credentials: the authorization server the credentials belong to.",
    )

    def settings(self) -> OAuthSettings:
        return OAuthSettings(**self.model_dump())


class ServerCommon(ConfigModel):
    mode: ProtocolMode | None = Field(
        default=None,
        description="auto (initialize first: 2025-11-25; 2026-07-28 only for servers that "
        "refuse it), legacy (initialize only) or 2026-07-28.",
    )
    elicitation: ElicitationPolicy | None = Field(
        default=None, description="ask (show a form), decline or cancel every request at once."
    )
    sampling: SamplingPolicy | None = Field(
        default=None,
        description="ask (show the request for you to answer), decline or cancel every "
        "sampling/createMessage request at once.",
    )
    enabled: bool = Field(
        default=True, description="When false the server opens only if named with `--server`."
    )
    roots: list[str] | None = Field(
        default=None,
        description="Directories offered to the server as roots (relative: to this file); "
        "unset: the directory mcp-tui was started in (none for a server whose args name "
        "directories: it keeps those); [] offers none.",
    )


class StdioServerConfig(ServerCommon):
    """A ``[servers.NAME]`` table with ``command``: a child process speaking MCP on stdio."""

    command: str = Field(min_length=1, description="The program to start (looked up on PATH).")
    args: list[str] = Field(default_factory=list, description="Its arguments, one per item.")
    env: dict[str, str] = Field(
        default_factory=dict, description="Extra environment variables for the child process."
    )
    inherit_env: bool = Field(
        default=False,
        description="true: the child gets mcp-tui's whole environment (env over it); false: only "
        "HOME, LOGNAME, PATH, SHELL, TERM and USER (env over them).",
    )
    cwd: str | None = Field(default=None, description="Working directory (relative: to this file).")


class HttpServerConfig(ServerCommon):
    """A ``[servers.NAME]`` table with ``url``: a server reached over HTTP."""

    url: str = Field(description="The endpoint, e.g. http://127.0.0.1:8000/mcp.")
    transport: Transport = Field(
        default=DEFAULT_TRANSPORT,
        description="streamable-http, or sse for the legacy HTTP+SSE transport.",
    )
    headers: dict[str, str] = Field(
        default_factory=dict, description="HTTP headers sent with every request."
    )
    oauth: OAuthConfig | None = Field(
        default=None, description="OAuth settings; unset: discovery and dynamic registration."
    )
