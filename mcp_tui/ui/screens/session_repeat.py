"""The session screen's verbs on a call already made: call it again (``a``), save it as a test.

Between the client features (``session_features.py``) and the areas (``session_layout.py``).
Both work from the screen's :class:`~mcp_tui.ui.call_history.CallHistory`.

Calling again is for the edit-save-look loop of a server author (with ``--watch`` the server
restarts on each save): the last call is sent again with exactly the values it was sent with,
which the person typed. When the tool's schema changed and those values no longer fit it, nothing
is sent: the tool's form opens instead, saying why.
"""

from __future__ import annotations

from mcp_tui.ui.call_history import CallRecord
from mcp_tui.ui.screens.session_features import SessionFeatures
from mcp_tui.untrusted import one_line


class SessionRepeat(SessionFeatures):
    """Call again and save as a test (see the module docstring)."""

    def call_again(self) -> None:
        """``a``: the last call again, with the values it was sent with."""
        record = self.history.last
        if record is None:
            self.notify("No call to repeat yet: call a tool first", severity="warning")
            return
        self.repeat(record)

    def repeat(self, record: CallRecord) -> None:
        """Send ``record``'s call again (the form opens when its values no longer fit)."""
        ready = self._ready(record.server)
        if ready is None:
            return
        entry, _ = ready
        server, name = record.server, record.name
        if record.kind == "resource":
            self.read_resource(server, name)
            return
        if record.kind == "prompt":
            if not any(prompt.name == name for prompt in entry.prompts):
                self._gone(server, "prompt", name)
                return
            self.get_prompt(server, name, {k: str(v) for k, v in record.arguments.items()})
            return
        tool = entry.find_tool(name)
        if tool is None:
            self._gone(server, "tool", name)
            return
        from mcp_tui.schema.arguments.check import path_text, validate_arguments

        verdict = validate_arguments(record.arguments, tool.input_schema)
        if verdict.errors:
            path, message = verdict.errors[0]
            self.notify(
                f"The last values do not fit {one_line(name)}'s schema any more "
                f"({one_line(path_text(path))}: {one_line(message)}): nothing was sent; "
                "fill in the form.",
                severity="warning",
                markup=False,
                timeout=10,
            )
            self.open_tool(server, name)
            return
        self.call_tool(server, name, record.arguments, as_task=record.as_task)

    def _gone(self, server: str, kind: str, name: str) -> None:
        self.notify(
            f"{one_line(server)} no longer offers the {kind} {one_line(name)!r}: nothing was sent",
            severity="warning",
            markup=False,
        )
