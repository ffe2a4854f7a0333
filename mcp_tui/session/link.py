"""The one handle the parts of a :class:`~mcp_tui.session.connection.ServerConnection` share.

A connection owns parts that other tasks call (``requests``, ``features``, ``tasks``,
``completions``) and one that tells how the server ended (``ended``). Each needs a little of the
live connection: the SDK client once the handshake is done (``None`` before and after), what the
handshake said, the server's stderr capture (stdio only), whether the server closed its side of
the stream. They read it here, from one object the connection writes, instead of each holding
its own getters onto the connection.

Also the options a connection was made with (:class:`ConnectionOptions`), so its 2026-07-28
twin (``era_retry.py``) is made with the same ones from one record.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_tui.config.servers import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_RATE_LIMIT,
    ServerSpec,
)
from mcp_tui.session.events import ConnectionState, EventSink, ServerInfo
from mcp_tui.session.stdio_transport import DEFAULT_MAX_MESSAGE_BYTES

if TYPE_CHECKING:
    from mcp import Client

    from mcp_tui.session.elicitation import ElicitationHandler
    from mcp_tui.session.oauth.authorization import AuthorizationHandler
    from mcp_tui.session.stderr import StderrCapture
    from mcp_tui.session.traffic import TrafficLog


@dataclass(frozen=True)
class ConnectionOptions:
    """How a connection is made, beyond its spec and sink: the same for its 2026-07-28 twin."""

    handler: ElicitationHandler
    traffic_log: TrafficLog | None = None
    stderr_log: Path | None = None
    client_name: str = "mcp-tui"
    rate_limit: tuple[int, float] = (DEFAULT_RATE_LIMIT.count, DEFAULT_RATE_LIMIT.seconds)
    log_level: str = "debug"
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    authorization: AuthorizationHandler | None = None

    def arguments(self) -> dict[str, Any]:
        """The options as ``ServerConnection``'s keyword arguments."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


class ConnectionLink:
    """What a connection's parts read of it while it lives; the connection writes it."""

    def __init__(self, spec: ServerSpec, sink: EventSink) -> None:
        self.spec = spec
        self.name = spec.name
        #: Where every event goes (guarded: a sink that raises never breaks the connection).
        self.sink = sink
        self.state = ConnectionState.CONNECTING
        self.detail: str | None = None
        #: What the handshake said (``None`` until it is done).
        self.info: ServerInfo | None = None
        #: The SDK client while the connection serves; ``None`` before and after.
        self.client: Client | None = None
        #: The server's stderr (stdio only), once the process runs.
        self.stderr: StderrCapture | None = None
        #: The server closed its side of the stream (or we did, while closing).
        self.stream_closed = False

    def protocol_version(self) -> str | None:
        return self.info.protocol_version if self.info else None

    def handshake_done(self) -> bool:
        return self.info is not None

    def not_ready_reason(self) -> str:
        why = f": {self.detail}" if self.detail else ""
        return f"{self.name} is not connected ({self.state.value}){why}"
