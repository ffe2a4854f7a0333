"""What the user asks of one server, from a key or the palette, while the app runs.

Reconnect it (``R``), or reconnect it on the other protocol era (``E``), or restart it when its
files change (``--watch``, :mod:`mcp_tui.ui.app.server_watch`); stop or resume asking
(``x``: its forms and sampling requests are cancelled unseen while paused); change its roots
(``o``); list its tools, prompts and resources again (``r``); redraw it after the UI changed its
entry. Each is a small request about a running server, made through the connections' lifecycle
(:class:`~mcp_tui.ui.app.connections.Connections`: start after the first frame, connect, close),
which stays apart so that it reads on its own.

:class:`ServerActions` is a part the app holds; the app offers its methods to the screens and the
palette (:class:`~mcp_tui.ui.app_interface.McpApp`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textual.app import App

from mcp_tui.config.roots import Root
from mcp_tui.config.servers import StdioTarget
from mcp_tui.session.era import Era, mode_for, other_era
from mcp_tui.session.events import ConnectionState, Notice
from mcp_tui.ui.app.connections import Connections
from mcp_tui.ui.app.server_watch import ServerWatch
from mcp_tui.ui.event_buffer import EventBuffer
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.untrusted import one_line


class ServerActions:
    """What the user asks of one running server (see the module docstring)."""

    def __init__(
        self,
        app: App[Any],
        connections: Connections,
        buffer: EventBuffer,
        session: Callable[[], SessionScreen | None],
    ) -> None:
        #: Runs the requests as workers and shows their notices.
        self._app = app
        self._connections = connections
        self.entries = connections.entries
        self.options = connections.options
        #: Notices wait here until the app flushes them to the transcript.
        self._buffer = buffer
        #: The session screen, once the app has made it (its rows are redrawn from here).
        self._session = session
        #: ``--watch``: the file watcher, while it runs.
        self._watch: ServerWatch | None = None

    def start_watching(self) -> None:
        """``--watch``: restart the stdio servers when a watched file changes, but never for a
        file mcp-tui writes itself (``process/watch.py``): the ``--log``, ``--save-answers``,
        ``--record`` and stderr log files, and those it writes later (:meth:`wrote`)."""
        if self.options.watch and self._watch is None and not self._connections.quitting:
            options = self.options
            own = [options.traffic_log, options.save_answers, options.record, options.theme_file]
            own += [self._connections.stderr_log_path(name) for name in self.entries]
            self._watch = ServerWatch(
                self.options.watch, self.restart_after_change, self._warn, own=own
            )
            self._watch.start()

    def wrote(self, path: Path) -> None:
        """mcp-tui is about to write ``path`` (an export, a test saved): not a change to watch."""
        if self._watch is not None:
            self._watch.own.add(path)

    async def stop_watching(self) -> None:
        watch, self._watch = self._watch, None
        if watch is not None:
            await watch.stop()

    async def restart_after_change(self, changed: str) -> None:
        """Restart every stdio server because ``changed`` (files, in words) changed."""
        for entry in list(self.entries.values()):
            if self._connections.quitting:
                return
            if isinstance(entry.spec.target, StdioTarget):
                await self._connections.reconnect(
                    entry, f"{changed} changed: restarting the server (--watch)"
                )

    def _warn(self, text: str) -> None:
        self._buffer.add(Notice("mcp-tui", text, "warning"))

    def reconnect(self, server: str) -> None:
        """Close ``server``'s connection (if any) and open a new one."""
        entry = self.entries.get(server)
        if entry is None or self._connections.quitting:
            return
        self._app.run_worker(
            self._connections.reconnect(entry), name=f"reconnect {server}", exit_on_error=False
        )

    def other_era(self, server: str) -> Era | None:
        """The protocol era ``server`` is not on (what :meth:`reconnect_on_other_era` picks)."""
        entry = self.entries.get(server)
        if entry is None:
            return None
        return other_era(entry.info.protocol_version if entry.info else None, entry.spec.mode)

    def reconnect_on_other_era(self, server: str) -> None:
        """``E``: reconnect ``server`` on the protocol era it is not on (``session/era.py``).

        The server's mode is pinned to that era (``legacy`` or ``2026-07-28``) until switched
        back; nothing is re-run: calls that failed are the user's to repeat.
        """
        entry = self.entries.get(server)
        era = self.other_era(server)
        if entry is None or era is None or self._connections.quitting:
            return
        from msgspec.structs import replace

        mode = mode_for(era)
        entry.spec = replace(entry.spec, mode=mode)
        note = f"reconnecting on {era} (mode {mode}; E switches back)"
        self._app.run_worker(
            self._connections.reconnect(entry, note),
            name=f"reconnect {server}",
            exit_on_error=False,
        )

    def set_elicitation_paused(self, server: str, paused: bool) -> None:
        """Per-server "stop asking": requests are cancelled without a form while paused."""
        entry = self.entries.get(server)
        if entry is None:
            return
        entry.paused = paused
        entry.paused_by_limit = False
        if entry.connection is not None:
            entry.connection.set_elicitation_paused(paused)
        text = "stopped asking: its requests are cancelled" if paused else "asking again"
        self._buffer.add(Notice(server, text))
        session = self._session()
        if session is not None:
            session.server_changed(entry)

    def refresh_server(self, server: str) -> None:
        """Redraw a server's tree and info after the UI changed its entry (marks, level)."""
        entry = self.entries.get(server)
        session = self._session()
        if entry is not None and session is not None:
            session.server_changed(entry)

    def set_roots(self, server: str, roots: Sequence[Root]) -> None:
        """The roots dialog's list: kept for reconnects, and sent to the live connection."""
        entry = self.entries.get(server)
        if entry is None:
            return
        from msgspec.structs import replace

        entry.spec = replace(entry.spec, roots=tuple(root.path for root in roots))
        connection = entry.connection
        if connection is None:
            shown = ", ".join(root.path for root in roots) or "none"
            self._buffer.add(Notice(server, f"roots are now: {shown} (from the next connection)"))
            return
        self._app.run_worker(
            connection.set_roots(roots), name=f"roots {server}", exit_on_error=False
        )

    def refresh_catalog(self, server: str) -> None:
        """``r``: list the server's tools, prompts and resources again; the transcript then says
        what changed (``ui/app/catalog_notes.py``)."""
        connection = self._connections.connection(server)
        entry = self.entries.get(server)
        if connection is None or entry is None or entry.state is not ConnectionState.READY:
            self._app.notify(
                f"{one_line(shown_name(server, self._app))} is not ready: R reconnects it",
                severity="warning",
                markup=False,
            )
            return
        self._app.notify(
            f"Refreshing {one_line(shown_name(server, self._app))}'s lists…",
            markup=False,
            timeout=2,
        )
        self._app.run_worker(connection.refresh_catalog(), exit_on_error=False)
