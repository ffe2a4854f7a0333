"""The verbs of the session screen: call a tool, get a prompt, read a resource or template.

Each verb asks for arguments when there are any (:class:`ArgumentsScreen`), writes the request to
the transcript at once, runs the request in a worker (so a slow server never blocks the UI, and
several calls can run together), shows a progress row while it runs, and writes the outcome.
No client-side timeout is applied: a call may wait minutes while the user fills a form for it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from mcp_tui.session.elicitation import ElicitationRequest
from mcp_tui.session.events import CallOutcome, ConnectionState, ResourceInfo
from mcp_tui.ui.render import Entry, call_entry, outcome_entry
from mcp_tui.ui.screens.arguments import ArgumentsScreen
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.state import Connection, ServerEntry
from mcp_tui.ui.text import literal_line
from mcp_tui.ui.uri_template import expand, variables
from mcp_tui.ui.widgets.log_panel import LogPanel
from mcp_tui.ui.widgets.running_calls import RunningCalls
from mcp_tui.ui.widgets.traffic import TrafficView
from mcp_tui.ui.widgets.transcript import Transcript
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from mcp_tui.ui.app import McpTuiApp


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

    @property
    def transcript(self) -> Transcript:
        return self.query_one("#transcript", Transcript)

    @property
    def running(self) -> RunningCalls:
        return self.query_one("#running", RunningCalls)

    @property
    def logs(self) -> LogPanel:
        return self.query_one("#logs", LogPanel)

    @property
    def traffic(self) -> TrafficView:
        return self.query_one("#traffic", TrafficView)

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
            # Through the app's queue, so an ElicitationFinished posted before the result came
            # back is written first (the transcript keeps the order things happened in).
            self.app.call_later(self._show_outcome, outcome_entry(heading, outcome, kind=kind))
            if then is not None:
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

        self.app.push_screen(
            ArgumentsScreen(title, tool.input_schema, description=tool.description, verb="Call"),
            callback=chosen,
        )

    def call_tool(self, server: str, name: str, arguments: Mapping[str, Any]) -> int | None:
        """Call ``name`` with exactly ``arguments``; returns the call id."""
        ready = self._ready(server)
        if ready is None:
            return None
        _, connection = ready
        args = dict(arguments)

        async def then(outcome: CallOutcome) -> None:
            if outcome.url_elicitations:
                await self._url_required(server, name, args, outcome.url_elicitations)

        return self._run_request(
            server,
            name,
            args,
            lambda call_id: connection.call_tool(name, args, call_id=call_id),
            then=then,
        )

    async def _url_required(
        self, server: str, name: str, arguments: dict[str, Any], requests: Sequence[Any]
    ) -> None:
        """-32042: ask consent for each URL (the usual consent screen), then offer a retry.

        The tool failed because the user must first visit pages the server named; the requests go
        through the elicitation handler like any URL-mode request (queued, checked, recorded in
        the transcript). Only when every URL was accepted is retrying the call offered.
        """
        handler = self.mcp_app.handler
        if handler is None:
            return
        for request in requests:
            if not isinstance(request, ElicitationRequest):
                return
            outcome = await handler.elicit(request)
            if outcome.action != "accept":
                return
        retry = await self.app.push_screen_wait(
            ConfirmScreen(
                "Retry the call?",
                f"{one_line(server)} asked you to visit a page before {one_line(name)} can run. "
                "When you have finished there, retry the call.",
                yes="Retry now",
                no="Not now",
            )
        )
        if retry:
            self.call_tool(server, name, arguments)

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

        self.app.push_screen(
            ArgumentsScreen(
                f"{server} › {template.name}",
                schema,
                description=f"{template.uri}\n{template.description or ''}".strip(),
                verb="Read",
            ),
            callback=chosen,
        )
