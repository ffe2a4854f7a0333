"""What the screens and the command palette ask of the app, as a structural type.

The app (:class:`~mcp_tui.ui.app.McpTuiApp`) imports the session screen and the palette's verbs;
if they imported the app back, for its type or an ``isinstance`` check, the UI package would be
one knot in which nothing can be read (or loaded) on its own. They name :class:`McpApp` instead:
the app's own methods they call, nothing of Textual's ``App`` (a screen reaches that through
``self.app``). ``McpTuiApp`` satisfies it, which mypy checks where the app is defined.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.screen import Screen

from mcp_tui.config.roots import Root
from mcp_tui.session.era import Era
from mcp_tui.session.events import CallOutcome
from mcp_tui.ui.server_state import Connection, ServerEntry
from mcp_tui.ui.url_waits import UrlWait, UrlWaits, WaitState

if TYPE_CHECKING:  # annotations only: neither loads before the first frame
    from mcp_tui.config.chat_settings import ChatSettings
    from mcp_tui.session.elicitation import ElicitationHandler, ElicitationRequest


@runtime_checkable
class McpApp(Protocol):
    """The app's servers, waits and verbs, as the screens and the palette use them.

    Runtime-checkable for the palette and the help screen, which list verbs only in mcp-tui's
    app (a check made when they open, not on every event).
    """

    @property
    def entries(self) -> dict[str, ServerEntry]:
        """Every configured server, by name, in configuration order."""
        ...

    @property
    def url_waits(self) -> UrlWaits:
        """Accepted URL-mode requests waiting for the server to finish them."""
        ...

    @property
    def handler(self) -> ElicitationHandler | None:
        """The elicitation handler (built after the first frame)."""
        ...

    @property
    def session(self) -> Screen[Any] | None:
        """The session screen (a ``SessionScreen``), once the app has made it."""
        ...

    def next_call_id(self) -> int: ...

    def connection(self, server: str) -> Connection | None: ...

    def stderr_log_path(self, server: str) -> Path | None: ...

    def wrote(self, path: Path) -> None:
        """mcp-tui is about to write ``path`` (an export, a test): ``--watch`` leaves it out."""
        ...

    def reconnect(self, server: str) -> None: ...

    def other_era(self, server: str) -> Era | None: ...

    def reconnect_on_other_era(self, server: str) -> None: ...

    def set_elicitation_paused(self, server: str, paused: bool) -> None: ...

    def refresh_server(self, server: str) -> None: ...

    def refresh_catalog(self, server: str) -> None: ...

    def set_roots(self, server: str, roots: Sequence[Root]) -> None: ...

    def end_url_wait(self, key: int, state: WaitState) -> None: ...

    def wait_for_page(self, request: ElicitationRequest) -> UrlWait: ...

    def open_chat(self) -> None: ...

    async def chat_model(self, settings: ChatSettings) -> Any: ...

    async def call_tool_awaited(
        self,
        server: str,
        name: str,
        arguments: Mapping[str, Any],
        *,
        asking_over: object | None = None,
        asked: list[str] | None = None,
    ) -> CallOutcome:
        """A tool call the chat awaits, made on the session screen (``asked`` gets what the
        server asked during it)."""
        ...

    def action_help(self) -> None: ...

    def request_quit(self, *, ask: bool = False) -> None: ...
