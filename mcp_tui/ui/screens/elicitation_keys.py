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

ELICITATION_BINDINGS: list[BindingType] = [
    Binding(ACCEPT_KEY, "accept", "Accept", priority=True, id="elicitation.accept"),
    Binding(DECLINE_KEY, "decline", "Decline", priority=True, id="elicitation.decline"),
    Binding(CANCEL_KEY, "cancel", "Cancel", id="elicitation.cancel"),
]
