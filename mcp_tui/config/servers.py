"""Server specifications: how to reach one MCP server, independent of where the spec came from.

Built by ``mcp_tui.config.load`` (config files) and ``mcp_tui.cli.main`` (command line); consumed by
``connection.py``. Pure data: importing this module does not import ``mcp``.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct, field

from mcp_tui.config.oauth_settings import OAuthSettings

#: ``auto`` sends ``initialize`` (2025-11-25) and adopts 2026-07-28 only when a server refuses it
#: (``session/era.py`` says why); ``legacy`` never tries 2026-07-28, ``2026-07-28`` always uses it.
ProtocolMode = Literal["auto", "legacy", "2026-07-28"]

#: How elicitation requests from this server are answered: shown to the user, or refused at once.
ElicitationPolicy = Literal["ask", "decline", "cancel"]
#: The same for ``sampling/createMessage``: shown for a person to answer, or refused at once.
SamplingPolicy = ElicitationPolicy

Transport = Literal["streamable-http", "sse"]

#: Seconds a server may take to answer the handshake before the connection fails with a message
#: saying so (``connect_timeout`` in ``[app]``, ``--connect-timeout``). The one default: the
#: config model, the app's options and ``ServerConnection`` all read it from here.
DEFAULT_CONNECT_TIMEOUT = 30.0


class RateLimit(Struct, frozen=True):
    """The automatic anti-spam limit on one server's elicitation requests: more than ``count``
    within ``seconds`` stops its requests until the user turns asking back on."""

    count: int = 10
    seconds: float = 10.0


# The defaults of the settings a config file, the command line and the session layer share, each
# written here once (plain data: the command line reads them without importing pydantic). The
# config models, AppSettings, AppOptions, ServerSpec, the connection and the gate take them from
# here; tests/config/test_config_defaults.py pins what an empty config file gives.
DEFAULT_MODE: ProtocolMode = "auto"
DEFAULT_ELICITATION: ElicitationPolicy = "ask"
DEFAULT_SAMPLING: SamplingPolicy = "ask"
DEFAULT_TRANSPORT: Transport = "streamable-http"
DEFAULT_RATE_LIMIT = RateLimit()


class StdioTarget(Struct, frozen=True):
    """A server started as a child process speaking MCP on stdin/stdout."""

    command: str
    args: tuple[str, ...] = ()
    #: Variables set for the child, over the base environment (below).
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    #: The base environment: ``True``, the caller's whole environment, as a shell passes it on
    #: (servers named on the command line); ``False``, the SDK's safe default (``HOME``,
    #: ``LOGNAME``, ``PATH``, ``SHELL``, ``TERM``, ``USER``), for config servers unless they set
    #: ``inherit_env``. ``session/head_start.server_environment`` builds it.
    inherit_env: bool = False

    def describe(self) -> str:
        return " ".join((self.command, *self.args))


class HttpTarget(Struct, frozen=True):
    """A server reached over Streamable HTTP (default) or the legacy HTTP+SSE transport."""

    url: str
    transport: Transport = DEFAULT_TRANSPORT
    headers: dict[str, str] = field(default_factory=dict)
    #: OAuth for this server (``oauth_settings``); ``None`` means the defaults (discovery and
    #: dynamic registration when the server answers 401).
    oauth: OAuthSettings | None = None

    def describe(self) -> str:
        return self.url if self.transport == "streamable-http" else f"{self.url} (sse)"


class ServerSpec(Struct, frozen=True):
    """One server to connect to. ``name`` is ours (command line or config), never the server's."""

    name: str
    target: StdioTarget | HttpTarget
    mode: ProtocolMode = DEFAULT_MODE
    elicitation: ElicitationPolicy = DEFAULT_ELICITATION
    sampling: SamplingPolicy = DEFAULT_SAMPLING
    #: The directories offered as roots (absolute paths); ``None``: the working directory.
    roots: tuple[str, ...] | None = None
    #: ``False``: connect as a client without elicitation (the capability is not advertised, and
    #: a request that comes anyway is refused by the SDK): ``check --no-elicitation``.
    advertise_elicitation: bool = True
    #: ``name`` was derived from a command line that says how the server starts, not which server
    #: it is (``python server.py``: ``server``): it stays the key, and the server is shown by the
    #: name it announces in ``serverInfo`` once connected (``session/naming.py``).
    name_is_generic: bool = False
    #: The values its config's ``${VAR}``s took from the environment (a CI secret, a token):
    #: a file written from a session ("Save as a test", ``--record``, ``--save-answers``) never
    #: holds one, however the server echoes it (``ui/record_case.py``, ``ui/app/request_line.py``).
    from_environment: tuple[str, ...] = ()
