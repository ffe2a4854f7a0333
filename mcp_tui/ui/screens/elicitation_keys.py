"""The keys every elicitation screen shares (form, confirmation, URL consent).

One definition so the keys are the same on every screen that answers a server, and the footer and
the buttons say the same thing. A screen using these bindings implements ``action_accept``,
``action_decline`` and ``action_cancel``.

Ctrl+S and Ctrl+R are priority bindings, so they work whatever widget has focus (a select list, a
filter box). Escape is not: an open drop-down closes on Escape first, and only then does Escape
cancel the request.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

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
        Binding(ACCEPT_KEY, "accept", accept, priority=True, id=ACCEPT_ID),
        Binding(DECLINE_KEY, "decline", decline, priority=True, id=DECLINE_ID),
        Binding(CANCEL_KEY, "cancel", cancel, id=CANCEL_ID),
    ]


ELICITATION_BINDINGS: list[BindingType] = elicitation_bindings()
