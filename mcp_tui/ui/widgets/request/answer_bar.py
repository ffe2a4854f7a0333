"""The keys and buttons every elicitation screen shares (form, confirmation, URL consent).

One definition so the keys are the same on every screen that answers a server, and the footer and
the buttons say the same thing. A screen using these bindings implements ``action_accept``,
``action_decline`` and ``action_cancel`` and has ``key_order.AfterKeysActions`` among its bases
(Ctrl+S and Ctrl+R run their action once the keys typed before them have taken effect);
:func:`answer_button` makes its Accept / Decline / Cancel buttons (label with the key, colour,
size), so they look alike on every screen.

Ctrl+S and Ctrl+R are priority bindings, so they work whatever widget has focus (a select list, a
filter box). Escape is not: an open drop-down closes on Escape first, and only then does Escape
cancel the request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal

from textual import events
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Button
from textual.widgets.button import ButtonVariant

from mcp_tui.ui.key_order import OrderedButton, after_earlier_keys

#: Accept: send the form (or consent to open the URL).
ACCEPT_KEY = "ctrl+s"
#: Decline: the user explicitly says no.
DECLINE_KEY = "ctrl+r"
#: Cancel: the user dismisses the request without choosing.
CANCEL_KEY = "escape"

#: Labels for buttons, matching what the footer shows.
ACCEPT_HINT = "Ctrl+S"
DECLINE_HINT = "Ctrl+R"
CANCEL_HINT = "Esc"

#: Binding ids, for keymaps: a screen that swaps a binding for a variant keeps the id.
ACCEPT_ID = "elicitation.accept"
DECLINE_ID = "elicitation.decline"
CANCEL_ID = "elicitation.cancel"


def elicitation_bindings(
    *, accept: str = "Accept", decline: str = "Decline", cancel: str = "Cancel"
) -> list[BindingType]:
    """The three shared bindings, with screen-specific footer words (e.g. "Open & accept")."""
    return [
        Binding(ACCEPT_KEY, after_earlier_keys("accept"), accept, priority=True, id=ACCEPT_ID),
        Binding(DECLINE_KEY, after_earlier_keys("decline"), decline, priority=True, id=DECLINE_ID),
        Binding(CANCEL_KEY, "cancel", cancel, id=CANCEL_ID),
    ]


ELICITATION_BINDINGS: list[BindingType] = elicitation_bindings()


#: The three answers a screen's buttons give.
Answer = Literal["accept", "decline", "cancel"]

#: Per answer: the usual word on its button, its key as the footer shows it, the button's variant.
_WORDS: dict[Answer, str] = {"accept": "Accept", "decline": "Decline", "cancel": "Cancel"}
_HINTS: dict[Answer, str] = {"accept": ACCEPT_HINT, "decline": DECLINE_HINT, "cancel": CANCEL_HINT}
_VARIANTS: dict[Answer, ButtonVariant] = {
    "accept": "success",
    "decline": "warning",
    "cancel": "default",
}
_USUAL_WORD = Content("")


def answer_label(answer: Answer, word: Content = _USUAL_WORD) -> Content:
    """A button's label: the word (``Content("Send")``, ``Content("Open")``; the answer's own by
    default) and its key, as the footer shows it. Literal ``Content``: never parsed as markup."""
    return Content.assemble(word or _WORDS[answer], "  ", _HINTS[answer])


def relabel(button: Button, answer: Answer, word: Content = _USUAL_WORD) -> None:
    """Change an answer button's word (Accept -> Send on the review, Open -> Accept once the
    browser could not be opened); the key stays."""
    button.label = answer_label(answer, word)
    if isinstance(button.parent, AnswerBar):
        button.parent.fit()


class AnswerBar(Horizontal):
    """The row of a request screen's answer buttons, always in sight, always whole.

    Docked at the bottom of the dialog, so a long body or a short terminal shrinks the body, never
    the buttons. When the row is wider than the screen it becomes two columns: at 40 columns the
    URL consent's row was cut to "Open Ctrl+S  Decline Ctrl+R", with no way to cancel in sight.
    """

    DEFAULT_CSS = """
    AnswerBar { dock: bottom; height: auto; align: center middle; margin: 1 0 0 0; }
    AnswerBar > Button { margin: 0 1; }
    AnswerBar.-stacked { layout: grid; grid-size: 2; grid-rows: 1; grid-columns: 1fr 1fr; }
    AnswerBar.-stacked > Button { width: 1fr; margin: 0 0 0 1; }
    """

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def on_mount(self) -> None:
        self.call_after_refresh(self.fit)

    def fit(self) -> None:
        """One row when every button fits in it (label, padding and margins), else two columns."""
        needed = sum(
            button.label.cell_length + 4
            for button in self.query_children(Button)
            if button.display and isinstance(button.label, Content)
        )
        self.set_class(needed > self.size.width > 0, "-stacked")


def answer_button(
    answer: Answer,
    *,
    id: str,
    on_press: Callable[[], Awaitable[None] | None],
    word: Content = _USUAL_WORD,
) -> OrderedButton:
    """The button that gives ``answer``: a compact :class:`OrderedButton` in the answer's colour,
    labelled with its key (``on_press`` runs at once on Enter or Space, in key order)."""
    return OrderedButton(
        answer_label(answer, word),
        id=id,
        variant=_VARIANTS[answer],
        compact=True,
        on_press=on_press,
    )
