"""The verbs of the session screen: call a tool, get a prompt, read a resource or template.

Each verb asks for arguments when there are any (``ArgumentsScreen``, imported when first needed:
its ``TextArea`` costs 16-33 ms, off the first frame's path), writes the request to
the transcript at once, runs the request in a worker (so a slow server never blocks the UI, and
several calls can run together), shows a progress row while it runs, and writes the outcome.
No client-side timeout is applied: a call may wait minutes while the user fills a form for it.
A call that fails with -32042 (pages to visit first) goes on in :mod:`.url_required`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from textual.screen import Screen

from mcp_tui.session.events import CallOutcome, ConnectionState, ResourceInfo
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.call_history import CallHistory
from mcp_tui.ui.closing import closing
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.render import Entry, call_entry, outcome_entry
from mcp_tui.ui.screens.url_required import UrlRound, url_required
from mcp_tui.ui.server_state import Connection, ServerEntry
from mcp_tui.ui.uri_template import expand, variables
from mcp_tui.untrusted import one_line

if TYPE_CHECKING:
    from mcp_tui.ui.widgets.session.log_panel import LogPanel
    from mcp_tui.ui.widgets.session.running_calls import RunningCalls
    from mcp_tui.ui.widgets.session.traffic_view import TrafficView
    from mcp_tui.ui.widgets.session.transcript import Transcript


class SessionVerbs(Screen[None]):
    """Base of the session screen: widget shortcuts, the transcript queue and the verbs."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._pending_entries: list[Entry] = []
        #: Tool calls running now, by call id: ``(server, heading)`` (``c`` cancels one).
        self.cancellable: dict[int, tuple[str, str]] = {}
        #: The panels below exist (``SessionScreen.mount_panels``, after the first frame).
        self._panels_ready = False
        #: The person's calls, with the answers given during each (``a``, "Save as a test").
        self.history = CallHistory()

    @property
    def mcp_app(self) -> McpApp:
        """The app, by what the screen uses of it (``ui/app_interface.py``: no import of the
        app, which imports this screen); this screen only ever runs in ``McpTuiApp``."""
        return cast(McpApp, self.app)

    @property
    def panels_ready(self) -> bool:
        """The panels are mounted: batches, entries and the panel keys can reach them."""
        return self._panels_ready

    @property
    def panels_live(self) -> bool:
        """The panels are mounted and still there: False again once the screen is being taken
        down (``closing.py``), when whatever still arrives is dropped, not drawn."""
        return self._panels_ready and not closing(self)

    # Queried by id: the widget classes are imported by ``SessionScreen.mount_panels``.

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
        if self._pending_entries and self.panels_live:
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

    def _ready(
        self, server: str, *, unsent: str | None = None
    ) -> tuple[ServerEntry, Connection] | None:
        """The server's entry and live connection, or None with a notification saying why.

        ``unsent`` names what a form was about to send (a call, a prompt request, a read) when
        its server went away while it was open: the notice then says nothing was sent and that
        the values typed are kept (``remember``, as ``unsent``: the form opens with them again).
        """
        entry = self.mcp_app.entries.get(server)
        connection = entry.connection if entry is not None else None
        if entry is not None and connection is not None and entry.state is ConnectionState.READY:
            return entry, connection
        if entry is None and unsent is None:
            self.notify(f"No server named {one_line(server)!r}", severity="error", markup=False)
            return None
        if entry is None:
            state = "gone"
        elif entry.connection is None:  # dropped by R; the state changes on the next flush
            state = "not connected"
        else:
            state = entry.state.value
        if unsent is None:
            self.notify(
                f"{one_line(server)} is {state}, not ready", severity="warning", markup=False
            )
            return None
        self.notify(
            f"{one_line(server)} is {state}: the {unsent} was not sent. What you typed is kept: "
            "the form opens with it again once the server is back (R reconnects).",
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
                if self.cancellable.pop(call_id, None) is not None:
                    self.refresh_bindings()
                if self.panels_live:  # a call that ends while the app closes has no row left
                    self.running.finish(call_id)
                self._call_ended(server, call_id)
            # Through the app's queue, so an ElicitationFinished posted before the result came
            # back is written first (the transcript keeps the order things happened in); what
            # follows the outcome (a -32042's consent and retry) starts once it is written.
            shown = asyncio.Event()

            def show() -> None:
                asked = self.history.asked(call_id)
                self._show_outcome(outcome_entry(heading, outcome, kind=kind, asked=asked))
                self.history.finished(call_id, outcome)
                shown.set()

            self.app.call_later(show)
            if then is not None:
                await shown.wait()
                await then(outcome)

        self.run_worker(run(), group="calls", name=heading, exit_on_error=False)
        return call_id

    # --- tools -------------------------------------------------------------------------------

    def open_tool(self, server: str, name: str, *, dialog: bool = True) -> None:
        """Ask for the tool's arguments (form or JSON editor), then call it.

        ``dialog=False`` (Enter in the catalog): a tool that takes no arguments is called at
        once with ``{}``, since its dialog would only ask for Ctrl+S; ``e`` still opens the
        dialog (run as a task, the JSON editor)."""
        ready = self._ready(server)
        if ready is None:
            return
        entry, _ = ready
        tool = entry.find_tool(name)
        if tool is None:
            self.notify(f"No tool {one_line(name)!r}", severity="error", markup=False)
            return
        from mcp_tui.schema.no_arguments import takes_no_arguments  # lazy: not in the first frame

        if not dialog and takes_no_arguments(tool.input_schema):
            self.call_tool(server, name, {})
            return
        title = f"{server} › {tool.title or tool.name}"
        from mcp_tui.schema.arguments.last_sent import Origin, recall, remember
        from mcp_tui.session.tasks import server_runs_tool_tasks
        from mcp_tui.ui.screens.arguments import ArgumentsScreen  # lazy: TextArea is slow to import

        optional = tool.task_support == "optional" and server_runs_tool_tasks(entry.info)
        schema = tool.input_schema
        screen = ArgumentsScreen(
            title,
            schema,
            description=tool.description,
            verb="Call",
            task_choice=optional,
            prefill=recall(entry.last_sent, name, schema),
        )

        def chosen(arguments: dict[str, Any] | None) -> None:
            if arguments is not None:
                ready = self._ready(server, unsent="call") is not None
                origin: Origin = "form" if ready else "unsent"
                as_task = screen.as_task
                remember(entry.last_sent, name, schema, arguments, origin=origin, as_task=as_task)
                if ready:
                    self.call_tool(server, name, arguments, as_task=screen.as_task)

        self.app.push_screen(screen, callback=chosen)

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
        ready = self._ready(server)
        if ready is None:
            return None
        _, connection = ready
        args = dict(arguments)
        task: dict[str, Any] = {"as_task": True} if as_task else {}  # test fakes take no as_task

        async def then(outcome: CallOutcome) -> None:
            if outcome.url_elicitations:
                again = await url_required(self, server, name, outcome.url_elicitations, retry_of)
                if again is not None:
                    self.call_tool(server, name, args, retry_of=again)

        call_id = self._run_request(
            server,
            name,
            args,
            lambda call_id: connection.call_tool(name, args, call_id=call_id, **task),
            then=then,
        )
        self.cancellable[call_id] = (server, f"#{call_id} {server} › {name}")
        self.history.started(call_id, server, "tool", name, args, as_task=as_task)
        self.refresh_bindings()
        return call_id

    # --- prompts -----------------------------------------------------------------------------

    def open_prompt(self, server: str, name: str) -> None:
        """Ask for the prompt's arguments when it has any, then get it."""
        ready = self._ready(server)
        if ready is None:
            return
        entry, connection = ready
        prompt = next((p for p in entry.prompts if p.name == name), None)
        if prompt is None:
            self.notify(f"No prompt {one_line(name)!r}", severity="error", markup=False)
            return
        if not prompt.arguments:
            self.get_prompt(server, name, {})
            return
        from mcp_tui.schema.arguments.last_sent import Origin, recall, remember
        from mcp_tui.schema.arguments.shapes import string_object_schema

        schema = string_object_schema((a.name, a.description, a.required) for a in prompt.arguments)

        def chosen(arguments: dict[str, Any] | None) -> None:
            if arguments is not None:
                ready = self._ready(server, unsent="prompt request") is not None
                origin: Origin = "form" if ready else "unsent"
                remember(entry.last_sent, name, schema, arguments, origin=origin, kind="prompt")
                if ready:
                    self.get_prompt(server, name, {k: str(v) for k, v in arguments.items()})

        title = f"{server} › prompt {prompt.title or prompt.name}"
        from mcp_tui.ui.argument_completions import completer_for
        from mcp_tui.ui.screens.arguments import ArgumentsScreen  # lazy: TextArea is slow to import

        completer = completer_for(connection, "prompt", name)
        self.app.push_screen(
            ArgumentsScreen(
                title,
                schema,
                description=prompt.description,
                verb="Get",
                completer=completer,
                prefill=recall(entry.last_sent, name, schema, kind="prompt"),
            ),
            callback=chosen,
        )

    def get_prompt(self, server: str, name: str, arguments: Mapping[str, str]) -> int | None:
        ready = self._ready(server)
        if ready is None:
            return None
        _, connection = ready
        args = dict(arguments)
        call_id = self._run_request(
            server,
            f"prompt {name}",
            args,
            lambda _call_id: connection.get_prompt(name, args),
            kind="prompt",
        )
        self.history.started(call_id, server, "prompt", name, args)
        self.refresh_bindings()
        return call_id

    # --- resources ---------------------------------------------------------------------------

    def read_resource(self, server: str, uri: str, name: str | None = None) -> int | None:
        ready = self._ready(server)
        if ready is None:
            return None
        entry, connection = ready
        if uri in entry.updated:  # read again: the "updated" mark is seen
            entry.mark(uri, updated=False)
            self.mcp_app.refresh_server(server)
        call_id = self._run_request(
            server,
            f"read {uri}",
            None,
            lambda _call_id: connection.read_resource(uri),
            kind="resource",
        )
        self.history.started(call_id, server, "resource", uri)
        self.refresh_bindings()  # ``a`` (again) and "Save as a test" follow the last call
        return call_id

    def open_template(self, server: str, template: ResourceInfo) -> None:
        """Ask for the template's variables, expand it and read the resulting URI."""
        names = variables(template.uri)
        if not names:
            self.read_resource(server, template.uri, template.name)
            return
        from mcp_tui.schema.arguments.last_sent import Memory, Origin, recall, remember
        from mcp_tui.schema.arguments.shapes import string_object_schema

        schema = string_object_schema((name, None, True) for name in names)

        entry = self.mcp_app.entries.get(server)
        memory: Memory = entry.last_sent if entry is not None else {}

        def chosen(values: dict[str, Any] | None) -> None:
            if values is not None:
                ready = self._ready(server, unsent="read") is not None
                origin: Origin = "form" if ready else "unsent"
                remember(memory, template.uri, schema, values, origin=origin, kind="template")
                if not ready:
                    return
                uri = expand(template.uri, {k: str(v) for k, v in values.items()})
                self.read_resource(server, uri, template.name)

        from mcp_tui.ui.argument_completions import completer_for
        from mcp_tui.ui.screens.arguments import ArgumentsScreen  # lazy: TextArea is slow to import

        connection = self.mcp_app.connection(server)
        self.app.push_screen(
            ArgumentsScreen(
                f"{server} › {template.name}",
                schema,
                description=f"{template.uri}\n{template.description or ''}".strip(),
                verb="Read",
                completer=completer_for(connection, "template", template.uri),
                prefill=recall(memory, template.uri, schema, kind="template"),
            ),
            callback=chosen,
        )
