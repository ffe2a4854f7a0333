"""Whether a screen is being taken down, when its widgets may be gone while code outside it runs.

Textual removes a screen in steps (``App._prune``): it marks the screen and every widget in it
(``_pruning``), the screen's message loop closes (``_closing``: its own timers stop, its messages
are dropped), its widgets close and leave it, and only then does the screen get ``Unmount`` (its
workers are cancelled) and leave the app. Code that does not run in the screen's message loop
goes on meanwhile: the app's timers (the event flush), the app's ``call_later`` queue, the
screen's workers (a tool call returning). In that window ``query_one`` finds nothing and raises
``NoMatches``: a server that kept sending while the user quit (or a test ended) crashed the app.

Such code asks :func:`closing` first and drops what it would have shown: the screen is never seen
again. The flags are Textual's own (it checks ``_pruning`` the same way before delivering a
signal); they are read here only, so a Textual that renames them breaks one function, and
``tests/ui/test_app_teardown.py`` says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.dom import DOMNode


def closing(node: DOMNode) -> bool:
    """True from the moment Textual starts removing ``node`` (its children may already be gone)."""
    return node._pruning or node._closing or node._closed
