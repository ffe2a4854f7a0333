"""``--call TOOL``: call the tool on the first ready server offering it, once.

The servers connect after the first frame and list their tools when they are ready, so the call
is tried after every batch of session events that changed a server, until one offers the tool (or
every server has settled without it, which is said in the transcript). A tool with required
arguments and no ``--args`` opens its form instead of being called with nothing: a value the
person did not type is never sent.

:class:`RequestedCall` is a part the app holds; the app tries it after each flush.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from mcp_tui.config.options import ToolCallRequest
from mcp_tui.session.events import ConnectionState, Notice
from mcp_tui.ui.event_buffer import EventBuffer
from mcp_tui.ui.screens.session import SessionScreen
from mcp_tui.ui.server_state import ServerEntry
from mcp_tui.untrusted import one_line


class RequestedCall:
    """The ``--call`` request, until it is made or cannot be (see the module docstring)."""

    def __init__(
        self,
        app: App[Any],
        request: ToolCallRequest | None,
        entries: dict[str, ServerEntry],
        buffer: EventBuffer,
        session: Callable[[], SessionScreen | None],
    ) -> None:
        #: Its clock: a server still applying the roots it asked for is tried again later.
        self._app = app
        #: ``None`` once made, or when there was none.
        self._pending = request
        self.entries = entries
        #: Notices wait here until the app flushes them to the transcript.
        self._buffer = buffer
        #: The session screen, once the app has made it (it makes the call).
        self._session = session

    def try_now(self) -> None:
        """Call the tool if a ready server offers it; say so if none ever will."""
        request = self._pending
        session = self._session()
        if request is None or session is None:
            return
        if request.server is not None and request.server not in self.entries:
            self._pending = None
            self._buffer.add(Notice(request.server, "--call: no such server", "error"))
            return
        candidates = (
            [self.entries[request.server]] if request.server else list(self.entries.values())
        )
        settled = True
        for entry in candidates:
            tool = entry.find_tool(request.tool) if entry.state is ConnectionState.READY else None
            if tool is not None:
                settling = entry.connection.roots_settle_left() if entry.connection else 0.0
                if settling > 0:  # the server is applying the roots it asked for
                    self._app.set_timer(settling, self.try_now)
                    return
                self._pending = None
                required = tool.input_schema.get("required")
                if request.ask and isinstance(required, list) and required:
                    names = ", ".join(one_line(str(n), limit=40) for n in required[:5])
                    self._buffer.add(
                        Notice(
                            entry.name,
                            f"--call {one_line(tool.name)}: it has required arguments ({names}) "
                            "and no --args were given: fill them in (Ctrl+S calls it)",
                        )
                    )
                    session.forms.open_tool(entry.name, tool.name)
                    return
                # The tool's form starts from these (typed by the user, in the shell) unless a
                # call was already sent from the form: see ``last_sent.remember``.
                from mcp_tui.schema.arguments.last_sent import remember

                schema = tool.input_schema
                remember(entry.last_sent, tool.name, schema, request.arguments, origin="--call")
                session.calls.call_tool(entry.name, request.tool, request.arguments)
                return
            # Explicit 2026-07-28 mode skips server/discover, so capabilities may be unknown
            # (empty): wait for the first tools listing rather than giving up.
            offers_tools = (
                entry.info is None
                or not entry.info.capabilities
                or "tools" in entry.info.capabilities
            )
            listed = entry.catalog_version > 0 or not offers_tools
            if entry.state is ConnectionState.CONNECTING or (
                entry.state is ConnectionState.READY and not listed
            ):
                settled = False
        if settled:
            self._pending = None
            where = request.server or "any server"
            text = f"--call: {where} does not offer a tool named {request.tool!r}"
            self._buffer.add(Notice(request.server or "mcp-tui", text, "error"))
