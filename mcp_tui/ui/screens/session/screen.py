"""The session screen: how a person "chats" with MCP servers.

Left, the catalog: every server with its state, then its tools, prompts, resources and templates.
Right, details of what the cursor is on, the calls in flight with their progress, the accepted
URL requests still waiting for the server to finish them (``d`` done, ``g`` give up), and the
transcript of calls, results and elicitations (or, toggled with ``t``, the JSON-RPC traffic).
At the bottom the log panel (server logs and stderr). Enter on a tool opens its arguments form;
on a prompt, its arguments then its messages; on a resource, its contents.

The screen is a view: the app owns the connections and hands it batched events
(:meth:`SessionScreen.apply_batch`). Here are the keys, the events from the app and what Enter
opens; the screen owns its parts, each an object with its own module in this package and the
screen as its host (no part inherits from another, and none imports the screen):

- ``areas`` (:class:`~.areas.SessionAreas`): what is on the screen, when each panel is mounted,
  the transcript queue and the keys between the areas;
- ``calls`` (:class:`~.calls.Calls`): the requests sent (call, get, read, cancel), the running
  calls and the history of the person's calls;
- ``forms`` (:class:`~.argument_forms.ArgumentForms`): the arguments' form opened before a tool,
  prompt or template is sent;
- ``features`` (:class:`~.server_features.ServerFeatures`): roots, ping, tasks, log level,
  subscriptions and the choice of a call to cancel;
- ``repeat`` (:class:`~.repeat.Repeat`): what is done with a call made (again, save as a test).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Tree

from mcp_tui.session.events import (
    ConnectionState,
    ElicitationRefused,
    ResourceInfo,
    TrafficRecorded,
)
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.closing import closing
from mcp_tui.ui.event_buffer import Batch
from mcp_tui.ui.messages import EntryDetailRequested
from mcp_tui.ui.render import dropped_entry, notice_entry, refused_entry, state_entry
from mcp_tui.ui.screens.session.areas import SessionAreas
from mcp_tui.ui.screens.session.argument_forms import ArgumentForms
from mcp_tui.ui.screens.session.calls import Calls
from mcp_tui.ui.screens.session.repeat import Repeat
from mcp_tui.ui.screens.session.server_features import ServerFeatures
from mcp_tui.ui.server_state import ServerEntry
from mcp_tui.ui.widgets.session.catalog_tree import CatalogTree, NodeRef

if TYPE_CHECKING:
    from mcp_tui.export import SharedSession

#: Traffic messages kept for "Export session…" (the oldest go first; ``--log`` keeps all).
KEPT_TRAFFIC = 2000


class SessionScreen(Screen[None]):
    """Servers, their catalogs, the transcript, logs and traffic."""

    #: The keys of the current state, shown first in the footer when they are on offer (a
    #: running call, a URL page awaited, a paused server, a subscribable resource).
    CONTEXT_ACTIONS: ClassVar[tuple[str, ...]] = (
        "tour_next",  # ``--tour``: an app binding, first while the tour runs
        "cancel_call",
        "url_done",
        "url_give_up",
        "ask_again",
        "toggle_subscription",
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "details", "Details", id="session.details",
                tooltip="The full details of the item under the cursor (or transcript entry)"),
        Binding("t", "toggle_traffic", "Traffic", id="session.toggle_traffic",
                tooltip="Show or hide the traffic view: every JSON-RPC message"),
        Binding("l", "toggle_logs", "Log", id="session.toggle_logs",
                tooltip="Show or hide the log panel (server logs and stderr)"),
        Binding("L", "maximize_logs", "Log full screen", show=False, id="session.maximize_logs",
                tooltip="The log panel full screen (L or Escape again: back)"),
        # In the palette and the server's info line; the footer is kept for what 80 columns fit.
        Binding("R", "reconnect", "Reconnect", show=False, id="session.reconnect",
                tooltip="Reconnect the server under the cursor"),
        Binding("E", "switch_era", "Other era", show=False, id="session.switch_era",
                tooltip="Reconnect the server under the cursor on the other protocol era"),
        # One key, two labels: the footer says what x will do for the server under the cursor.
        # One id too, so a ``[keys]`` entry moves both (a keymap drops a key's other ids).
        Binding("x", "stop_asking", "Stop asking", id="session.toggle_asking",
                tooltip="Stop asking: cancel this server's forms and sampling requests unseen"),
        Binding("x", "ask_again", "Ask again", id="session.toggle_asking",
                tooltip="Ask again: show this server's forms and sampling requests"),
        Binding("d", "url_done", "Done", id="session.url_done",
                tooltip="A URL request you accepted: the page is done"),
        Binding("g", "url_give_up", "Give up", id="session.url_give_up",
                tooltip="A URL request you accepted: give up waiting"),
        Binding("c", "cancel_call", "Cancel call", id="session.cancel_call",
                tooltip="Cancel the running tool call (notifications/cancelled, tasks/cancel)"),
        # Ctrl+C, a terminal user's reflex: cancel the running call, else quit (asking first,
        # like Ctrl+Q); the footer says which. Selected text is still copied.
        Binding("ctrl+c", "cancel_call", "Cancel call", key_display="^c",
                id="session.interrupt"),
        Binding("ctrl+c", "interrupt", "Quit", key_display="^c", id="session.interrupt",
                tooltip="Quit mcp-tui (asks first when a call runs or a form is open)"),
        Binding("a", "call_again", "Again", id="session.call_again",
                tooltip="Call the last tool again with the values it was sent with"),
        Binding("S", "save_as_test", "Save as test", show=False, id="session.save_as_test",
                tooltip="Save the last finished call as a test case (mcp-tui test runs it)"),
        Binding("s", "toggle_subscription", "Subscribe", id="session.subscribe",
                tooltip="Subscribe to (or unsubscribe from) the resource under the cursor"),
        Binding("o", "roots", "Roots", show=False, id="session.roots",
                tooltip="The directories offered to the server under the cursor (roots)"),
        Binding("r", "refresh_catalog", "Refresh lists", show=False, id="session.refresh",
                tooltip="List the server's tools, prompts and resources again"),
        Binding("f", "focus_next_area", "Next area", show=False, id="session.next_area",
                tooltip="Move to the next area: catalog, transcript or traffic, log"),
        Binding("m", "chat", "Chat", show=False, id="session.chat",
                tooltip="Chat with a model that calls the servers' tools"),
        Binding("f6", "toggle_wire", "Wire", show=False, id="answer.wire",
                tooltip="Show or hide the wire: beside each form, and here the last answer sent"),
    ]  # fmt: skip

    def __init__(self) -> None:
        super().__init__(id="session")
        self.areas = SessionAreas(self)
        self.calls = Calls(self, self.areas)
        self.forms = ArgumentForms(self, self.calls)
        self.features = ServerFeatures(
            self, self.calls, self.areas, server_changed=self.server_changed
        )
        self.repeat = Repeat(self, self.calls, self.forms, self.areas)
        self._asking_key_for: bool | None = False
        self._subscribe_key = False
        #: The newest traffic, kept for "Export session…" (the traffic view keeps only rows).
        self.kept_traffic: deque[TrafficRecorded] = deque(maxlen=KEPT_TRAFFIC)
        self.kept_traffic_dropped = 0

    @property
    def mcp_app(self) -> McpApp:
        """The app, by what the screen uses of it (``ui/app_interface.py``: no import of the
        app, which imports this screen); this screen only ever runs in ``McpTuiApp``."""
        return cast(McpApp, self.app)

    def compose(self) -> ComposeResult:
        return self.areas.compose()

    def on_mount(self) -> None:
        self.areas.mounted()

    def on_resize(self) -> None:
        self.areas.resized()

    # --- events from the app -----------------------------------------------------------------

    def apply_batch(self, batch: Batch, changed: Iterable[ServerEntry]) -> None:
        """Show one flush worth of events; ``changed`` are the servers whose model changed."""
        areas = self.areas
        if not areas.panels_live:
            return  # the app flushes only to ready panels; these went while the app closes
        for entry in changed:
            areas.catalog.update_server(entry)
        entries = []
        for state in batch.states:
            if state.state is not ConnectionState.CONNECTING:
                entries.append(state_entry(state))
        if batch.notes_dropped:
            entries.append(dropped_entry(batch.notes_dropped))
        for note in batch.notes:
            if isinstance(note, ElicitationRefused):
                entries.append(refused_entry(note))
            else:
                entries.append(notice_entry(note))
        areas.queue_entries(entries)
        if batch.logs or batch.logs_dropped:
            areas.logs.add_batch(batch.logs, batch.logs_dropped)
        if batch.traffic or batch.traffic_dropped:
            areas.traffic.add_batch(batch.traffic, batch.traffic_dropped)
            self.kept_traffic_dropped += batch.traffic_dropped
            self.kept_traffic_dropped += max(
                0, len(self.kept_traffic) + len(batch.traffic) - KEPT_TRAFFIC
            )
            self.kept_traffic.extend(batch.traffic)
            areas.sent.look(batch.traffic)
        for progress in batch.progress.values():
            areas.running.progress(progress)
        areas.flush_entries()
        if changed:
            areas.show_info()
            self._refresh_asking_key()

    def shared(self) -> SharedSession:
        """What "Export session…" writes: the servers, the transcript, the calls with what was
        asked and answered during each, and the traffic kept, secrets masked."""
        from mcp_tui.ui.share_session import gather

        return gather(
            self.mcp_app.entries,
            self.areas.transcript.entries,
            self.calls.history,
            list(self.kept_traffic),
            self.kept_traffic_dropped,
        )

    # --- catalog navigation ------------------------------------------------------------------

    def _entry(self, server: str) -> ServerEntry | None:
        return self.mcp_app.entries.get(server)

    @on(Tree.NodeHighlighted, "#catalog")
    def _highlighted(self) -> None:
        self.areas.show_info()
        self._refresh_asking_key()
        subscribable = self._subscribable() is not None
        if subscribable != self._subscribe_key:  # ``s`` follows the cursor
            self._subscribe_key = subscribable
            self.refresh_bindings()

    def _refresh_asking_key(self) -> None:
        """ "Stop asking" or "Ask again" follows the cursor's server (the footer is redrawn only
        when that changes, not on every cursor move)."""
        server = self._current_server()
        entry = self._entry(server) if server is not None else None
        paused = entry.paused if entry is not None else None
        if paused != self._asking_key_for:
            self._asking_key_for = paused
            self.refresh_bindings()

    def server_changed(self, entry: ServerEntry | None = None) -> None:
        """A server's model changed outside a batch (the user's own toggle, a mark, the log
        level): redraw its tree (``entry``), the info panel and the keys."""
        if closing(self):
            return  # its widgets may be gone already
        if entry is not None:
            self.areas.catalog.update_server(entry)
        self.areas.show_info()
        self._refresh_asking_key()

    @on(CatalogTree.DialogRequested)
    def _tool_dialog(self, event: CatalogTree.DialogRequested) -> None:
        if event.ref.item is not None:
            self.forms.open_tool(event.ref.server, event.ref.item.name)

    @on(Tree.NodeSelected, "#catalog")
    def _selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        ref = event.node.data
        if ref is not None:
            self.open_item(ref)

    @on(EntryDetailRequested)
    def _transcript_detail(self, event: EntryDetailRequested) -> None:
        entry = event.entry
        from mcp_tui.ui.screens.detail import DetailScreen  # lazy: TextArea is slow to import

        self.app.push_screen(DetailScreen(entry.title or entry.kind, entry.full))

    def open_item(self, ref: NodeRef) -> None:
        """Enter on a catalog node: call, get, read or fill in, depending on what it is."""
        item = ref.item
        if ref.kind == "tool" and item is not None and not isinstance(item, ResourceInfo):
            self.forms.open_tool(ref.server, item.name, dialog=False)
        elif ref.kind == "prompt" and item is not None and not isinstance(item, ResourceInfo):
            self.forms.open_prompt(ref.server, item.name)
        elif ref.kind == "resource" and isinstance(item, ResourceInfo):
            self.calls.read_resource(ref.server, item.uri, item.name)
        elif ref.kind == "template" and isinstance(item, ResourceInfo):
            self.forms.open_template(ref.server, item)

    def switch_server(self, server: str) -> None:
        """The palette's "switch to": the catalog's cursor on ``server``, and the focus."""
        catalog = self.areas.catalog
        catalog.select_server(server)
        catalog.focus()

    # --- actions -----------------------------------------------------------------------------

    def _current_server(self) -> str | None:
        ref = self.areas.catalog.current
        if ref is not None:
            return ref.server
        return next(iter(self.mcp_app.entries), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that do something now."""
        if action in ("stop_asking", "ask_again"):
            server = self._current_server()
            entry = self._entry(server) if server is not None else None
            if entry is None:
                return action == "stop_asking"
            return entry.paused == (action == "ask_again")
        if action in ("url_done", "url_give_up"):
            return bool(self.mcp_app.url_waits.waiting)
        if action == "cancel_call":
            return bool(self.calls.cancellable)
        if action == "interrupt":
            return not self.calls.cancellable
        if action == "call_again":
            return self.calls.history.last is not None
        if action == "save_as_test":
            return self.calls.history.last_finished is not None
        if action == "toggle_subscription":
            return self._subscribable() is not None
        return True

    def _subscribable(self) -> ResourceInfo | None:
        """The resource under the cursor, if its server offers subscriptions."""
        ref = self.areas.catalog.current
        if ref is None or ref.kind != "resource" or not isinstance(ref.item, ResourceInfo):
            return None
        entry = self._entry(ref.server)
        if entry is None or entry.connection is None or entry.state is not ConnectionState.READY:
            return None
        return ref.item if entry.connection.can_subscribe else None

    async def action_details(self) -> None:
        areas = self.areas
        await areas.mount_panels()
        ref = areas.catalog.current
        transcript = areas.transcript
        if self.focused is transcript and transcript.highlighted_child is not None:
            transcript.action_select_cursor()
            return
        if ref is None:
            return
        from mcp_tui.ui.widgets.session.info_panel import details

        title, text = details(ref, self._entry(ref.server))
        from mcp_tui.ui.screens.detail import DetailScreen  # lazy: TextArea is slow to import

        self.app.push_screen(DetailScreen(title, text))

    async def action_toggle_traffic(self) -> None:
        await self.areas.toggle_traffic()

    async def action_toggle_logs(self) -> None:
        await self.areas.toggle_logs()

    async def action_maximize_logs(self) -> None:
        await self.areas.maximize_logs()

    async def action_focus_next_area(self) -> None:
        await self.areas.focus_next_area()

    def action_reconnect(self) -> None:
        server = self._current_server()
        if server is not None:
            self.mcp_app.reconnect(server)

    def action_switch_era(self) -> None:
        """``E``: reconnect the server under the cursor on the other protocol era."""
        server = self._current_server()
        if server is not None:
            self.mcp_app.reconnect_on_other_era(server)

    def action_cancel_call(self) -> None:
        """``c``: cancel the running tool call (a choice when several run)."""
        self.features.pick_call_to_cancel()

    def action_interrupt(self) -> None:
        """Ctrl+C with no call running: copy the selected text if any, else ask to quit."""
        selection = self.get_selected_text()
        if selection:
            self.app.copy_to_clipboard(selection)
            return
        self.mcp_app.request_quit(ask=True)

    def action_call_again(self) -> None:
        """``a``: the last call again, with the values it was sent with."""
        self.repeat.call_again()

    def action_save_as_test(self) -> None:
        """``S``: the last finished call as a test case."""
        self.repeat.save_as_test()

    def action_toggle_subscription(self) -> None:
        """``s``: subscribe to (or unsubscribe from) the resource under the cursor."""
        resource = self._subscribable()
        ref = self.areas.catalog.current
        if resource is not None and ref is not None:
            self.features.toggle_subscription(ref.server, resource)

    def action_roots(self) -> None:
        """``o``: the roots of the server under the cursor."""
        server = self._current_server()
        if server is not None:
            self.features.open_roots(server)

    def action_stop_asking(self) -> None:
        """``x`` while the server under the cursor asks (the footer says "Stop asking")."""
        self._toggle_asking()

    def action_ask_again(self) -> None:
        """``x`` while it does not (the footer says "Ask again")."""
        self._toggle_asking()

    def _toggle_asking(self) -> None:
        server = self._current_server()
        entry = self._entry(server) if server is not None else None
        if entry is not None:
            self.mcp_app.set_elicitation_paused(entry.name, not entry.paused)

    def action_url_done(self) -> None:
        """``d``: the oldest waiting page is finished (the server did not say so, or not yet)."""
        waiting = self.mcp_app.url_waits.waiting
        if waiting:
            self.mcp_app.end_url_wait(waiting[0].key, "done")

    def action_url_give_up(self) -> None:
        """``g``: stop waiting for the oldest page (a -32042 call is then not retried)."""
        waiting = self.mcp_app.url_waits.waiting
        if waiting:
            self.mcp_app.end_url_wait(waiting[0].key, "gave_up")

    def action_toggle_wire(self) -> None:
        """F6: the wire on or off for the session (the next form opens that way)."""
        from mcp_tui.ui.widgets.request.wire_panel import toggle_wire

        toggle_wire(self.app)

    def show_wire(self, shown: bool) -> None:
        """The wire was turned on or off here: the last answer's panel goes with it."""
        if not shown:
            self.areas.sent.hide()

    def action_chat(self) -> None:
        self.mcp_app.open_chat()

    def action_refresh_catalog(self) -> None:
        server = self._current_server()
        if server is not None:
            self.mcp_app.refresh_catalog(server)
