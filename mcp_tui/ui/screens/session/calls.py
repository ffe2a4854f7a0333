"""The requests the session screen sends: call a tool, get a prompt, read a resource, cancel.

Each request is written to the transcript at once, runs in a worker of the screen (so a slow
server never blocks the UI, several calls can run together, and leaving the screen stops them),
shows a progress row while it runs, and writes its outcome. No client-side timeout is applied: a
call may wait minutes while the user fills a form for it. A call that fails with -32042 (pages to
visit first) goes on in :mod:`~mcp_tui.ui.screens.url_required`, then is retried.

The screen owns one :class:`Calls`; the forms (``argument_forms.py``), the server features and
"call again" send through it, and the chat awaits a call's outcome here
(:meth:`Calls.call_tool_awaited`). The running calls (``c`` cancels one) and the history of the
person's calls (``a``, "Save as a test") are kept here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

from textual.screen import Screen

from mcp_tui.session.events import CallOutcome, ConnectionState
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.call_history import CallHistory
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.render import call_entry, outcome_entry
from mcp_tui.ui.screens.session.areas import SessionAreas
from mcp_tui.ui.screens.url_required import UrlRound, url_required
from mcp_tui.ui.server_state import Connection, ServerEntry
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.untrusted import one_line


class Calls:
    """Sends the screen's requests and keeps the running ones (see the module docstring)."""

    def __init__(self, screen: Screen[None], areas: SessionAreas) -> None:
        self._screen = screen
        self._areas = areas
        #: Tool calls running now, by call id: ``(server, heading)`` (``c`` cancels one).
        self.cancellable: dict[int, tuple[str, str]] = {}
        #: The person's calls, with the answers given during each (``a``, "Save as a test").
        self.history = CallHistory()

    @property
    def app(self) -> McpApp:
        """The app, by what the calls use of it (``ui/app_interface.py``)."""
        return cast(McpApp, self._screen.app)

    def ready(
        self, server: str, *, unsent: str | None = None
    ) -> tuple[ServerEntry, Connection] | None:
        """The server's entry and live connection, or None with a notification saying why.

        ``unsent`` names what a form was about to send (a call, a prompt request, a read) when
        its server went away while it was open: the notice then says nothing was sent and that
        the values typed are kept (``remember``, as ``unsent``: the form opens with them again).
        """
        entry = self.app.entries.get(server)
        connection = entry.connection if entry is not None else None
        if entry is not None and connection is not None and entry.state is ConnectionState.READY:
            return entry, connection
        notify = self._screen.notify
        if entry is None and unsent is None:
            notify(f"No server named {one_line(server)!r}", severity="error", markup=False)
            return None
        if entry is None:
            state = "gone"
        elif entry.connection is None:  # dropped by R; the state changes on the next flush
            state = "not connected"
        else:
            state = entry.state.value
        if unsent is None:
            notify(
                f"{one_line(shown_name(server))} is {state}, not ready",
                severity="warning",
                markup=False,
            )
            return None
        notify(
            f"{one_line(shown_name(server))} is {state}: the {unsent} was not sent. What you "
            "typed is kept: the form opens with it again once the server is back (R reconnects).",
            severity="warning",
            markup=False,
            timeout=10,
        )
        return None

    def _run_request(
        self,
        server: str,
        label: str,
        arguments: Mapping[str, Any] | None,
        request: Callable[[int], Awaitable[CallOutcome]],
        *,
        kind: str = "result",
        then: Callable[[CallOutcome], Awaitable[None]] | None = None,
    ) -> int:
        """Show the request, run it in a worker with a progress row, then show its outcome."""
        screen, areas = self._screen, self._areas
        call_id = self.app.next_call_id()
        areas.show(call_entry(server, label, arguments, call_id))
        heading = f"#{call_id} {shown_name(server)} › {label}"
        areas.running.start(call_id, literal_line(heading, limit=60))

        async def run() -> None:
            try:
                outcome = await request(call_id)
            except Exception as error:  # connections should not raise; never lose the call
                outcome = CallOutcome(error=f"{type(error).__name__}: {error}")
            finally:
                if self.cancellable.pop(call_id, None) is not None:
                    screen.refresh_bindings()
                if areas.panels_live:  # a call that ends while the app closes has no row left
                    areas.running.finish(call_id)
                self._call_ended(server, call_id)
            # Through the app's queue, so an ElicitationFinished posted before the result came
            # back is written first (the transcript keeps the order things happened in); what
            # follows the outcome (a -32042's consent and retry) starts once it is written.
            shown = asyncio.Event()

            def show() -> None:
                asked = self.history.asked(call_id)
                areas.show(outcome_entry(heading, outcome, kind=kind, asked=asked))
                self.history.finished(call_id, outcome)
                shown.set()

            screen.app.call_later(show)
            if then is not None:
                await shown.wait()
                await then(outcome)

        screen.run_worker(run(), group="calls", name=heading, exit_on_error=False)
        return call_id

    def _call_ended(self, server: str, call_id: int) -> None:
        """A call returned: its id-less URL waits (2026-07-28) end with it."""
        if self.app.url_waits.call_ended(server, call_id):
            self._areas.url_waits_changed()

    # --- tools -------------------------------------------------------------------------------

    def call_tool(
        self,
        server: str,
        name: str,
        arguments: Mapping[str, Any],
        *,
        retry_of: UrlRound | None = None,
        as_task: bool = False,
    ) -> int | None:
        """Call ``name`` with exactly ``arguments``; returns the call id (``as_task``: an
        optional-task tool runs as a task; required ones always do).

        ``retry_of`` is set when this call retries one that failed with -32042, so the loop
        guard can tell the same pages asked for again.
        """
        ready = self.ready(server)
        if ready is None:
            return None
        entry, connection = ready
        args = dict(arguments)
        task: dict[str, Any] = {"as_task": True} if as_task else {}  # test fakes take no as_task

        async def then(outcome: CallOutcome) -> None:
            if outcome.url_elicitations:
                again = await url_required(
                    self._screen, self._areas.show, server, name, outcome.url_elicitations, retry_of
                )
                if again is not None:
                    self.call_tool(server, name, args, retry_of=again)

        call_id = self._run_request(
            server,
            name,
            args,
            lambda call_id: connection.call_tool(name, args, call_id=call_id, **task),
            then=then,
        )
        self.cancellable[call_id] = (server, f"#{call_id} {shown_name(server)} › {name}")
        self.history.started(
            call_id, server, "tool", name, args, as_task=as_task, generation=entry.generation
        )
        self._screen.refresh_bindings()
        return call_id

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
                self._screen,
                self._areas.show,
                server,
                name,
                outcome.url_elicitations,
                retry_of,
                asking_over=asking_over,
            )
            if retry_of is None:
                return outcome

    async def _call_awaited_once(
        self, server: str, name: str, arguments: Mapping[str, Any], asked: list[str] | None
    ) -> CallOutcome:
        ready = self.ready(server)
        if ready is None:
            return CallOutcome(error=f"{shown_name(server)} is not ready.")
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

    def cancel_call(self, call_id: int) -> None:
        """Cancel tool call ``call_id``: the server is told (``notifications/cancelled``)."""
        notify = self._screen.notify
        running = self.cancellable.get(call_id)
        if running is None:
            notify(f"Call #{call_id} is not running", severity="warning", markup=False)
            return
        server, _heading = running
        entry = self.app.entries.get(server)
        connection = entry.connection if entry is not None else None
        if connection is None or not connection.cancel_call(call_id):
            notify(f"Call #{call_id} is not running", severity="warning", markup=False)
            return
        notify(f"Cancelling call #{call_id}", markup=False)

    # --- prompts and resources ---------------------------------------------------------------

    def get_prompt(self, server: str, name: str, arguments: Mapping[str, str]) -> int | None:
        ready = self.ready(server)
        if ready is None:
            return None
        entry, connection = ready
        args = dict(arguments)
        call_id = self._run_request(
            server,
            f"prompt {name}",
            args,
            lambda _call_id: connection.get_prompt(name, args),
            kind="prompt",
        )
        self.history.started(call_id, server, "prompt", name, args, generation=entry.generation)
        self._screen.refresh_bindings()
        return call_id

    def read_resource(self, server: str, uri: str, name: str | None = None) -> int | None:
        ready = self.ready(server)
        if ready is None:
            return None
        entry, connection = ready
        if uri in entry.updated:  # read again: the "updated" mark is seen
            entry.mark(uri, updated=False)
            self.app.refresh_server(server)
        call_id = self._run_request(
            server,
            f"read {uri}",
            None,
            lambda _call_id: connection.read_resource(uri),
            kind="resource",
        )
        self.history.started(call_id, server, "resource", uri, generation=entry.generation)
        self._screen.refresh_bindings()  # ``a`` (again) and "Save as a test" follow the last call
        return call_id
