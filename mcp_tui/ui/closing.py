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
``tests/ui/app/test_app_teardown.py`` says so.

:func:`close_wherever` closes a screen that something other than a key on it finishes (a server
withdrew the request it shows, a Ctrl+S handled after other keys) wherever it is in the stack,
with the dialogs it opened itself (:func:`open_dialog`), and only those: a screen someone else
put over it (another server's request, the arguments of another call opened from the palette,
the help) stays on top, focused, with what was typed in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar
from weakref import WeakKeyDictionary

from textual._context import NoActiveAppError

if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode
    from textual.screen import Screen

ResultT = TypeVar("ResultT")

#: Each dialog opened with :func:`open_dialog`, and the screen it is about.
_OWNERS: WeakKeyDictionary[Screen[Any], Screen[Any]] = WeakKeyDictionary()


def closing(node: DOMNode) -> bool:
    """True from the moment Textual starts removing ``node`` (its children may already be gone),
    or the app was told to exit (``App.exit``: from then on Textual counts no widget as attached
    and a mount raises, though nothing is removed yet; a call that returned as Ctrl+Q closed its
    connection had its outcome written there)."""
    if node._pruning or node._closing or node._closed:
        return True
    try:
        return bool(node.app._exit)
    except NoActiveAppError:
        return True


def open_dialog(
    owner: Screen[Any],
    dialog: Screen[ResultT],
    callback: Callable[[ResultT | None], None],
) -> None:
    """Push ``dialog`` (a question about ``owner``: "Cancel this request?") as ``owner``'s own:
    :func:`close_wherever` closes it with ``owner``, and nothing else it did not open."""
    _OWNERS[dialog] = owner
    owner.app.push_screen(dialog, callback=callback)


def _owned_by(dialog: Screen[Any], owner: Screen[Any]) -> bool:
    found = _OWNERS.get(dialog)
    while found is not None:
        if found is owner:
            return True
        found = _OWNERS.get(found)
    return False


def close_wherever(screen: Screen[ResultT], result: ResultT | None = None) -> None:
    """Dismiss ``screen`` with ``result`` wherever it is in the stack, and the dialogs it opened.

    Textual's ``Screen.dismiss`` pops the *top* screen, whichever it is: a form the server
    withdrew while the person had a dialog open over it closed that dialog and stayed, answered,
    dead to every key; a form under another server's sign-in took the sign-in away with it. Here
    ``screen`` and its own dialogs (:func:`open_dialog`; each answered ``None``) leave the stack
    where they are; any other screen over them stays, focused as it was. A screen already gone
    from the stack (the app is closing, or a second closing at once) is left alone: nothing
    raises, nothing else is popped.

    Textual has no call that takes a screen out of the middle of its stack, so the ones not on
    top are taken out the way ``App.pop_screen`` takes out the top one (its result callback, the
    stack, ``App._replace_screen``, which unmounts it and so cancels its workers);
    ``tests/ui/app/test_withdrawn_under_a_dialog.py`` pins each private name used here, and that.
    """
    app = screen.app
    stack = app.screen_stack
    if screen not in stack or len(stack) <= 1 or stack[0] is screen:
        return
    going: list[tuple[Screen[Any], object]] = [
        (s, None) for s in stack if s is not screen and _owned_by(s, screen)
    ]
    going.append((screen, result))
    top = app.screen
    for each, answer in going:
        if each is not top:
            _take_out(app, each, answer)
    for each, answer in going:
        if each is top:
            each.dismiss(answer)


def _take_out(app: App[Any], screen: Screen[Any], result: object) -> None:
    """Remove ``screen`` (not the top one) from the stack, answering its caller with ``result``."""
    callbacks = screen._result_callbacks
    if callbacks:
        callbacks[-1](result)
        screen._pop_result_callback()
    app._screen_stack.remove(screen)
    app.call_next(app._replace_screen, screen)
