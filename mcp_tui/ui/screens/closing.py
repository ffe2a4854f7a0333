"""Closing screens safely: whether one is being taken down, and closing one that is not on top.

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

:func:`close_wherever` closes a screen that code outside it finishes (a server withdrew the
request it shows) even when another screen is open over it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.screen import Screen

ResultT = TypeVar("ResultT")


def closing(node: DOMNode) -> bool:
    """True from the moment Textual starts removing ``node`` (its children may already be gone)."""
    return node._pruning or node._closing or node._closed


def close_wherever(screen: Screen[ResultT], result: ResultT | None = None) -> None:
    """Dismiss ``screen`` with ``result`` wherever it is in the stack, never another screen.

    Textual's ``Screen.dismiss`` pops the *top* screen, whichever it is: a form the server
    withdrew while the person had a dialog open over it ("Cancel this request?", the help
    screen) closed the dialog and stayed, answered, dead to every key. Here the screens above
    ``screen`` are dismissed first (a dialog about a withdrawn form has nothing left to ask),
    each only while it is still on top, so two closings at once never pop one screen twice. A
    screen already gone from the stack (the app is closing) is left alone: nothing raises.
    """
    app = screen.app
    stack = app.screen_stack
    if screen not in stack or len(stack) <= 1:
        return
    if app.screen is screen:
        screen.dismiss(result)
        return

    async def close_from_the_top() -> None:
        while screen in app.screen_stack and len(app.screen_stack) > 1:
            top = app.screen
            if top is screen:
                await screen.dismiss(result)
                return
            await top.dismiss()

    app.call_later(close_from_the_top)
