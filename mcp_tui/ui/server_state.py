"""What the UI knows about each server, and the connection interface it relies on.

The UI never imports ``mcp_tui.session.connection`` at module level (that pulls in ``mcp``, about
half a second before the first frame could paint); it talks to connections through the structural
:class:`Connection` protocol below, which ``ServerConnection`` satisfies and which tests fake.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from msgspec import Struct, field

from mcp_tui.config.roots import Root
from mcp_tui.config.servers import ServerSpec
from mcp_tui.session.events import (
    CallOutcome,
    CatalogChanged,
    ConnectionState,
    EventSink,
    PromptInfo,
    ResourceInfo,
    RoundTrip,
    ServerInfo,
    ServerStateChanged,
    ToolInfo,
)
from mcp_tui.session.naming import claim, judge_announced

if TYPE_CHECKING:  # annotations only: kept off the first frame's import path
    from mcp_tui.schema.arguments.last_sent import Memory
    from mcp_tui.session.elicitation import ElicitationHandler
    from mcp_tui.session.oauth.authorization import AuthorizationHandler
    from mcp_tui.session.tasks import TaskSummary
    from mcp_tui.session.traffic import TrafficLog


class Connection(Protocol):
    """The part of ``mcp_tui.session.connection.ServerConnection`` the UI uses."""

    @property
    def state(self) -> ConnectionState: ...

    @property
    def info(self) -> ServerInfo | None: ...

    @property
    def tools(self) -> tuple[ToolInfo, ...]: ...

    @property
    def prompts(self) -> tuple[PromptInfo, ...]: ...

    @property
    def resources(self) -> tuple[ResourceInfo, ...]: ...

    async def run(self) -> None:
        """Connect and stay connected until :meth:`close`; never raises."""

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any], *, call_id: int
    ) -> CallOutcome: ...

    async def get_prompt(self, name: str, arguments: Mapping[str, str]) -> CallOutcome: ...

    async def read_resource(self, uri: str) -> CallOutcome: ...

    async def refresh_catalog(self) -> None: ...

    def check_input(self) -> dict[str, Any]:
        """Era, capabilities, listings as received and the forms asked (``mcp-tui check``)."""

    def set_elicitation_paused(self, paused: bool) -> None: ...

    async def close(self) -> None: ...

    # Cancelling a call (``session/requests.py``) and the client features the connection
    # reaches in its ``features`` part (``session/features.py``); none raises.

    @property
    def roots(self) -> tuple[Root, ...]: ...

    async def set_roots(self, roots: Sequence[Root]) -> None: ...

    def roots_settle_left(self) -> float: ...

    def cancel_call(self, call_id: int) -> bool: ...

    async def ping(self) -> RoundTrip: ...

    async def set_log_level(self, level: str) -> str | None: ...

    @property
    def can_subscribe(self) -> bool: ...

    async def subscribe(self, uri: str, on: bool = True) -> str | None: ...

    async def list_tasks(self) -> tuple[TaskSummary, ...] | str:
        """``tasks/list``, every page: the server's tasks, or why not."""
        ...


class ConnectionFactory(Protocol):
    """Builds a connection for one server (``ServerConnection`` itself, or a fake in tests)."""

    def __call__(
        self,
        spec: ServerSpec,
        *,
        handler: ElicitationHandler,
        sink: EventSink,
        traffic_log: TrafficLog | None,
        stderr_log: Path | None,
        rate_limit: tuple[int, float],
        authorization: AuthorizationHandler | None = None,
        log_level: str = "debug",
    ) -> Connection: ...


class ServerEntry(Struct):
    """One configured server as the UI shows it; updated from batched session events.

    ``generation`` grows with every reconnect so events from a replaced connection are dropped.
    """

    spec: ServerSpec
    connection: Connection | None = None
    generation: int = 0
    state: ConnectionState = ConnectionState.CONNECTING
    detail: str | None = None
    info: ServerInfo | None = None
    tools: tuple[ToolInfo, ...] = ()
    prompts: tuple[PromptInfo, ...] = ()
    resources: tuple[ResourceInfo, ...] = ()
    #: "Stop asking": elicitation requests from this server are cancelled without a form.
    paused: bool = False
    #: The pause was set by the automatic rate limit (too many requests), not by the user.
    paused_by_limit: bool = False
    #: How many catalog refreshes have arrived (lets the tree skip rebuilding unchanged servers).
    catalog_version: int = field(default=0)
    #: Resources the server said were updated (``notifications/resources/updated``) since they
    #: were last read.
    updated: set[str] = field(default_factory=set)
    #: Resources subscribed to on the current connection (the UI's copy).
    subscribed: set[str] = field(default_factory=set)
    #: Grows when ``updated`` or ``subscribed`` changes (the tree redraws the marks).
    marks_version: int = 0
    #: The log level asked for on the current connection (``ServerConnection``'s default).
    log_level: str = "debug"
    #: When the server entered its current state (``time.monotonic``): "connecting 12 s".
    since: float = field(default_factory=time.monotonic)
    #: Each tool's (prompt's, template's) last arguments sent from its form
    #: (``schema/arguments/last_sent.py``): the form starts from them next time. Kept across
    #: reconnects, for the app's lifetime.
    last_sent: Memory = field(default_factory=dict)
    #: The name a generic-named server (``python server.py``) is shown by once it announced one
    #: in ``serverInfo`` (``session/naming.py``); ``None``: its key, ``name``.
    announced: str | None = None
    #: Why the name it announced was not adopted (``session/naming.py``), for the info panel.
    announced_refused: str | None = None

    @property
    def name(self) -> str:
        """The server's key: its spec's name, for the whole run (lookups, the stderr log)."""
        return self.spec.name

    @property
    def shown_name(self) -> str:
        """The name the person reads: the announced one, else the key."""
        return self.announced or self.spec.name

    @property
    def claim(self) -> str | None:
        """The ``serverInfo`` name of a generic-named server that was not adopted, quoted as
        the server's claim ("calls itself 'GitHub (verified)'") where mcp-tui describes the
        server; ``None``: it is shown by that name, or its key is its own (``--name``, a config
        section: the info panel then says "server NAME" as for any server)."""
        if not self.spec.name_is_generic or self.announced is not None or self.info is None:
            return None
        return claim(self.info.name, self.shown_name)

    def name_from_info(self, others: Iterable[ServerEntry]) -> None:
        """Show a generic-named server by the name in its ``serverInfo``, apart from ``others``'
        keys and names (recomputed on each state: the same answer while nothing changes)."""
        if self.spec.name_is_generic and self.info is not None:
            taken = [n for e in others if e is not self for n in (e.name, e.shown_name)]
            verdict = judge_announced(self.info.name, self.name, taken)
            self.announced, self.announced_refused = verdict

    def apply_state(self, event: ServerStateChanged) -> None:
        if event.state is not self.state or event.state is ConnectionState.CONNECTING:
            self.since = time.monotonic()
        self.state = event.state
        self.detail = event.detail
        if event.info is not None:
            self.info = event.info

    def apply_catalog(self, event: CatalogChanged) -> None:
        if event.tools is not None:
            self.tools = event.tools
        if event.prompts is not None:
            self.prompts = event.prompts
        if event.resources is not None:
            self.resources = event.resources
        self.catalog_version += 1

    def mark(
        self, uri: str, *, updated: bool | None = None, subscribed: bool | None = None
    ) -> None:
        """Set or clear a resource's "updated" and "subscribed" marks."""
        for wanted, marks in ((updated, self.updated), (subscribed, self.subscribed)):
            if wanted is True:
                marks.add(uri)
            elif wanted is False:
                marks.discard(uri)
        self.marks_version += 1

    def find_tool(self, name: str) -> ToolInfo | None:
        for tool in self.tools:
            if tool.name == name:
                return tool
        return None
