"""The command palette's verbs: call a tool, get a prompt, read a resource, switch server, ...

One command per catalog item ("Call tool  demo › echo"), so fuzzy search finds a tool by name,
plus the app-wide verbs. Tool and server names are untrusted: hits are displayed as literal
``Content`` and highlighted here (Textual's ``Matcher.highlight`` parses its argument as markup).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from msgspec import Struct
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.text import literal_line

if TYPE_CHECKING:
    from mcp_tui.ui.app import McpTuiApp
    from mcp_tui.ui.screens.session import SessionScreen


class Verb(Struct, frozen=True):
    """One palette entry: ``verb`` is ours, ``subject`` may be a server's string."""

    verb: str
    subject: str
    help: str
    run: Callable[[], object]

    @property
    def text(self) -> str:
        return f"{self.verb}  {self.subject}" if self.subject else self.verb

    def display(self, offsets: tuple[int, ...] = ()) -> Content:
        content = Content.assemble(
            (self.verb, "bold"), "  " if self.subject else "", literal_line(self.subject)
        )
        # Offsets index ``text``; ``literal_line`` may lengthen the subject (escapes), so only
        # highlight positions that still line up: the verb, and a subject left unchanged.
        same = content.plain == self.text
        for offset in offsets:
            if offset < len(self.verb) or same:
                content = content.stylize("bold $accent underline", offset, offset + 1)
        return content


def verbs(app: McpTuiApp, session: SessionScreen) -> Iterator[Verb]:
    """Every verb available now, catalog items of ready servers included."""
    for entry in app.entries.values():
        name = entry.name
        ready = entry.state is ConnectionState.READY
        if ready:
            for tool in entry.tools:
                yield Verb(
                    "Call tool",
                    f"{name} › {tool.name}",
                    "Fill in the tool's arguments and call it",
                    partial(session.open_tool, name, tool.name),
                )
            for prompt in entry.prompts:
                yield Verb(
                    "Get prompt",
                    f"{name} › {prompt.name}",
                    "Fill in the prompt's arguments and show its messages",
                    partial(session.open_prompt, name, prompt.name),
                )
            for resource in entry.resources:
                if resource.template:
                    yield Verb(
                        "Read template",
                        f"{name} › {resource.uri}",
                        "Fill in the template's variables and read the resource",
                        partial(session.open_template, name, resource),
                    )
                else:
                    yield Verb(
                        "Read resource",
                        f"{name} › {resource.uri}",
                        "Read the resource and show its contents",
                        partial(session.read_resource, name, resource.uri, resource.name),
                    )
        yield Verb(
            "Switch server",
            name,
            "Move the catalog cursor to this server",
            partial(session.switch_server, name),
        )
        yield Verb("Reconnect", name, "Close and reconnect", partial(app.reconnect, name))
        yield Verb(
            "Ask again" if entry.paused else "Stop asking",
            name,
            "Show this server's elicitation requests"
            if entry.paused
            else "Cancel this server's elicitation requests without showing them",
            partial(app.set_elicitation_paused, name, not entry.paused),
        )
    for wait in app.url_waits.waiting:
        subject = f"{wait.subject} › {wait.host}"
        yield Verb(
            "Page done",
            subject,
            "The page is finished: stop waiting for the server to say so (a -32042 call may "
            "then be retried)",
            partial(app.end_url_wait, wait.key, "done"),
        )
        yield Verb(
            "Give up waiting",
            subject,
            "Stop waiting for this page (a -32042 call is then not retried)",
            partial(app.end_url_wait, wait.key, "gave_up"),
        )
    yield Verb(
        "Toggle traffic",
        "",
        "Show or hide every JSON-RPC message",
        session.action_toggle_traffic,
    )
    yield Verb("Toggle log", "", "Show or hide the log panel", session.action_toggle_logs)
    yield Verb("Quit", "", "Close every connection and quit", app.action_request_quit)


class McpCommands(Provider):
    """Palette provider for the app's verbs."""

    def _verbs(self) -> list[Verb]:
        from mcp_tui.ui.app import McpTuiApp
        from mcp_tui.ui.screens.session import SessionScreen

        app = self.app
        if not isinstance(app, McpTuiApp):
            return []
        session = app.session
        if not isinstance(session, SessionScreen):
            return []
        return list(verbs(app, session))

    async def discover(self) -> Hits:
        for verb in self._verbs():
            shown = ("Call tool", "Page done", "Give up waiting")
            if not verb.subject or verb.verb in shown:
                yield DiscoveryHit(verb.display(), verb.run, text=verb.text, help=verb.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for verb in self._verbs():
            text = verb.text
            score, offsets = matcher.fuzzy_search.match(matcher.query, text)
            if score > 0:
                yield Hit(score, verb.display(tuple(offsets)), verb.run, text=text, help=verb.help)
