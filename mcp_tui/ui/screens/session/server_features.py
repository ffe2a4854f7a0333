"""What else the session screen asks of a server: cancel a call, roots, ping, tasks, log level,
subscriptions.

Each is a key and a palette entry; each works on the server under the catalog cursor (or the one
the palette entry names), runs the request in a worker of the screen, and reports in a
notification and the transcript. What each does on which protocol era is the session layer's
business (``session/features.py``); the screens it opens are imported when first needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from textual.screen import Screen

from mcp_tui.session.events import LOG_LEVELS, ResourceInfo
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.screens.session.areas import SessionAreas
from mcp_tui.ui.screens.session.calls import Calls
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.untrusted import one_line


class ServerFeatures:
    """Cancel, roots, ping, tasks, log level and subscriptions (see the module docstring).

    ``server_changed`` is the screen's: a server's entry changed here (its log level), so its
    info and keys are drawn again.
    """

    def __init__(
        self,
        screen: Screen[None],
        calls: Calls,
        areas: SessionAreas,
        *,
        server_changed: Callable[[], None],
    ) -> None:
        self._screen = screen
        self._calls = calls
        self._areas = areas
        self._server_changed = server_changed

    @property
    def app(self) -> McpApp:
        """The app, by what the features use of it (``ui/app_interface.py``)."""
        return cast(McpApp, self._screen.app)

    def pick_call_to_cancel(self) -> None:
        """``c``: the only running call, or a choice among several."""
        calls = dict(self._calls.cancellable)
        if not calls:
            self._screen.notify("No tool call is running", severity="warning")
            return
        if len(calls) == 1:
            self._calls.cancel_call(next(iter(calls)))
            return
        from mcp_tui.ui.screens.pick import PickScreen

        entries = [
            (str(call_id), literal_line(heading, limit=80))
            for call_id, (_, heading) in calls.items()
        ]

        def chosen(key: str | None) -> None:
            if key is not None:
                self._calls.cancel_call(int(key))

        self._screen.app.push_screen(PickScreen("Cancel which call?", entries), callback=chosen)

    # --- roots -------------------------------------------------------------------------------

    def open_roots(self, server: str) -> None:
        """The roots dialog for ``server``; applying sends the new list to the connection."""
        entry = self.app.entries.get(server)
        if entry is None:
            return
        from mcp_tui.config.roots import spec_roots
        from mcp_tui.ui.screens.roots_dialog import RootsScreen

        connection = entry.connection
        current = connection.roots if connection is not None else spec_roots(entry.spec)

        def chosen(roots: tuple[object, ...] | None) -> None:
            if roots is not None:
                self.app.set_roots(server, roots)  # type: ignore[arg-type]

        self._screen.app.push_screen(RootsScreen(server, current), callback=chosen)

    # --- ping --------------------------------------------------------------------------------

    def ping(self, server: str) -> None:
        ready = self._calls.ready(server)
        if ready is None:
            return
        _, connection = ready

        async def run() -> None:
            trip = await connection.ping()
            if trip.seconds is not None:
                self._areas.note(server, f"{trip.method} answered in {trip.seconds * 1000:.1f} ms")
            else:
                self._areas.note(server, f"{trip.method} failed: {trip.error}", "error")

        self._screen.run_worker(run(), group="features", exit_on_error=False)

    # --- tasks -------------------------------------------------------------------------------

    def list_tasks(self, server: str) -> None:
        """``tasks/list``: the server's tasks, one line each, in the transcript."""
        ready = self._calls.ready(server)
        if ready is None:
            return
        _, connection = ready

        async def run() -> None:
            found = await connection.list_tasks()
            if isinstance(found, str):
                self._areas.note(server, f"tasks/list failed: {found}", "error")
                return
            lines = [f"tasks/list: {len(found)} task{'' if len(found) == 1 else 's'}"]
            for task in found[:50]:
                line = f"{one_line(task.task_id, limit=80)}  {one_line(task.status, limit=20)}"
                if task.status_message:
                    line += f"  {one_line(task.status_message, limit=120)}"
                lines.append(line)
            self._areas.note(server, "\n".join(lines))

        self._screen.run_worker(run(), group="features", exit_on_error=False)

    # --- log level ---------------------------------------------------------------------------

    def choose_log_level(self, server: str) -> None:
        ready = self._calls.ready(server)
        if ready is None:
            return
        entry, connection = ready
        from mcp_tui.ui.screens.pick import PickScreen

        entries = [(level, literal_line(level)) for level in LOG_LEVELS]

        async def apply(level: str) -> None:
            why = await connection.set_log_level(level)
            if why is None:
                entry.log_level = level
                self._server_changed()
                self._areas.note(
                    server, f"log level {level}: the server's log messages at that level and up"
                )
            else:
                self._areas.note(server, f"the log level stays {entry.log_level}: {why}", "error")

        def chosen(level: str | None) -> None:
            if level is not None:
                self._screen.run_worker(apply(level), group="features", exit_on_error=False)

        self._screen.app.push_screen(
            PickScreen(
                f"Log level of {one_line(shown_name(server), limit=40)}",
                entries,
                current=entry.log_level,
                note="Server log messages at this level and above are shown in the log panel.",
            ),
            callback=chosen,
        )

    # --- resource subscriptions --------------------------------------------------------------

    def toggle_subscription(self, server: str, resource: ResourceInfo) -> None:
        ready = self._calls.ready(server)
        if ready is None:
            return
        entry, connection = ready
        notify = self._screen.notify
        if not connection.can_subscribe:
            notify(
                f"{one_line(shown_name(server))} does not offer resource subscriptions",
                severity="warning",
                markup=False,
            )
            return
        on = resource.uri not in entry.subscribed

        async def run() -> None:
            why = await connection.subscribe(resource.uri, on)
            if why is not None:
                self._areas.note(server, why, "error")
                return
            entry.mark(resource.uri, subscribed=on)
            self.app.refresh_server(server)
            verb = "subscribed to" if on else "unsubscribed from"
            notify(f"{one_line(shown_name(server))}: {verb} {one_line(resource.uri)}", markup=False)

        self._screen.run_worker(run(), group="features", exit_on_error=False)
