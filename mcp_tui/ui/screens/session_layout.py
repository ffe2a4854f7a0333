"""The session screen's areas: what is on it, when each part is mounted, and the keys between them.

Between the client-feature verbs (``session_features.py``) and the screen itself
(``session.py``), which adds the keys, the events from the app and what Enter opens. Here is the
layout and its timing: the first frame is the catalog, the title and the keys (every server
"connecting"); the info, running-calls, URL-waits, transcript, traffic and log panels are mounted
after it (:meth:`SessionLayout.mount_panels`, their modules imported then), and every key that
needs a panel mounts them first. The keys that show, hide, maximise or move between the areas
(``t``, ``l``, ``L``, ``f``) live here with them; the info panel follows the catalog's cursor.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.screens.session_repeat import SessionRepeat
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.request.sent_wire import SentWatch
from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree, NodeRef
from mcp_tui.ui.widgets.session.title_bar import TitleBar

if TYPE_CHECKING:
    from mcp_tui.ui.widgets.session.info_panel import InfoPanel
    from mcp_tui.ui.widgets.text.server_text import ServerText


class SessionLayout(SessionRepeat):
    """The catalog first, the panels right after (see the module docstring)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._panels_lock = asyncio.Lock()
        #: What had the focus when ``L`` made the log full screen (it gets it back after).
        self._focus_before_log: Widget | None = None
        #: While the wire is shown: the last answer as it went out (``sent_wire.py``).
        self.sent = SentWatch()

    def compose(self) -> ComposeResult:
        # The first frame is the catalog (every server "connecting"), the title and the keys.
        # The panels on the right and the log come in :meth:`mount_panels`, which the app
        # calls once the user's first keys are answered: they stay empty until a server has
        # answered its handshake (a second or more), and composing, styling and painting them
        # (their modules too: RichLog pulls in rich.pretty) doubled the first frame's own work.
        yield TitleBar("⇄")
        with Horizontal(id="body"):
            yield CatalogTree(id="catalog")
            yield Vertical(id="main")
        yield KeyFooter()

    def on_mount(self) -> None:
        catalog = self.catalog
        catalog.border_title = "Servers"
        for entry in self.mcp_app.entries.values():
            catalog.update_server(entry)
        catalog.focus()
        self.watch(self, "maximized", self._log_maximized_changed, init=False)
        self.set_interval(1.0, self._tick_connecting, name="connecting-seconds")

    def _tick_connecting(self) -> None:
        """Once a second: "connecting 12 s" on each server still connecting."""
        connecting = False
        for entry in self.mcp_app.entries.values():
            if entry.state is ConnectionState.CONNECTING:
                self.catalog.relabel_server(entry)
                connecting = True
        if connecting:
            self._show_info()

    async def mount_panels(self) -> None:
        """Mount the info, running-calls, URL-waits, transcript, traffic and log panels (once;
        a second caller waits for the first). The app calls it after the first frame, before
        any connection starts; a key that needs a panel calls it first."""
        async with self._panels_lock:
            if self._panels_ready:
                return
            from mcp_tui.ui.widgets.request.sent_wire import SentWire
            from mcp_tui.ui.widgets.session.info_panel import InfoPanel, prose_region
            from mcp_tui.ui.widgets.session.log_panel import LogPanel
            from mcp_tui.ui.widgets.session.running_calls import RunningCalls
            from mcp_tui.ui.widgets.session.traffic_view import TrafficView
            from mcp_tui.ui.widgets.session.transcript import Transcript
            from mcp_tui.ui.widgets.session.url_waits_panel import UrlWaitsPanel

            transcript = Transcript(id="transcript")
            transcript.border_title = "Transcript"
            traffic = TrafficView(id="traffic")
            traffic.display = False
            sent = SentWire(id="sent-wire")
            sent.display = False
            await self.query_one("#main", Vertical).mount_all(
                [
                    InfoPanel(id="info"),
                    prose_region(),
                    RunningCalls(id="running"),
                    UrlWaitsPanel(self.mcp_app.url_waits, id="url-waits"),
                    sent,
                    transcript,
                    traffic,
                ]
            )
            logs = LogPanel(id="logs")
            app = self.mcp_app
            paths = [app.stderr_log_path(name) for name in app.entries]
            logs.show_stderr_files([p for p in paths if p is not None])
            await self.mount(logs, before=self.query_one(KeyFooter))
            self._panels_ready = True
            self.sent.panel = sent
        self._show_info()
        self.flush_entries()

    def on_resize(self) -> None:
        self.set_class(self.size.height < 32 or self.size.width < 100, "-compact")
        self.query_one(KeyFooter).compact = self.size.width < 100  # every key fits in 80 columns

    @property
    def catalog(self) -> CatalogTree:
        return self.query_one("#catalog", CatalogTree)

    def _show_info(self) -> None:
        if not self.panels_live:
            return  # ``mount_panels`` shows it (or the screen is being taken down)
        ref = self.catalog.current
        entry = self.mcp_app.entries.get(ref.server) if ref is not None else None
        if ref is None and self.mcp_app.entries:
            entry = next(iter(self.mcp_app.entries.values()))
            ref = NodeRef("server", entry.name)
        prose = cast("ServerText", self.query_one("#info-text"))
        cast("InfoPanel", self.query_one("#info")).show(ref, entry, prose)

    # --- keys between the areas --------------------------------------------------------------

    async def action_toggle_traffic(self) -> None:
        await self.mount_panels()
        showing = not self.traffic.display
        self.traffic.display = showing
        self.transcript.display = not showing
        if showing:
            self.traffic.render_backlog()

    async def action_toggle_logs(self) -> None:
        await self.mount_panels()
        self.logs.display = not self.logs.display

    async def action_maximize_logs(self) -> None:
        """``L``: the log panel full screen (Textual's maximize, on the log), or back."""
        await self.mount_panels()
        if self.maximized is self.logs:
            self.minimize()
            return
        self._focus_before_log = self.focused
        self.logs.display = True
        self.logs.focus()
        self.maximize(self.logs)

    def _log_maximized_changed(self, maximized: Widget | None) -> None:
        """Back from the full-screen log (``L`` or Escape): the focus returns to where ``L``
        was pressed (the catalog, most often), not to the log, where arrows seemed dead."""
        before = self._focus_before_log
        if maximized is not None or before is None:
            return
        self._focus_before_log = None
        if before.is_attached and before.focusable:
            before.focus()
        else:
            self.catalog.focus()

    async def action_focus_next_area(self) -> None:
        await self.mount_panels()
        view: Widget = self.transcript if self.transcript.display else self.traffic
        order: list[Widget] = [self.catalog, view]
        if self.logs.display:
            order.append(self.logs)
        focused = self.focused
        index = next(
            (
                i
                for i, area in enumerate(order)
                if focused is area or (focused is not None and area in focused.ancestors)
            ),
            -1,
        )
        order[(index + 1) % len(order)].focus()
