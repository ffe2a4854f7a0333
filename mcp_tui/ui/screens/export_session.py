"""The "Export session…" dialog: where to write the session; written on Enter or Ctrl+S.

One path without its suffix (the default: a time-stamped name in the current directory); the
HTML page, the Markdown and the SVG screenshot are written as ``PATH.html``, ``PATH.md`` and
``PATH.svg``. If writing fails the reason is shown here and the dialog stays open with the path
as typed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert import InertInput

if TYPE_CHECKING:
    from textual.app import App

    from mcp_tui.export import SharedSession
    from mcp_tui.ui.call_history import CallHistory

#: Writes the export at the base path given; returns the files written; raises with a message.
Write = Callable[[Path], list[Path]]


class ExportSessionScreen(ModalScreen[list[Path] | None]):
    """Asks where to write the session; returns the files written."""

    DEFAULT_CSS = screen_css(__file__)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Export", priority=True, id="export_session.save",
                tooltip="Write the HTML page, the Markdown and the screenshot"),
        Binding("escape", "close", "Cancel", id="export_session.close",
                tooltip="Close without writing"),
    ]  # fmt: skip

    def __init__(self, summary: str, path: str, write: Write) -> None:
        super().__init__(classes="dialog-screen")
        self._summary = summary
        self._base = path
        self._write = write

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog export-dialog"):
            yield Label("Export session", classes="dialog-title")
            yield Static(literal_line(self._summary, limit=None))
            with Horizontal(classes="export-row"):
                yield Label("Path", classes="export-label")
                yield InertInput(self._base, id="export-path")
            yield Static(id="export-status")
            with Horizontal(classes="dialog-buttons"):
                yield Button(Content("Export  ^s"), variant="success", id="export-save")
                yield Button(Content("Cancel  esc"), variant="primary", id="export-cancel")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()
        self._say_where()

    @on(Input.Changed, "#export-path")
    def _say_where(self) -> None:
        base = self._path()
        if base is None:
            self._status("Give a path (without .html: the three files get their own suffix).")
        else:
            self._status(f"Writes {base.name}.html, .md and .svg in {_where(base)}.")

    @on(Input.Submitted, "#export-path")
    def _submitted(self) -> None:
        self.action_save()

    def _path(self) -> Path | None:
        text = self.query_one("#export-path", Input).value.strip()
        if not text:
            return None
        path = Path(text).expanduser()
        if path.suffix.lower() in (".html", ".md", ".svg"):
            path = path.with_suffix("")
        return path

    def _status(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#export-status", Static)
        status.update(literal_line(text, limit=None))
        status.set_class(error, "-error")

    def action_save(self) -> None:
        base = self._path()
        if base is None:
            self._status("Give the path to write to.", error=True)
            return
        try:
            written = self._write(base)
        except OSError as error:  # the reason, here; the path typed is kept
            self._status(f"Not written: {error}", error=True)
            return
        close_wherever(self, written)

    def action_close(self) -> None:
        close_wherever(self, None)

    @on(Button.Pressed, "#export-save")
    def _save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#export-cancel")
    def _cancel_pressed(self) -> None:
        self.action_close()


def open_export(app: App[Any], history: CallHistory, shared: Callable[[], SharedSession]) -> None:
    """ "Export session…": the screenshot is taken now (the screen as the person sees it, before
    the dialog covers it); the rest (``shared``: the session screen's servers, transcript, calls
    and traffic) is gathered when the files are written. ``history`` gives the secrets masked."""
    import html

    from mcp_tui.ui.share_session import EXPORT_SUFFIXES, default_base, write_export

    svg: str | None = app.export_screenshot(title="mcp-tui")
    for secret in sorted(history.secrets, key=len, reverse=True):
        svg = svg.replace(html.escape(secret), "••••••") if svg else svg

    def write(base: Path) -> list[Path]:
        wrote = getattr(app, "wrote", None)
        for suffix in EXPORT_SUFFIXES:  # before writing: ``--watch`` sees the event after
            if callable(wrote):
                wrote(base.with_name(base.name + suffix))
        return write_export(base, shared(), svg)

    def written(paths: list[Path] | None) -> None:
        if paths:
            names = ", ".join(path.name for path in paths)
            app.notify(
                f"Session exported to {_where(paths[0])}: {names}",
                title="Export session",
                markup=False,
                timeout=12,
            )

    calls = len(history.records)
    summary = (
        f"The transcript, {calls} call{'s' if calls != 1 else ''} with the requests asked and "
        "answered, and the traffic, as an HTML page and Markdown, with an SVG screenshot. "
        "Values typed into secret-looking fields are masked."
    )
    app.push_screen(ExportSessionScreen(summary, default_base(), write), callback=written)


def _where(path: Path) -> str:
    """The folder ``path`` is in, as the person reads it ("the current directory" for ".")."""
    parent = path.parent
    return "the current directory" if str(parent) == "." else str(parent)
