"""The verbs of the session screen: call a tool, get a prompt, read a resource or template.

Each verb asks for arguments when there are any (``ArgumentsScreen``, imported when first needed:
its ``TextArea`` costs 16-33 ms, off the first frame's path), writes the request to
the transcript at once, runs the request in a worker (so a slow server never blocks the UI, and
several calls can run together), shows a progress row while it runs, and writes the outcome.
No client-side timeout is applied: a call may wait minutes while the user fills a form for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from textual.screen import Screen

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import CallOutcome, ConnectionState, ResourceInfo
from mcp_tui.ui.render import Entry, call_entry, outcome_entry, url_loop_entry
from mcp_tui.ui.state import Connection, ServerEntry
from mcp_tui.ui.text import literal_line
from mcp_tui.ui.uri_template import expand, variables
from mcp_tui.ui.url_waits import FINISHED
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from mcp_tui.ui.app import McpTuiApp
    from mcp_tui.ui.widgets.log_panel import LogPanel
    from mcp_tui.ui.widgets.running_calls import RunningCalls
    from mcp_tui.ui.widgets.traffic import TrafficView
    from mcp_tui.ui.widgets.transcript import Transcript


#: A chain of -32042 answers (each retry asking for other pages) stops after this many rounds.
MAX_URL_ROUNDS = 3


@dataclass(frozen=True)
class UrlRound:
    """A -32042 round whose pages were finished: the URLs asked for, and the rounds so far."""

    urls: tuple[str, ...]
    rounds: int


def _string_schema(fields: Iterable[tuple[str, str | None, bool]]) -> dict[str, Any]:
    """A flat object schema of string properties (prompt arguments, template variables)."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, description, needed in fields:
        prop: dict[str, Any] = {"type": "string"}
        if description:
            prop["description"] = description
        properties[name] = prop
        if needed:
            required.append(name)
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


class SessionVerbs(Screen[None]):
    """Base of the session screen: widget shortcuts, the transcript queue and the verbs."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._pending_entries: list[Entry] = []

    @property
    def mcp_app(self) -> McpTuiApp:
        from mcp_tui.ui.app import McpTuiApp

        app = self.app
        assert isinstance(app, McpTuiApp)
        return app

    # Queried by id: the widget classes are imported by ``SessionScreen.compose``.

    @property
    def transcript(self) -> Transcript:
        return cast("Transcript", self.query_one("#transcript"))

    @property
    def running(self) -> RunningCalls:
        return cast("RunningCalls", self.query_one("#running"))

    @property
    def logs(self) -> LogPanel:
        return cast("LogPanel", self.query_one("#logs"))

    @property
    def traffic(self) -> TrafficView:
        return cast("TrafficView", self.query_one("#traffic"))

    # --- transcript queue --------------------------------------------------------------------

    def queue_entries(self, entries: Iterable[Entry]) -> None:
        """Add transcript entries at the next flush (one mount for many entries)."""
        self._pending_entries.extend(entries)

    def flush_entries(self) -> None:
        if self._pending_entries and self.is_mounted:
            entries, self._pending_entries = self._pending_entries, []
            self.transcript.add_entries(entries)

    def _show_outcome(self, entry: Entry) -> None:
        self.queue_entries([entry])
        self.flush_entries()

    def _call_ended(self, server: str, call_id: int) -> None:
        """A call returned: its id-less URL waits (2026-07-28) end with it."""
        if self.mcp_app.url_waits.call_ended(server, call_id):
            self.url_waits_changed()

    def url_waits_changed(self) -> None:
        """Overridden by the session screen to redraw the waiting rows."""

    # --- helpers -----------------------------------------------------------------------------

    def _ready(self, server: str) -> tuple[ServerEntry, Connection] | None:
        """The server's entry and live connection, or None with a notification saying why."""
        entry = self.mcp_app.entries.get(server)
        if entry is None:
            self.notify(f"No server named {one_line(server)!r}", severity="error", markup=False)
            return None
        if entry.connection is None or entry.state is not ConnectionState.READY:
            self.notify(
                f"{one_line(server)} is {entry.state.value}, not ready",
                severity="warning",
                markup=False,
            )
            return None
        return entry, entry.connection

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
        call_id = self.mcp_app.next_call_id()
        self.queue_entries([call_entry(server, label, arguments, call_id)])
        self.flush_entries()
        heading = f"#{call_id} {server} › {label}"
        self.running.start(call_id, literal_line(heading, limit=60))

        async def run() -> None:
            try:
                outcome = await request(call_id)
            except Exception as error:  # connections should not raise; never lose the call
                outcome = CallOutcome(error=f"{type(error).__name__}: {error}")
            finally:
                self.running.finish(call_id)
                self._call_ended(server, call_id)
            # Through the app's queue, so an ElicitationFinished posted before the result came
            # back is written first (the transcript keeps the order things happened in); what
            # follows the outcome (a -32042's consent and retry) starts once it is written.
            shown = asyncio.Event()

            def show() -> None:
                self._show_outcome(outcome_entry(heading, outcome, kind=kind))
                shown.set()

            self.app.call_later(show)
            if then is not None:
                await shown.wait()
                await then(outcome)

        self.run_worker(run(), group="calls", name=heading, exit_on_error=False)
        return call_id

    # --- tools -------------------------------------------------------------------------------

    def open_tool(self, server: str, name: str) -> None:
        """Ask for the tool's arguments (form or JSON editor), then call it."""
        ready = self._ready(server)
        if ready is None:
            return
        entry, _ = ready
        tool = entry.find_tool(name)
        if tool is None:
            self.notify(f"No tool {one_line(name)!r}", severity="error", markup=False)
            return
        title = f"{server} › {tool.title or tool.name}"

        def chosen(arguments: dict[str, Any] | None) -> None:
            if arguments is not None:
                self.call_tool(server, name, arguments)

        from mcp_tui.ui.screens.arguments import ArgumentsScreen  # lazy: TextArea is slow to import

        self.app.push_screen(
            ArgumentsScreen(title, tool.input_schema, description=tool.description, verb="Call"),
            callback=chosen,
        )

    def call_tool(
        self,
        server: str,
        name: str,
        arguments: Mapping[str, Any],
        *,
        retry_of: UrlRound | None = None,
    ) -> int | None:
        """Call ``name`` with exactly ``arguments``; returns the call id.

        ``retry_of`` is set when this call retries one that failed with -32042, so the loop
        guard can tell the same pages asked for again.
        """
        ready = self._ready(server)
        if ready is None:
            return None
        _, connection = ready
        args = dict(arguments)

        async def then(outcome: CallOutcome) -> None:
            if outcome.url_elicitations:
                await self._url_required(server, name, args, outcome.url_elicitations, retry_of)

        return self._run_request(
            server,
            name,
            args,
            lambda call_id: connection.call_tool(name, args, call_id=call_id),
            then=then,
        )

    async def _url_required(
        self,
        server: str,
        name: str,
        arguments: dict[str, Any],
        requests: Sequence[Any],
        previous: UrlRound | None,
    ) -> None:
        """-32042: consent for each URL, wait for the pages to finish, then offer one retry.

        The tool failed because the user must first visit pages the server named. Each request
        goes through the elicitation handler like any URL-mode request (queued, checked,
        recorded in the transcript); an accepted one waits, visibly, until the server completes
        it or the user says it is done. Only then is the retry offered (one key). The loop
        guard: a retry answered with the same URLs again stops here, and so does a chain of
        more than :data:`MAX_URL_ROUNDS` rounds.
        """
        handler = self.mcp_app.handler
        asked = [r for r in requests if isinstance(r, ElicitationRequest)]
        if handler is None or not asked:
            return
        urls = tuple(r.url or "" for r in asked)
        url_list = sorted(set(urls))
        if previous is not None and sorted(set(previous.urls)) == url_list:
            self._stop_url_loop(
                server,
                name,
                url_list,
                "After the retry the server asked for the same page"
                + ("s" if len(url_list) > 1 else "")
                + " again, so the page was not finished (or the server does not know yet). "
                "mcp-tui stops here instead of asking in a loop; call the tool again when the "
                "page is done.",
            )
            return
        rounds = previous.rounds + 1 if previous is not None else 1
        if rounds > MAX_URL_ROUNDS:
            self._stop_url_loop(
                server,
                name,
                url_list,
                f"The server asked for pages {rounds} times in a row; mcp-tui stops retrying. "
                "Call the tool again yourself to continue.",
            )
            return
        keys = []
        for request in asked:
            outcome = await handler.elicit(request)
            if outcome.action != "accept":
                verb = "declined" if outcome.action == "decline" else "cancelled"
                self._stop_url_loop(
                    server, name, [], f"You {verb} the page, so the call is not retried."
                )
                return
            keys.append(self.mcp_app.url_waits.add(request).key)
            self.url_waits_changed()
        waits = await self.mcp_app.url_waits.settled(keys)
        unfinished = [w for w in waits if w.state not in FINISHED]
        if unfinished or len(waits) != len(keys):
            why = {
                "gave_up": "You stopped waiting for the page.",
                "timed_out": "The page did not finish in time.",
                "closed": "The connection ended.",
            }
            state = unfinished[0].state if unfinished else None
            reason = why.get(state or "", "The wait ended before the page was finished.")
            self._stop_url_loop(server, name, [], reason)
            return
        if not await self._offer_retry(server, name, len(keys)):
            return
        self.call_tool(server, name, arguments, retry_of=UrlRound(urls, rounds))

    async def _offer_retry(self, server: str, name: str, pages: int) -> bool:
        """Ask (once the user is back on this screen) whether to retry the call now."""
        while self.app.screen is not self:  # never put a question over a form being filled
            if not self.is_attached:
                return False
            await asyncio.sleep(0.2)
        from mcp_tui.ui.screens.confirm import ConfirmScreen

        the_pages = "The page is" if pages == 1 else f"All {pages} pages are"
        retry = await self.app.push_screen_wait(
            ConfirmScreen(
                f"Retry {one_line(name, limit=60)}?",
                f"{the_pages} finished: {one_line(server, limit=60)} can now run "
                f"{one_line(name, limit=60)}. Retry the call with the same arguments?",
                yes="Retry now",
                no="Not now",
                danger=False,
            )
        )
        return bool(retry)

    def _stop_url_loop(self, server: str, name: str, urls: list[str], reason: str) -> None:
        self.queue_entries([url_loop_entry(server, name, urls, reason)])
        self.flush_entries()

    # --- prompts -----------------------------------------------------------------------------

    def open_prompt(self, server: str, name: str) -> None:
        """Ask for the prompt's arguments when it has any, then get it."""
        ready = self._ready(server)
        if ready is None:
            return
        entry, _ = ready
        prompt = next((p for p in entry.prompts if p.name == name), None)
        if prompt is None:
            self.notify(f"No prompt {one_line(name)!r}", severity="error", markup=False)
            return
        if not prompt.arguments:
            self.get_prompt(server, name, {})
            return
        schema = _string_schema((a.name, a.description, a.required) for a in prompt.arguments)

        def chosen(arguments: dict[str, Any] | None) -> None:
            if arguments is not None:
                self.get_prompt(server, name, {k: str(v) for k, v in arguments.items()})

        title = f"{server} › prompt {prompt.title or prompt.name}"
        from mcp_tui.ui.screens.arguments import ArgumentsScreen  # lazy: TextArea is slow to import

        self.app.push_screen(
            ArgumentsScreen(title, schema, description=prompt.description, verb="Get"),
            callback=chosen,
        )

    def get_prompt(self, server: str, name: str, arguments: Mapping[str, str]) -> int | None:
        ready = self._ready(server)
        if ready is None:
            return None
        _, connection = ready
        args = dict(arguments)
        return self._run_request(
            server,
            f"prompt {name}",
            args,
            lambda _call_id: connection.get_prompt(name, args),
            kind="prompt",
        )

    # --- resources ---------------------------------------------------------------------------

    def read_resource(self, server: str, uri: str, name: str | None = None) -> int | None:
        ready = self._ready(server)
        if ready is None:
            return None
        _, connection = ready
        return self._run_request(
            server,
            f"read {uri}",
            None,
            lambda _call_id: connection.read_resource(uri),
            kind="resource",
        )

    def open_template(self, server: str, template: ResourceInfo) -> None:
        """Ask for the template's variables, expand it and read the resulting URI."""
        names = variables(template.uri)
        if not names:
            self.read_resource(server, template.uri, template.name)
            return
        schema = _string_schema((name, None, True) for name in names)

        def chosen(values: dict[str, Any] | None) -> None:
            if values is not None:
                uri = expand(template.uri, {k: str(v) for k, v in values.items()})
                self.read_resource(server, uri, template.name)

        from mcp_tui.ui.screens.arguments import ArgumentsScreen  # lazy: TextArea is slow to import

        self.app.push_screen(
            ArgumentsScreen(
                f"{server} › {template.name}",
                schema,
                description=f"{template.uri}\n{template.description or ''}".strip(),
                verb="Read",
            ),
            callback=chosen,
        )
