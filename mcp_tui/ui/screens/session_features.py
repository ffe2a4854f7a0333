"""The session screen's client-feature verbs: cancel a call, roots, ping, log level, subscribe.

Between the call verbs (``session_verbs.py``) and the areas (``session_layout.py``). Each verb
is a key and a palette entry; each works on the server under the catalog cursor (or the one the
palette entry names), runs the request in a worker, and reports in a notification and the
transcript. What each does on which protocol era is the session layer's business
(``session/features.py``); the screens it opens are imported when first needed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Literal

from mcp_tui.session.events import LOG_LEVELS, CallOutcome, Notice, ResourceInfo
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.render import notice_entry
from mcp_tui.ui.screens.session_verbs import SessionVerbs
from mcp_tui.ui.screens.url_required import url_required
from mcp_tui.ui.server_state import ServerEntry
from mcp_tui.untrusted import one_line

Severity = Literal["information", "warning", "error"]


class SessionFeatures(SessionVerbs):
    """Cancel, roots, ping, log level and subscriptions (see the module docstring)."""

    def _note(self, server: str, text: str, severity: Severity = "information") -> None:
        """A notification and the same line in the transcript."""
        self.notify(f"{one_line(server)}: {text}", severity=severity, markup=False)
        self._show_outcome(notice_entry(Notice(server, text, severity)))

    # --- cancel a running call ---------------------------------------------------------------

    def cancel_call(self, call_id: int) -> None:
        """Cancel tool call ``call_id``: the server is told (``notifications/cancelled``)."""
        running = self.cancellable.get(call_id)
        if running is None:
            self.notify(f"Call #{call_id} is not running", severity="warning", markup=False)
            return
        server, _heading = running
        entry = self.mcp_app.entries.get(server)
        connection = entry.connection if entry is not None else None
        if connection is None or not connection.cancel_call(call_id):
            self.notify(f"Call #{call_id} is not running", severity="warning", markup=False)
            return
        self.notify(f"Cancelling call #{call_id}", markup=False)

    async def call_tool_awaited(
        self,
        server: str,
        name: str,
        arguments: Mapping[str, Any],
        *,
        asking_over: object | None = None,
        asked: list[str] | None = None,
    ) -> CallOutcome:
        """Call a tool for someone who awaits its outcome (the chat), shown like any call here.

        A -32042 (pages to visit first) goes through the same consent, wait and retry as a call
        made by hand, the retry question asked over ``asking_over`` (the chat): the caller gets
        the retried call's outcome, or the -32042 when the person stops. If the caller stops
        waiting (the chat's Escape), the running call is cancelled on the server too.
        ``asked`` gets what the server asked during each round ("asked: confirm → accepted"),
        as the transcript's card says it, for the caller's own card.
        """
        retry_of = None
        while True:
            outcome = await self._call_awaited_once(server, name, arguments, asked)
            if not outcome.url_elicitations:
                return outcome
            retry_of = await url_required(
                self, server, name, outcome.url_elicitations, retry_of, asking_over=asking_over
            )
            if retry_of is None:
                return outcome

    async def _call_awaited_once(
        self, server: str, name: str, arguments: Mapping[str, Any], asked: list[str] | None
    ) -> CallOutcome:
        ready = self._ready(server)
        if ready is None:
            return CallOutcome(error=f"{server} is not ready.")
        _, connection = ready
        args = dict(arguments)
        done: asyncio.Future[CallOutcome] = asyncio.get_running_loop().create_future()

        async def then(outcome: CallOutcome) -> None:
            if not done.done():
                done.set_result(outcome)

        call_id = self._run_request(
            server,
            name,
            args,
            lambda call_id: connection.call_tool(name, args, call_id=call_id),
            then=then,
        )
        self.history.watch(call_id)  # before the worker runs: nothing was asked yet
        try:
            outcome = await done
            said = self.history.asked(call_id)
            if said and asked is not None:
                asked.append(said)
            return outcome
        except asyncio.CancelledError:
            if call_id in self.cancellable:
                self.cancel_call(call_id)
            raise

    def pick_call_to_cancel(self) -> None:
        """``c``: the only running call, or a choice among several."""
        calls = dict(self.cancellable)
        if not calls:
            self.notify("No tool call is running", severity="warning")
            return
        if len(calls) == 1:
            self.cancel_call(next(iter(calls)))
            return
        from mcp_tui.ui.screens.pick import PickScreen

        entries = [
            (str(call_id), literal_line(heading, limit=80))
            for call_id, (_, heading) in calls.items()
        ]

        def chosen(key: str | None) -> None:
            if key is not None:
                self.cancel_call(int(key))

        self.app.push_screen(PickScreen("Cancel which call?", entries), callback=chosen)

    # --- roots -------------------------------------------------------------------------------

    def open_roots(self, server: str) -> None:
        """The roots dialog for ``server``; applying sends the new list to the connection."""
        entry = self.mcp_app.entries.get(server)
        if entry is None:
            return
        from mcp_tui.config.roots import spec_roots
        from mcp_tui.ui.screens.roots_dialog import RootsScreen

        connection = entry.connection
        current = connection.roots if connection is not None else spec_roots(entry.spec)

        def chosen(roots: tuple[object, ...] | None) -> None:
            if roots is not None:
                self.mcp_app.set_roots(server, roots)  # type: ignore[arg-type]

        self.app.push_screen(RootsScreen(server, current), callback=chosen)

    # --- ping --------------------------------------------------------------------------------

    def ping(self, server: str) -> None:
        ready = self._ready(server)
        if ready is None:
            return
        _, connection = ready

        async def run() -> None:
            trip = await connection.ping()
            if trip.seconds is not None:
                self._note(server, f"{trip.method} answered in {trip.seconds * 1000:.1f} ms")
            else:
                self._note(server, f"{trip.method} failed: {trip.error}", "error")

        self.run_worker(run(), group="features", exit_on_error=False)

    # --- tasks -------------------------------------------------------------------------------

    def list_tasks(self, server: str) -> None:
        """``tasks/list``: the server's tasks, one line each, in the transcript."""
        ready = self._ready(server)
        if ready is None:
            return
        _, connection = ready

        async def run() -> None:
            found = await connection.list_tasks()  # type: ignore[attr-defined]
            if isinstance(found, str):
                self._note(server, f"tasks/list failed: {found}", "error")
                return
            lines = [f"tasks/list: {len(found)} task{'' if len(found) == 1 else 's'}"]
            for task in found[:50]:
                line = f"{one_line(task.task_id, limit=80)}  {one_line(task.status, limit=20)}"
                if task.status_message:
                    line += f"  {one_line(task.status_message, limit=120)}"
                lines.append(line)
            self._note(server, "\n".join(lines))

        self.run_worker(run(), group="features", exit_on_error=False)

    # --- log level ---------------------------------------------------------------------------

    def choose_log_level(self, server: str) -> None:
        ready = self._ready(server)
        if ready is None:
            return
        entry, connection = ready
        from mcp_tui.ui.screens.pick import PickScreen

        entries = [(level, literal_line(level)) for level in LOG_LEVELS]

        async def apply(level: str) -> None:
            why = await connection.set_log_level(level)
            if why is None:
                entry.log_level = level
                self.server_changed()
                self._note(
                    server, f"log level {level}: the server's log messages at that level and up"
                )
            else:
                self._note(server, f"the log level stays {entry.log_level}: {why}", "error")

        def chosen(level: str | None) -> None:
            if level is not None:
                self.run_worker(apply(level), group="features", exit_on_error=False)

        self.app.push_screen(
            PickScreen(
                f"Log level of {one_line(server, limit=40)}",
                entries,
                current=entry.log_level,
                note="Server log messages at this level and above are shown in the log panel.",
            ),
            callback=chosen,
        )

    # --- resource subscriptions --------------------------------------------------------------

    def toggle_subscription(self, server: str, resource: ResourceInfo) -> None:
        ready = self._ready(server)
        if ready is None:
            return
        entry, connection = ready
        if not connection.can_subscribe:
            self.notify(
                f"{one_line(server)} does not offer resource subscriptions",
                severity="warning",
                markup=False,
            )
            return
        on = resource.uri not in entry.subscribed

        async def run() -> None:
            why = await connection.subscribe(resource.uri, on)
            if why is not None:
                self._note(server, why, "error")
                return
            entry.mark(resource.uri, subscribed=on)
            self.mcp_app.refresh_server(server)
            verb = "subscribed to" if on else "unsubscribed from"
            self.notify(f"{one_line(server)}: {verb} {one_line(resource.uri)}", markup=False)

        self.run_worker(run(), group="features", exit_on_error=False)

    def server_changed(self, entry: ServerEntry | None = None) -> None:
        """Overridden by the session screen: redraw the server's tree, the info panel and the
        keys."""
