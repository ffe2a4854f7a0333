"""A yes/no question: quitting with a form open, retrying a call once its pages are finished.

The keys are on the buttons and in the footer (``y`` and ``n``/Escape). ``danger`` questions
(quitting throws typed input away) start on the safe answer; the others start on yes, so Enter
alone accepts the offer. :class:`ArmedConfirmScreen` is the question that answers a server (the
-32042 retry): it arms first, like every such screen.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from mcp_tui.ui.closing import close_wherever
from mcp_tui.ui.screens.arming import ArmedScreen
from mcp_tui.ui.widgets.key_footer import KeyFooter


class ConfirmScreen(ModalScreen[bool]):
    """Asks ``question``; ``y``/Enter on the yes button answers True, ``n``/Escape False."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(
        self,
        title: str,
        question: str,
        *,
        yes: str = "Yes",
        no: str = "No",
        danger: bool = True,
    ) -> None:
        super().__init__(classes="dialog-screen")
        self._title = title
        self._question = question
        self._yes = yes
        self._no = no
        self._danger = danger

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog confirm-dialog"):
            yield Label(Content(self._title), classes="dialog-title")
            yield Static(Content(self._question), classes="confirm-question")
            with Horizontal(classes="dialog-buttons"):
                yield Button(
                    Content(f"{self._yes}  y"),
                    variant="error" if self._danger else "success",
                    id="confirm-yes",
                )
                yield Button(Content(f"{self._no}  n"), variant="primary", id="confirm-no")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.focus_start()

    def focus_start(self) -> None:
        self.query_one("#confirm-no" if self._danger else "#confirm-yes", Button).focus()

    def action_answer(self, answer: bool) -> None:
        close_wherever(self, answer)

    @on(Button.Pressed, "#confirm-yes")
    def _yes_pressed(self) -> None:
        close_wherever(self, True)


class ArmedConfirmScreen(ArmedScreen, ConfirmScreen):
    """A question that answers a server ("Retry the call now?"): yes (``y``, Enter on its
    button) acts only once the question has been on screen for a moment (``arming``); no and
    Escape at once. Yes gets the focus when it turns live, so Enter alone then accepts."""

    ARMED_BUTTONS = ("confirm-yes",)

    def accepting(self, action: str, parameters: tuple[object, ...]) -> bool:
        return action == "answer" and parameters == (True,)

    def on_mount(self) -> None:
        """Nothing is focused before the question appeared (keys would reach it)."""

    def focus_when_shown(self) -> None:
        if self._danger:
            self.focus_start()

    def when_armed(self) -> None:
        if self.focused is None:
            self.focus_start()

    def action_answer(self, answer: bool) -> None:
        if answer and not self.armed:
            return
        super().action_answer(answer)

    @on(Button.Pressed, "#confirm-no")
    def _no_pressed(self) -> None:
        close_wherever(self, False)
