"""The roots dialog: the directories one server may work on, added and removed while connected.

The list shows each root's path and the ``file://`` URI the server receives. Type a directory
(``~`` and relative paths work, relative to where mcp-tui was started) and press Enter to add it;
Delete removes the highlighted root; Ctrl+S applies the list (the connection then tells the
server the way its protocol era allows); Escape closes without changing anything. A path that is
not a directory is refused with the reason, and what was typed stays in the input.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from mcp_tui.config.roots import Root, RootError, make_root
from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.shown_names import shown_name
from mcp_tui.ui.widgets.key_footer import KeyFooter
from mcp_tui.ui.widgets.text.inert import InertInput

NOTE = (
    "Servers that ask for roots (roots/list) work only inside these directories. "
    "Enter adds the typed directory · Delete removes the highlighted one · Ctrl+S applies."
)


def _label(root: Root) -> Content:
    return Content.assemble(
        literal_line(root.path, limit=80, style="bold"), "\n", literal_line(root.uri, style="dim")
    )


class RootsScreen(ModalScreen[tuple[Root, ...] | None]):
    """Edit ``roots`` for ``server``; returns the new list (Ctrl+S) or ``None`` (Escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Apply", priority=True, id="roots.apply",
                tooltip="Offer this list from now on (the server is told)"),
        Binding("escape", "close", "Close", id="roots.close",
                tooltip="Close without changing the roots"),
        Binding("delete", "remove", "Remove", id="roots.remove",
                tooltip="In the list: remove the highlighted root (Enter in the input adds one)"),
    ]  # fmt: skip

    def __init__(self, server: str, roots: tuple[Root, ...]) -> None:
        super().__init__(classes="dialog-screen")
        self._server = server
        self.roots = list(roots)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog roots-dialog"):
            yield Label(
                Content.assemble("Roots of ", literal_line(shown_name(self._server), limit=60)),
                classes="dialog-title",
            )
            yield Static(Content(NOTE), classes="pick-note")
            yield OptionList(id="roots-list")
            yield InertInput(
                placeholder="a directory to add, e.g. ~/projects/app", id="roots-input"
            )
            yield Static("", id="roots-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(Content("Remove  Del"), id="roots-remove")
                yield Button(Content("Apply  Ctrl+S"), variant="success", id="roots-apply")
                yield Button(Content("Close  Esc"), variant="primary", id="roots-close")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._refill()
        self.query_one("#roots-input", Input).focus()

    def _refill(self, highlight: int | None = None) -> None:
        options = self.query_one("#roots-list", OptionList)
        options.clear_options()
        if self.roots:
            options.add_options([Option(_label(root), id=root.uri) for root in self.roots])
            if highlight is not None:
                options.highlighted = max(0, min(highlight, len(self.roots) - 1))
        else:
            options.add_option(Option(Content.styled("(no roots)", "dim italic"), disabled=True))

    def _error(self, text: str) -> None:
        self.query_one("#roots-error", Static).update(literal(text, style="$error"))

    @on(Input.Submitted, "#roots-input")
    def add(self, event: Input.Submitted) -> None:
        typed = event.value
        try:
            root = make_root(typed)
        except RootError as error:
            self._error(f"{error}; nothing was added")
            return
        self._error("")
        if any(r.uri == root.uri for r in self.roots):
            self._error(f"{root.path} is already a root")
            return
        self.roots.append(root)
        event.input.value = ""
        self._refill(len(self.roots) - 1)

    def action_remove(self) -> None:
        options = self.query_one("#roots-list", OptionList)
        index = options.highlighted
        if index is None or not self.roots or index >= len(self.roots):
            self._error("highlight a root in the list to remove it")
            return
        del self.roots[index]
        self._error("")
        self._refill(index)

    @on(Button.Pressed, "#roots-remove")
    def _remove_pressed(self) -> None:
        self.action_remove()

    def action_apply(self) -> None:
        close_wherever(self, tuple(self.roots))

    @on(Button.Pressed, "#roots-apply")
    def _apply_pressed(self) -> None:
        self.action_apply()

    def action_close(self) -> None:
        close_wherever(self)

    @on(Button.Pressed, "#roots-close")
    def _close_pressed(self) -> None:
        self.action_close()
