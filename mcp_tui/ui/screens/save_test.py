"""The "Save as a test" dialog: which test file, what name; the case is appended on Ctrl+S.

It says what will be written (the call, how many answers, what is checked) and, before saving,
whether the file exists (the case is appended, its server kept) or is made. When calls were made
before this one on the same connection, it offers them as the case's setup (a checkbox, off
until ticked), each listed as it would be written, so a destructive case (a delete) is saved
with what creates its item. Saving is the
caller's ``save`` function; if it fails (a file that is not a test file, a call that cannot be a
case, a disk error) the reason is shown here and the dialog stays open with what was typed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.literal import literal_line
from mcp_tui.ui.screen_css import screen_css
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert import InertInput

#: Writes the case to the file (with the calls before it as its setup, or not), returns notes
#: for the person; raises with a message.
Save = Callable[[Path, str, bool], list[str]]
#: The rows the setup's calls get on an 80x24 screen (``save_test.tcss``: 10vh, so the buttons
#: stay on it; more on a taller one).
SETUP_ROWS = 2


class SaveTestScreen(ModalScreen[tuple[Path, list[str]] | None]):
    """Asks for the test file and the case's name; returns ``(file, notes)`` once saved."""

    DEFAULT_CSS = screen_css(__file__)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", priority=True, id="save_test.save",
                tooltip="Append the case to the test file"),
        Binding("escape", "close", "Cancel", id="save_test.close",
                tooltip="Close without saving"),
    ]  # fmt: skip

    def __init__(
        self,
        heading: str,
        summary: str,
        path: str,
        name: str,
        save: Save,
        setup: Sequence[str] = (),
    ) -> None:
        """``setup``: the calls that can be saved as the case's setup, one line each."""
        super().__init__(classes="dialog-screen")
        self._heading = heading
        self._summary = summary
        self._file_path = path
        self._case_name = name
        self._save = save
        self._setup = list(setup)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog save-test-dialog"):
            yield Label(
                Content.assemble("Save as a test  ", literal_line(self._heading, limit=60)),
                classes="dialog-title",
            )
            yield Static(literal_line(self._summary, limit=None))
            with Horizontal(classes="save-test-row"):
                yield Label("Test file", classes="save-test-label")
                yield InertInput(self._file_path, id="save-test-path")
            with Horizontal(classes="save-test-row"):
                yield Label("Case name", classes="save-test-label")
                yield InertInput(self._case_name, id="save-test-name")
            if self._setup:
                count = len(self._setup)
                calls = "the call" if count == 1 else f"the {count} calls"
                label = f"Also save {calls} made before it as its setup:"
                yield Checkbox(Content(label), False, id="save-test-setup")
                lines = Content("\n").join(literal_line(line, limit=None) for line in self._setup)
                with VerticalScroll(id="save-test-setup-calls") as calls_list:
                    # A Tab stop only when there is more than it shows (arrows scroll it).
                    calls_list.can_focus = count > SETUP_ROWS
                    yield Static(lines)
            yield Static(id="save-test-status")
            with Horizontal(classes="dialog-buttons"):
                yield Button(Content("Save  ^s"), variant="success", id="save-test-save")
                yield Button(Content("Cancel  esc"), variant="primary", id="save-test-cancel")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#save-test-path", Input).focus()
        self._say_where()

    @on(Input.Changed, "#save-test-path")
    def _say_where(self) -> None:
        path = self._file()
        if path is None:
            text = "Give the test file's path."
        elif path.exists():
            text = f"{path} exists: the case is appended (its server and other cases are kept)."
        else:
            text = f"{path} is new: it is made, with this server."
        self._status(text)

    @on(Input.Submitted, "#save-test-path")
    def _next(self) -> None:
        self.query_one("#save-test-name", Input).focus()

    @on(Input.Submitted, "#save-test-name")
    def _submitted(self) -> None:
        self.action_save()

    def _file(self) -> Path | None:
        text = self.query_one("#save-test-path", Input).value.strip()
        return Path(text).expanduser() if text else None

    def _status(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#save-test-status", Static)
        status.update(literal_line(text, limit=None))
        status.set_class(error, "-error")

    def action_save(self) -> None:
        path = self._file()
        name = self.query_one("#save-test-name", Input).value.strip()
        if path is None or not name:
            self._status("Give the test file and the case's name.", error=True)
            return
        try:
            notes = self._save(path, name, self._with_setup)
        except Exception as error:  # the reason, here; nothing typed is lost
            self._status(f"Not saved: {error}", error=True)
            return
        close_wherever(self, (path, notes))

    @property
    def _with_setup(self) -> bool:
        if not self._setup:
            return False
        return self.query_one("#save-test-setup", Checkbox).value

    @on(Checkbox.Changed, "#save-test-setup")
    def _setup_toggled(self, event: Checkbox.Changed) -> None:
        self.query_one("#save-test-setup-calls").set_class(event.value, "-on")

    def action_close(self) -> None:
        close_wherever(self, None)

    @on(Button.Pressed, "#save-test-save")
    def _save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#save-test-cancel")
    def _cancel_pressed(self) -> None:
        self.action_close()
