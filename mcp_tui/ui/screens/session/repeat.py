"""The session screen's verbs on a call already made: call it again (``a``), save it as a test.

Both work from the history the screen's calls keep (:class:`~mcp_tui.ui.call_history.CallHistory`,
``calls.py``).

Saving as a test (``S``, palette "Save as a test…") asks for a test file and a name
(:mod:`~mcp_tui.ui.screens.save_test`) and appends the last finished call as a case
(:mod:`mcp_tui.ui.record_case`); ``--record FILE`` does it for every call that finishes.

Calling again is for the edit-save-look loop of a server author (with ``--watch`` the server
restarts on each save): the last call is sent again with exactly the values it was sent with,
which the person typed. When the tool's schema changed and those values no longer fit it, nothing
is sent: the tool's form opens instead, saying why.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from textual.screen import Screen

from mcp_tui.ui.app_interface import McpApp
from mcp_tui.ui.call_history import CallRecord
from mcp_tui.ui.screens.session.areas import SessionAreas, Severity
from mcp_tui.ui.screens.session.argument_forms import ArgumentForms
from mcp_tui.ui.screens.session.calls import Calls
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.untrusted import command_line, one_line


class Repeat:
    """Call again and save as a test (see the module docstring)."""

    def __init__(
        self, screen: Screen[None], calls: Calls, forms: ArgumentForms, areas: SessionAreas
    ) -> None:
        self._screen = screen
        self._calls = calls
        self._forms = forms
        self._areas = areas
        #: The test file the last case was saved to: the dialog offers it again.
        self._test_file: str | None = None

    @property
    def app(self) -> McpApp:
        """The app, by what this part uses of it (``ui/app_interface.py``)."""
        return cast(McpApp, self._screen.app)

    def call_again(self) -> None:
        """``a``: the last call again, with the values it was sent with."""
        record = self._calls.history.last
        if record is None:
            self._screen.notify("No call to repeat yet: call a tool first", severity="warning")
            return
        self.repeat(record)

    def repeat(self, record: CallRecord) -> None:
        """Send ``record``'s call again (the form opens when its values no longer fit)."""
        calls = self._calls
        ready = calls.ready(record.server)
        if ready is None:
            return
        entry, _ = ready
        server, name = record.server, record.name
        if record.kind == "resource":
            calls.read_resource(server, name)
            return
        if record.kind == "prompt":
            if not any(prompt.name == name for prompt in entry.prompts):
                self._gone(server, "prompt", name)
                return
            calls.get_prompt(server, name, {k: str(v) for k, v in record.arguments.items()})
            return
        tool = entry.find_tool(name)
        if tool is None:
            self._gone(server, "tool", name)
            return
        from mcp_tui.schema.arguments.check import path_text, validate_arguments

        verdict = validate_arguments(record.arguments, tool.input_schema)
        if verdict.errors:
            path, message = verdict.errors[0]
            self._screen.notify(
                f"The last values do not fit {one_line(name)}'s schema any more "
                f"({one_line(path_text(path))}: {one_line(message)}): nothing was sent; "
                "fill in the form.",
                severity="warning",
                markup=False,
                timeout=10,
            )
            self._forms.open_tool(server, name)
            return
        calls.call_tool(server, name, record.arguments, as_task=record.as_task)

    def _gone(self, server: str, kind: str, name: str) -> None:
        self._screen.notify(
            f"{one_line(shown_name(server))} no longer offers the {kind} {one_line(name)!r}: "
            "nothing was sent",
            severity="warning",
            markup=False,
        )

    # --- save as a test ----------------------------------------------------------------------

    def save_as_test(self) -> None:
        """``S``: the last finished call as a case of a test file (the dialog asks which)."""
        record = self._calls.history.last_finished
        if record is None:
            self._screen.notify(
                "No finished call to save yet: call a tool first", severity="warning"
            )
            return
        from mcp_tui.ui.record_case import case_name, default_path, save_case, summary, unfinished

        why = unfinished(record)
        if why is not None:  # said now, not after the person filled in the dialog
            self._screen.notify(
                f"#{record.call_id} is not saved as a test: it did not finish by itself "
                f"({one_line(why)})",
                severity="warning",
                markup=False,
            )
            return
        entry = self.app.entries.get(record.server)
        if entry is None:
            return
        from mcp_tui.ui.record_case import setup_calls, setup_line
        from mcp_tui.ui.screens.save_test import SaveTestScreen

        spec = entry.spec
        version = entry.info.protocol_version if entry.info else None
        before = setup_calls(self._calls.history, record)

        def save(path: Path, name: str, with_setup: bool) -> list[str]:
            return save_case(path, record, spec, name, version, before if with_setup else ())

        def saved(result: tuple[Path, list[str]] | None) -> None:
            if result is not None:
                path, notes = result
                self._test_file = str(path)
                self._saved(record, path, notes)

        path = self._test_file or default_path(shown_name(record.server))
        lines = [setup_line(r) for r in before]
        screen = SaveTestScreen(
            record.heading, summary(record), path, case_name(record), save, setup=lines
        )
        self._screen.app.push_screen(screen, callback=saved)

    def record_call(self, path: Path, record: CallRecord) -> None:
        """``--record FILE``: every call that finishes is appended to ``path`` as a case."""
        from mcp_tui.testbench.record import NotRecordable
        from mcp_tui.ui.record_case import case_name, save_case

        entry = self.app.entries.get(record.server)
        if entry is None:
            return
        try:
            version = entry.info.protocol_version if entry.info else None
            notes = save_case(path, record, entry.spec, case_name(record), version)
        except NotRecordable as why:
            self._areas.note(
                record.server, f"--record: #{record.call_id} not saved: {why}", "warning"
            )
            return
        except Exception as error:
            self._areas.note(record.server, f"--record: cannot write {path}: {error}", "error")
            return
        self._saved(record, path, notes, quiet=True)

    def _saved(
        self, record: CallRecord, path: Path, notes: list[str], *, quiet: bool = False
    ) -> None:
        """Say where the case went and how to run it (and what was not written, and why)."""
        from mcp_tui.session.events import Notice
        from mcp_tui.ui.render import notice_entry

        lines: list[tuple[str, Severity]] = [
            (
                f"#{record.call_id} saved as a test in {path}: "
                + command_line("mcp-tui", "test", path),
                "information",
            )
        ]
        lines += [(note[0].upper() + note[1:], "warning") for note in notes]
        for text, severity in lines:
            if quiet:
                self._areas.show(notice_entry(Notice(record.server, text, severity)))
            else:
                self._areas.note(record.server, text, severity)
