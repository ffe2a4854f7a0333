"""The session screen's areas: what is on it, when each is mounted, and the keys between them.

The first frame is the catalog, the title and the keys (every server "connecting"); the info,
running-calls, URL-waits, transcript, traffic and log panels are mounted after it
(:meth:`SessionAreas.mount_panels`, their modules imported then), and every key that needs a panel
mounts them first. What goes into the transcript waits in a queue until they are there
(:meth:`SessionAreas.queue_entries`, :meth:`SessionAreas.flush_entries`). Showing, hiding,
maximising and moving between the areas (``t``, ``l``, ``L``, ``f``) is done here; the info panel
follows the catalog's cursor.

The screen owns one :class:`SessionAreas` and hands it its Textual events (compose, mount,
resize); the other parts of the screen write through it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, cast

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget

from mcp_tui.session.events import ConnectionState, Notice
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.closing import closing
from mcp_tui.ui.render import Entry, notice_entry
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.request.sent_wire import SentWatch
from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree, NodeRef
from mcp_tui.ui.widgets.session.title_bar import TitleBar
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from mcp_tui.ui.widgets.session.info_panel import InfoPanel
    from mcp_tui.ui.widgets.session.log_panel import LogPanel
    from mcp_tui.ui.widgets.session.running_calls import RunningCalls
    from mcp_tui.ui.widgets.session.traffic_view import TrafficView
    from mcp_tui.ui.widgets.session.transcript import Transcript
    from mcp_tui.ui.widgets.session.url_waits_panel import UrlWaitsPanel
    from mcp_tui.ui.widgets.text.server_text import ServerText

Severity = Literal["information", "warning", "error"]


class SessionAreas:
    """The catalog first, the panels right after, and the transcript queue (see the module
    docstring). ``screen`` is the session screen these areas are mounted on."""

    def __init__(self, screen: Screen[None]) -> None:
        self._screen = screen
        self._panels_lock = asyncio.Lock()
        #: The panels exist (:meth:`mount_panels`, after the first frame).
        self._panels_ready = False
        self._pending_entries: list[Entry] = []
        #: What had the focus when ``L`` made the log full screen (it gets it back after).
        self._focus_before_log: Widget | None = None
        #: Where the focus was when ``t`` showed the traffic: it goes back there on ``t`` again.
        self._focus_before_traffic: Widget | None = None
        #: While the wire is shown: the last answer as it went out (``sent_wire.py``).
        self.sent = SentWatch()

    @property
    def app(self) -> McpApp:
        """The app, by what the areas use of it (``ui/app_interface.py``)."""
        return cast(McpApp, self._screen.app)

    # --- the first frame, then the panels ----------------------------------------------------

    def compose(self) -> ComposeResult:
        """The screen's ``compose``."""
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

    def mounted(self) -> None:
        """The screen's ``on_mount``: the catalog filled and focused, the clocks started."""
        screen = self._screen
        catalog = self.catalog
        catalog.border_title = "Servers"
        for entry in self.app.entries.values():
            catalog.update_server(entry)
        catalog.focus()
        screen.watch(screen, "maximized", self._log_maximized_changed, init=False)
        screen.set_interval(1.0, self._tick_connecting, name="connecting-seconds")

    def _tick_connecting(self) -> None:
        """Once a second: "connecting 12 s" on each server still connecting."""
        connecting = False
        for entry in self.app.entries.values():
            if entry.state is ConnectionState.CONNECTING:
                self.catalog.relabel_server(entry)
                connecting = True
        if connecting:
            self.show_info()

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

            screen = self._screen
            transcript = Transcript(id="transcript")
            transcript.border_title = "Transcript"
            traffic = TrafficView(id="traffic")
            traffic.display = False
            sent = SentWire(id="sent-wire")
            sent.display = False
            await screen.query_one("#main", Vertical).mount_all(
                [
                    InfoPanel(id="info"),
                    prose_region(),
                    RunningCalls(id="running"),
                    UrlWaitsPanel(self.app.url_waits, id="url-waits"),
                    sent,
                    transcript,
                    traffic,
                ]
            )
            logs = LogPanel(id="logs")
            app = self.app
            paths = [app.stderr_log_path(name) for name in app.entries]
            logs.show_stderr_files([p for p in paths if p is not None])
            await screen.mount(logs, before=screen.query_one(KeyFooter))
            self._panels_ready = True
            self.sent.panel = sent
        self.show_info()
        self.flush_entries()

    @property
    def panels_ready(self) -> bool:
        """The panels are mounted: batches, entries and the panel keys can reach them."""
        return self._panels_ready

    @property
    def panels_live(self) -> bool:
        """The panels are mounted and still there: False again once the screen is being taken
        down (``closing.py``), when whatever still arrives is dropped, not drawn."""
        return self._panels_ready and not closing(self._screen)

    def resized(self) -> None:
        """The screen's ``on_resize``: compact below 100 columns or 32 rows."""
        screen = self._screen
        screen.set_class(screen.size.height < 32 or screen.size.width < 100, "-compact")
        screen.query_one(KeyFooter).compact = screen.size.width < 100  # every key fits in 80

    # --- the areas (queried by id: the panel classes are imported by ``mount_panels``) -------

    @property
    def catalog(self) -> CatalogTree:
        return self._screen.query_one("#catalog", CatalogTree)

    @property
    def transcript(self) -> Transcript:
        return cast("Transcript", self._screen.query_one("#transcript"))

    @property
    def running(self) -> RunningCalls:
        return cast("RunningCalls", self._screen.query_one("#running"))

    @property
    def logs(self) -> LogPanel:
        return cast("LogPanel", self._screen.query_one("#logs"))

    @property
    def traffic(self) -> TrafficView:
        return cast("TrafficView", self._screen.query_one("#traffic"))

    def show_info(self) -> None:
        """The info panel shows what the catalog's cursor is on (the first server at first)."""
        if not self.panels_live:
            return  # ``mount_panels`` shows it (or the screen is being taken down)
        ref = self.catalog.current
        entries = self.app.entries
        entry = entries.get(ref.server) if ref is not None else None
        if ref is None and entries:
            entry = next(iter(entries.values()))
            ref = NodeRef("server", entry.name)
        prose = cast("ServerText", self._screen.query_one("#info-text"))
        cast("InfoPanel", self._screen.query_one("#info")).show(ref, entry, prose)

    def url_waits_changed(self) -> None:
        """The URL waits changed: redraw their rows and show or hide ``d`` and ``g``."""
        screen = self._screen
        if self.panels_live:
            cast("UrlWaitsPanel", screen.query_one("#url-waits")).redraw(force=True)
        if screen.is_mounted and not closing(screen):
            screen.refresh_bindings()

    # --- the transcript queue ----------------------------------------------------------------

    def queue_entries(self, entries: Iterable[Entry]) -> None:
        """Add transcript entries at the next flush (one mount for many entries)."""
        self._pending_entries.extend(entries)

    def flush_entries(self) -> None:
        if self._pending_entries and self.panels_live:
            entries, self._pending_entries = self._pending_entries, []
            self.transcript.add_entries(entries)

    def show(self, entry: Entry) -> None:
        """One entry in the transcript now (once the panels are there)."""
        self.queue_entries([entry])
        self.flush_entries()

    def note(self, server: str, text: str, severity: Severity = "information") -> None:
        """A notification and the same line in the transcript."""
        self._screen.notify(
            f"{one_line(shown_name(server))}: {text}", severity=severity, markup=False
        )
        self.show(notice_entry(Notice(server, text, severity)))

    # --- keys between the areas --------------------------------------------------------------

    async def toggle_traffic(self) -> None:
        """``t``: the traffic in the transcript's place, its table focused (arrows and Enter
        read the messages at once); ``t`` again: the transcript, the focus back where it was."""
        await self.mount_panels()
        screen = self._screen
        showing = not self.traffic.display
        focused = screen.focused
        inside = focused is not None and self.traffic in focused.ancestors_with_self
        self.traffic.display = showing
        self.transcript.display = not showing
        if showing:
            self.traffic.render_backlog()
            self._focus_before_traffic = screen.focused
            self.traffic.focus()
            return
        before, self._focus_before_traffic = self._focus_before_traffic, None
        if focused is not None and not inside:
            return  # the person moved on meanwhile: leave the focus where it is
        if before is not None and before.is_attached and before.focusable and before.display:
            before.focus()
        else:
            self.catalog.focus()

    async def toggle_logs(self) -> None:
        await self.mount_panels()
        self.logs.display = not self.logs.display

    async def maximize_logs(self) -> None:
        """``L``: the log panel full screen (Textual's maximize, on the log), or back."""
        await self.mount_panels()
        screen = self._screen
        if screen.maximized is self.logs:
            screen.minimize()
            return
        self._focus_before_log = screen.focused
        self.logs.display = True
        self.logs.focus()
        screen.maximize(self.logs)

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

    async def focus_next_area(self) -> None:
        await self.mount_panels()
        view: Widget = self.transcript if self.transcript.display else self.traffic
        order: list[Widget] = [self.catalog, view]
        if self.logs.display:
            order.append(self.logs)
        focused = self._screen.focused
        index = next(
            (
                i
                for i, area in enumerate(order)
                if focused is area or (focused is not None and area in focused.ancestors)
            ),
            -1,
        )
        order[(index + 1) % len(order)].focus()
