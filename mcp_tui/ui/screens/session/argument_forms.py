"""What Enter (and the palette) opens on a tool, a prompt or a template: its arguments' form.

Each asks for the arguments when there are any (``ArgumentsScreen``, imported when first needed:
its ``TextArea`` costs 16-33 ms, off the first frame's path), remembers what was typed for the
next time the form opens (``schema/arguments/last_sent.py``), and sends through the screen's
:class:`~mcp_tui.ui.screens.session.calls.Calls`. When the server went away while the form was
open nothing is sent, and what was typed is kept (as "unsent") for when it is back.
"""

from __future__ import annotations

from typing import Any, cast

from textual.screen import Screen

from mcp_tui.session.events import ResourceInfo
from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.screens.session.calls import Calls
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.uri_template import expand, variables
from mcp_tui.untrusted import one_line


class ArgumentForms:
    """The forms the session screen opens before it sends (see the module docstring)."""

    def __init__(self, screen: Screen[None], calls: Calls) -> None:
        self._screen = screen
        self._calls = calls

    @property
    def app(self) -> McpApp:
        """The app, by what the forms use of it (``ui/app_interface.py``)."""
        return cast(McpApp, self._screen.app)

    def open_tool(self, server: str, name: str, *, dialog: bool = True) -> None:
        """Ask for the tool's arguments (form or JSON editor), then call it.

        ``dialog=False`` (Enter in the catalog): a tool that takes no arguments is called at
        once with ``{}``, since its dialog would only ask for Ctrl+S; ``e`` still opens the
        dialog (run as a task, the JSON editor)."""
        calls = self._calls
        ready = calls.ready(server)
        if ready is None:
            return
        entry, _ = ready
        tool = entry.find_tool(name)
        if tool is None:
            self._screen.notify(f"No tool {one_line(name)!r}", severity="error", markup=False)
            return
        from mcp_tui.schema.no_arguments import takes_no_arguments  # lazy: not in the first frame

        if not dialog and takes_no_arguments(tool.input_schema):
            calls.call_tool(server, name, {})
            return
        title = f"{shown_name(server)} › {tool.title or tool.name}"
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
                ready = calls.ready(server, unsent="call") is not None
                origin: Origin = "form" if ready else "unsent"
                as_task = screen.as_task
                remember(entry.last_sent, name, schema, arguments, origin=origin, as_task=as_task)
                if ready:
                    calls.call_tool(server, name, arguments, as_task=screen.as_task)

        self._screen.app.push_screen(screen, callback=chosen)

    def open_prompt(self, server: str, name: str) -> None:
        """Ask for the prompt's arguments when it has any, then get it."""
        calls = self._calls
        ready = calls.ready(server)
        if ready is None:
            return
        entry, connection = ready
        prompt = next((p for p in entry.prompts if p.name == name), None)
        if prompt is None:
            self._screen.notify(f"No prompt {one_line(name)!r}", severity="error", markup=False)
            return
        if not prompt.arguments:
            calls.get_prompt(server, name, {})
            return
        from mcp_tui.schema.arguments.last_sent import Origin, recall, remember
        from mcp_tui.schema.arguments.shapes import string_object_schema

        schema = string_object_schema((a.name, a.description, a.required) for a in prompt.arguments)

        def chosen(arguments: dict[str, Any] | None) -> None:
            if arguments is not None:
                ready = calls.ready(server, unsent="prompt request") is not None
                origin: Origin = "form" if ready else "unsent"
                remember(entry.last_sent, name, schema, arguments, origin=origin, kind="prompt")
                if ready:
                    calls.get_prompt(server, name, {k: str(v) for k, v in arguments.items()})

        title = f"{shown_name(server)} › prompt {prompt.title or prompt.name}"
        from mcp_tui.ui.argument_completions import completer_for
        from mcp_tui.ui.screens.arguments import ArgumentsScreen  # lazy: TextArea is slow to import

        completer = completer_for(connection, "prompt", name)
        self._screen.app.push_screen(
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

    def open_template(self, server: str, template: ResourceInfo) -> None:
        """Ask for the template's variables, expand it and read the resulting URI."""
        calls = self._calls
        names = variables(template.uri)
        if not names:
            calls.read_resource(server, template.uri, template.name)
            return
        from mcp_tui.schema.arguments.last_sent import Memory, Origin, recall, remember
        from mcp_tui.schema.arguments.shapes import string_object_schema

        schema = string_object_schema((name, None, True) for name in names)

        entry = self.app.entries.get(server)
        memory: Memory = entry.last_sent if entry is not None else {}

        def chosen(values: dict[str, Any] | None) -> None:
            if values is not None:
                ready = calls.ready(server, unsent="read") is not None
                origin: Origin = "form" if ready else "unsent"
                remember(memory, template.uri, schema, values, origin=origin, kind="template")
                if not ready:
                    return
                uri = expand(template.uri, {k: str(v) for k, v in values.items()})
                calls.read_resource(server, uri, template.name)

        from mcp_tui.ui.argument_completions import completer_for
        from mcp_tui.ui.screens.arguments import ArgumentsScreen  # lazy: TextArea is slow to import

        connection = self.app.connection(server)
        self._screen.app.push_screen(
            ArgumentsScreen(
                f"{shown_name(server)} › {template.name}",
                schema,
                description=f"{template.uri}\n{template.description or ''}".strip(),
                verb="Read",
                completer=completer_for(connection, "template", template.uri),
                prefill=recall(memory, template.uri, schema, kind="template"),
            ),
            callback=chosen,
        )
