"""The command palette's verbs, registered in one place.

Every verb comes from a *verb source* registered here with :func:`verb_source` (app-wide verbs)
or :func:`server_verbs` (verbs per server, called once for each server): a new verb is one
decorated function in this module, and it appears in the palette (before any typing, in its
group) and in the help screen's list of verbs without touching anything else. How a verb looks
and is matched is :mod:`mcp_tui.ui.app.palette`'s part.

One verb per catalog item ("Call tool  demo › echo  Echo a message"), so fuzzy search finds a tool
by name; the item's title follows its name, so every entry says which item it acts on.

Textual's own system commands (theme, maximize, screenshot) are folded into the "App" group,
without its second "Quit" and its "Keys" panel (the help screen replaces it), so the palette is
one provider with one order.

The sources get the app as :class:`~mcp_tui.ui.app_interface.McpApp` (what they use of it): the
app imports this module for its provider, so this module does not import the app.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from textual.app import App

from mcp_tui.session.era import is_modern
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app.palette import Verb, VerbPalette, in_group_order, key_for
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.server_state import ServerEntry

VerbSource = Callable[[McpApp, SessionScreen], Iterable[Verb]]
ServerVerbSource = Callable[[McpApp, SessionScreen, ServerEntry], Iterable[Verb]]

_SOURCES: list[VerbSource] = []
_SERVER_SOURCES: list[ServerVerbSource] = []


def verb_source(source: VerbSource) -> VerbSource:
    """Register app-wide verbs (called each time the palette or the help screen opens)."""
    _SOURCES.append(source)
    return source


def server_verbs(source: ServerVerbSource) -> ServerVerbSource:
    """Register verbs made once per server (in the order the servers are configured)."""
    _SERVER_SOURCES.append(source)
    return source


def verbs(app: McpApp, session: SessionScreen) -> list[Verb]:
    """Every verb available now, grouped in ``GROUPS`` order, catalog items included."""
    found: list[Verb] = []
    for source in _SOURCES:
        found.extend(source(app, session))
    for entry in app.entries.values():
        for server_source in _SERVER_SOURCES:
            found.extend(server_source(app, session, entry))
    return in_group_order(found)


def verbs_in(app: App[Any] | None) -> tuple[list[Verb], SessionScreen | None]:
    """The verbs of ``app`` now and the session screen they act on; none in an app that is not
    mcp-tui's, or before its session screen exists."""
    if not isinstance(app, McpApp):
        return [], None
    session = app.session
    if not isinstance(session, SessionScreen):
        return [], None
    return verbs(app, session), session


def show_check(session: SessionScreen, entry: ServerEntry) -> None:
    """``mcp-tui check``'s report on what this connection saw, in the detail view."""
    from mcp_tui.check import run_checks
    from mcp_tui.check.report import ServerEras, listing_from
    from mcp_tui.ui.screens.detail import DetailScreen

    conn = entry.connection
    if conn is None:
        return
    listing = listing_from(entry.name, conn.check_input())
    seen = ServerEras(entry.name, [listing.era], name=entry.shown_name)
    report = run_checks([listing], servers=[seen])
    asked = len(listing.elicitations)
    note = (
        f"What this connection saw: the {listing.era} era, its listings, and the "
        f"{asked} form{'s' if asked != 1 else ''} asked so far. `mcp-tui check` connects on "
        "every era and can make calls (--call, --run) and fuzz (--fuzz).\n\n"
    )
    session.app.push_screen(DetailScreen(f"Check: {entry.shown_name}", note + report.text()))


# --- the verbs ------------------------------------------------------------------------------


@verb_source
def _help_verbs(app: McpApp, session: SessionScreen) -> Iterator[Verb]:
    yield Verb(
        "Help",
        "Help",
        "keys and commands",
        "Every key of every screen, and every verb of this palette",
        app.action_help,
        action="help",
    )


@server_verbs
def _catalog_verbs(app: McpApp, session: SessionScreen, entry: ServerEntry) -> Iterator[Verb]:
    """Call a tool, get a prompt, read a resource or template: one verb per catalog item."""
    if entry.state is not ConnectionState.READY:
        return
    from mcp_tui.schema.no_arguments import takes_no_arguments

    name = entry.name
    shown = entry.shown_name
    for tool in entry.tools:
        # As Enter in the catalog: a tool that takes no arguments is called at once (its dialog
        # would only ask for Ctrl+S); ``e`` on the tool still opens the dialog.
        none = takes_no_arguments(tool.input_schema)
        yield Verb(
            "Call",
            "Call tool",
            f"{shown} › {tool.name}",
            "Call this tool now (it takes no arguments)"
            if none
            else "Fill in this tool's arguments and call it",
            partial(session.forms.open_tool, name, tool.name, dialog=False),
            note=tool.title or "",
        )
    for prompt in entry.prompts:
        yield Verb(
            "Call",
            "Get prompt",
            f"{shown} › {prompt.name}",
            "Fill in this prompt's arguments and show its messages",
            partial(session.forms.open_prompt, name, prompt.name),
            note=prompt.title or "",
        )
    for resource in entry.resources:
        if resource.template:
            yield Verb(
                "Call",
                "Read template",
                f"{shown} › {resource.uri}",
                "Fill in this template's variables and read the resource",
                partial(session.forms.open_template, name, resource),
                note=resource.name or "",
            )
        else:
            yield Verb(
                "Call",
                "Read resource",
                f"{shown} › {resource.uri}",
                "Read this resource and show its contents",
                partial(session.calls.read_resource, name, resource.uri, resource.name),
                note=resource.name or "",
            )


@server_verbs
def _connection_verbs(app: McpApp, session: SessionScreen, entry: ServerEntry) -> Iterator[Verb]:
    """Per server: move to it, reconnect (on either era), refresh its lists, stop or resume
    asking."""
    name = entry.name
    shown = entry.shown_name
    yield Verb(
        "Server",
        "Switch server",
        shown,
        "Move the catalog cursor to this server",
        partial(session.switch_server, name),
    )
    yield Verb(
        "Server",
        "Reconnect",
        shown,
        "Close the connection to this server and connect again",
        partial(app.reconnect, name),
        action="reconnect",
    )
    era = app.other_era(name)
    if era is not None:
        yield Verb(
            "Server",
            f"Reconnect on {era}",
            shown,
            "Reconnect this server on the other protocol era: 2025-11-25 carries ctx.elicit() "
            "questions, 2026-07-28 input_required results",
            partial(app.reconnect_on_other_era, name),
            action="switch_era",
        )
    if entry.state is ConnectionState.READY:
        yield Verb(
            "Server",
            "Check this server",
            shown,
            "What stricter clients will refuse or mangle here: tool names and schemas, "
            "descriptions, and the forms it asked so far (mcp-tui check)",
            partial(show_check, session, entry),
        )
        yield Verb(
            "Server",
            "Refresh lists",
            shown,
            "List this server's tools, prompts and resources again",
            partial(app.refresh_catalog, name),
            action="refresh_catalog",
        )
    yield Verb(
        "Server",
        "Ask again" if entry.paused else "Stop asking",
        shown,
        "Show this server's forms and sampling requests again"
        if entry.paused
        else "Cancel this server's forms and sampling requests without showing them",
        partial(app.set_elicitation_paused, name, not entry.paused),
        action="ask_again" if entry.paused else "stop_asking",
    )


@server_verbs
def _client_feature_verbs(
    app: McpApp, session: SessionScreen, entry: ServerEntry
) -> Iterator[Verb]:
    """Per server: roots, ping, log level; per subscribable resource: (un)subscribe."""
    name = entry.name
    shown = entry.shown_name
    yield Verb(
        "Server",
        "Roots",
        shown,
        "Add or remove the directories offered to this server as roots",
        partial(session.features.open_roots, name),
        action="roots",
    )
    if entry.state is not ConnectionState.READY or entry.connection is None:
        return
    yield Verb(
        "Server",
        "Ping",
        shown,
        "Time a round trip to this server (ping; server/discover on 2026-07-28)",
        partial(session.features.ping, name),
    )
    from mcp_tui.session.tasks import server_lists_tasks

    if server_lists_tasks(entry.info):
        yield Verb(
            "Server",
            "Tasks",
            shown,
            "List this server's tasks and their status (tasks/list)",
            partial(session.features.list_tasks, name),
        )
    if offers_log_levels(entry):
        yield Verb(
            "Server",
            "Log level",
            shown,
            f"Choose which of this server's log messages to receive (now {entry.log_level} and up)",
            partial(session.features.choose_log_level, name),
        )
    if entry.connection.can_subscribe:
        for resource in entry.resources:
            if resource.template:
                continue
            on = resource.uri not in entry.subscribed
            yield Verb(
                "Server",
                "Subscribe" if on else "Unsubscribe",
                f"{shown} › {resource.uri}",
                "Be told when this resource changes (resources/subscribe)"
                if on
                else "Stop being told when this resource changes",
                partial(session.features.toggle_subscription, name, resource),
                note=resource.name or "",
            )


@verb_source
def _cancel_verbs(app: McpApp, session: SessionScreen) -> Iterator[Verb]:
    """Per running tool call: cancel it."""
    for call_id, (_, heading) in list(session.calls.cancellable.items()):
        yield Verb(
            "Call",
            "Cancel call",
            heading,
            "Stop this tool call: the server is sent notifications/cancelled",
            partial(session.calls.cancel_call, call_id),
        )


@verb_source
def _repeat_verbs(app: McpApp, session: SessionScreen) -> Iterator[Verb]:
    """The last call: again; the last finished one: save as a test."""
    last = session.calls.history.last
    if last is not None:
        yield Verb(
            "Call",
            "Call again",
            last.heading,
            "Send the last call again, with the values it was sent with",
            session.repeat.call_again,
            action="call_again",
        )
    done = session.calls.history.last_finished
    if done is not None:
        yield Verb(
            "Call",
            "Save as a test…",
            done.heading,
            "Append this call, the answers you gave and what came back to a test file "
            "(mcp-tui test runs it)",
            session.repeat.save_as_test,
            action="save_as_test",
        )


@verb_source
def _url_wait_verbs(app: McpApp, session: SessionScreen) -> Iterator[Verb]:
    """Per accepted URL request still waiting: done, or give up."""
    for wait in app.url_waits.waiting:
        subject = f"{wait.subject} › {wait.host}"
        yield Verb(
            "Waiting",
            "Page done",
            subject,
            "The page is finished: stop waiting for the server to say so (a -32042 call may "
            "then be retried)",
            partial(app.end_url_wait, wait.key, "done"),
        )
        yield Verb(
            "Waiting",
            "Give up waiting",
            subject,
            "Stop waiting for this page (a -32042 call is then not retried)",
            partial(app.end_url_wait, wait.key, "gave_up"),
        )


def _toggle_wire(app: App[Any]) -> None:
    # Imported when run: the panel's module loads the form engine, which the first frame skips.
    from mcp_tui.ui.widgets.request.wire_panel import toggle_wire

    toggle_wire(app)


@verb_source
def _view_verbs(app: McpApp, session: SessionScreen) -> Iterator[Verb]:
    yield Verb(
        "View",
        "Toggle traffic",
        "",
        "Show or hide every JSON-RPC message",
        session.areas.toggle_traffic,
        action="toggle_traffic",
    )
    yield Verb(
        "View",
        "Toggle log",
        "",
        "Show or hide the log panel",
        session.areas.toggle_logs,
        action="toggle_logs",
    )
    yield Verb(
        "View",
        "Log full screen",
        "",
        "Show the log panel on the whole screen (again: back)",
        session.areas.maximize_logs,
        action="maximize_logs",
    )
    yield Verb(
        "View",
        "Toggle the wire",
        "",
        "Beside a form: the request as received and the exact answer Ctrl+S sends (F6 in a form)",
        partial(_toggle_wire, session.app),
    )
    yield Verb(
        "View",
        "Next area",
        "",
        "Move the focus to the next area (catalog, transcript, log)",
        session.areas.focus_next_area,
        action="focus_next_area",
    )


@verb_source
def _share_verbs(app: McpApp, session: SessionScreen) -> Iterator[Verb]:
    from mcp_tui.ui.screens.export_session import open_export

    yield Verb(
        "View",
        "Export session…",
        "",
        "Write the transcript, every call with its forms and answers, and the traffic as an "
        "HTML page and Markdown, with an SVG screenshot (secrets masked)",
        partial(open_export, session.app, session.calls.history, session.shared),
        action="export_session",
    )


@verb_source
def _chat_verbs(app: McpApp, session: SessionScreen) -> Iterator[Verb]:
    yield Verb(
        "View",
        "Chat with a model",
        "",
        "A conversation in which a model calls the servers' tools (the chat extra)",
        session.action_chat,
        action="chat",
    )


#: Textual's system commands left out: its Quit (ours asks first) and its key panel (our help).
_SYSTEM_LEFT_OUT = frozenset({"Quit", "Keys"})


@verb_source
def _app_verbs(app: McpApp, session: SessionScreen) -> Iterator[Verb]:
    textual_app = session.app  # the same app, as Textual types it
    for title, help_text, callback, discover in textual_app.get_system_commands(textual_app.screen):
        if discover and title not in _SYSTEM_LEFT_OUT:
            yield Verb("App", title, "", help_text, callback)
    yield Verb(
        "App",
        "Quit",
        "",
        "Close every connection and quit (asks first if a form is open)",
        app.request_quit,
        action="quit",
    )


class McpCommands(VerbPalette):
    """The palette's only provider: every verb, grouped, all shown before typing."""

    def verbs_with_keys(self) -> list[tuple[Verb, str]]:
        found, session = verbs_in(self.app)
        if session is None:
            return []
        return [(verb, key_for(session, verb.action)) for verb in found]


def offers_log_levels(entry: ServerEntry) -> bool:
    """Whether "Log level" can work: on 2025-11-25 a server answers ``logging/setLevel`` only
    when it declares ``logging`` (the demo's -32601 otherwise); on 2026-07-28 the level rides each
    request, whatever the server declares."""
    info = entry.info
    if info is None:
        return False
    return is_modern(info.protocol_version) or info.capabilities.get("logging") is not None
