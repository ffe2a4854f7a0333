"""Keys typed in a burst reach the right field, in order, and Ctrl+S sees every one of them.

Why this exists (seen with Textual 8.2.8): the App routes each key to the widget focused *when the
App dequeues the key*, by posting it to that widget's queue, and goes on with the next key. The
widget handles it later; a key that is a binding (Tab, Space in a list, Backspace, Enter) is
resolved only after it has bubbled back up to the App, against the focus of *that* moment; a
priority binding (Ctrl+S) runs at once, inside the App. Several widgets also act through messages
they post to themselves (a selection list toggles the row highlighted when its own message comes
back). When keys arrive together (a fast typist during a slow frame, ``tmux send-keys``, a macro)
input is lost: with ``Space Tab c a k e Ctrl+S`` on a multi-select followed by a text field, Ctrl+S
submitted before the list had seen Space, and ``cake`` went to the list (which ignores letters)
because Tab had not yet moved the focus when the App routed the letters. ``Pilot.press`` waits for
the app to go idle after every key, so it never shows this; the tests queue a whole burst on the
driver before the app handles the first key.

The rule kept here: *a key takes effect on the widget that has focus once every earlier key has
taken effect*, and Ctrl+S acts after all of them.

- On a :class:`SequencedScreen`, every key routed to one of its :class:`OrderedKeys` controls (or
  to the screen, while nothing has focus yet) is diverted, at the moment the App routes it, into
  the screen's own queue: one queue, in arrival order. The screen hands each key to the widget
  focused *then* and waits until that widget has handled it completely before taking the next.
- An :class:`OrderedKeys` control handles a key completely in one go: its own key handling (an
  Input inserts the character), then the key's bindings, resolved right there against the current
  focus (Tab and Enter move the focus at once). A key nothing handles is dropped, as Textual drops
  it. Controls also act at once where Textual would go through a message (``form_controls``).
- :func:`after_keys` (Ctrl+S, Ctrl+R) runs its callback once every key queued before it has been
  handled, from the App's queue (where keys typed into plain widgets such as a button are
  resolved), and holds the keys after it until the callback has finished.
- On a screen that is not a :class:`SequencedScreen` the controls still resolve each key in their
  own queue and pass on a key that reaches them after focus has moved; that narrows the problem
  but cannot close it (two queues fed by the App can still be emptied out of order).
- Keys still queued when a sequenced screen closes (typed after the Ctrl+S that sent the form)
  are dropped (:meth:`SequencedScreen.close_keys`): they were typed before the next screen
  appeared, and must not answer it (``screens/arming``).

A priority binding names its action through :func:`after_earlier_keys`: the binding's action is
``after_keys('accept')``, which :class:`AfterKeysActions` (a base of every sequenced screen) turns
into ``action_accept`` run by :func:`after_keys`. So a screen has one method per verb: the binding
defers it here, and a button (whose press is already in key order) calls it directly.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button

__all__ = [
    "AfterKeysActions",
    "KeyInput",
    "KeysHandled",
    "OrderedButton",
    "OrderedKeys",
    "SequencedKey",
    "SequencedScreen",
    "after_earlier_keys",
    "after_keys",
]

#: Longest wait for a control to handle one key before the next is handed out anyway (a control
#: removed with keys in its queue never answers; nothing must hang on it).
KEY_TIMEOUT = 2.0


#: What is sequenced: keys, and pasted text (a paste after typing must land after the typing).
KeyInput = events.Key | events.Paste


class SequencedKey(events.Event, bubble=False):
    """A key (or a paste) diverted into the screen's queue at the moment the App routed it."""

    def __init__(self, key: KeyInput) -> None:
        super().__init__()
        self.key = key


class _KeyForControl(events.Event, bubble=False):
    """A key the screen hands to a control; ``done`` is set once the control has handled it."""

    def __init__(self, key: KeyInput) -> None:
        super().__init__()
        self.key = key
        self.done = asyncio.Event()


class KeysHandled(events.Event, bubble=False):
    """Queued behind the keys; see :func:`after_keys`."""

    def __init__(self, callback: Callable[[], Awaitable[None] | None]) -> None:
        super().__init__()
        self.callback = callback


def _copy(key: KeyInput) -> KeyInput:
    """A fresh event (a dispatched one carries stop/prevent state)."""
    copy = (
        events.Key(key.key, key.character)
        if isinstance(key, events.Key)
        else events.Paste(key.text)
    )
    if key._sender is not None:
        copy.set_sender(key._sender)
    return copy


def _screen_of(widget: Widget) -> Screen[Any] | None:
    try:
        return widget.screen
    except NoScreen:  # being removed
        return None


if TYPE_CHECKING:
    _WidgetBase = Widget
    _ScreenBase = Screen[Any]
else:
    # Plain classes at run time: Textual takes default CSS and component classes from the first
    # DOMNode base, which must stay the real widget class (Input, SelectionList, ...).
    _WidgetBase = object
    _ScreenBase = object


class OrderedKeys(_WidgetBase):
    """Mixin for a focusable form control: each key handled completely, in arrival order.

    Put it first among the bases (``class TextControl(OrderedKeys, Input)``). See the module
    docstring for the Textual behaviour it corrects.
    """

    def update_node_styles(self, animate: bool = True) -> None:
        """Skip restyling until mounted: mounting applies the whole stylesheet anyway.

        The constructors of Textual's controls toggle classes (``Button``: ``variant``, ``flat``,
        ``compact``; ``Input``: ``compact``, ``-valid`` from validating its initial value;
        ``Checkbox``: ``-on``), and each toggle re-applied the stylesheet to the new, detached
        widget at once: three times per button, twice per input, about 1 ms each.
        """
        if self.is_attached:
            super().update_node_styles(animate)

    def _forward_event(self, event: events.Event) -> None:
        # The App routes a key here: on a sequenced screen it joins the screen's single queue.
        if isinstance(event, KeyInput):
            screen = _screen_of(self)
            if isinstance(screen, SequencedScreen):
                screen.post_message(SequencedKey(event))
                return
            if isinstance(event, events.Key):
                event._mcp_tui_routed_to = self  # type: ignore[attr-defined]
        super()._forward_event(event)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, _KeyForControl):
            try:
                if isinstance(event.key, events.Key):
                    await self.handle_key_now(event.key)
                else:
                    await super().on_event(event.key)  # a paste: the control's own handling
            finally:
                event.done.set()
            return
        if isinstance(event, events.Key) and getattr(event, "_mcp_tui_routed_to", None) is self:
            # Not a sequenced screen: pass the key on if focus has moved since it was routed.
            focused = self.app.focused
            if focused is not None and focused is not self and _screen_of(focused) is self.screen:
                focused._forward_event(_copy(event))
                return
            await self.handle_key_now(event)
            return
        await super().on_event(event)

    async def handle_key_now(self, event: events.Key) -> None:
        """The control's own key handling, then the key's bindings, against the focus of now."""
        # No bubbling: the key must not travel on to the App and be resolved a second time there,
        # perhaps against another field that has focus by then.
        event.bubble = False  # type: ignore[misc]  # this one event only
        try:
            await super().on_event(event)
        finally:
            del event.bubble  # back to the class attribute
        if event._stop_propagation:  # the control handled it
            return
        # Exactly the lookup the App does for a key that bubbled up unhandled: the focused widget
        # and its ancestors, up to the modal screen.
        await self.app._check_bindings(event.key)


class OrderedButton(OrderedKeys, Button):
    """A button whose Enter has taken effect before the next key is read.

    Textual's Enter posts ``Button.Pressed``, handled later, so keys typed after it went to a
    button that was about to go away (the next page of fields, the dialog closing). With a key,
    ``on_press`` runs (and is awaited) right away; a click still posts ``Button.Pressed``.
    """

    def __init__(
        self, *args: Any, on_press: Callable[[], Awaitable[None] | None], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self._on_press = on_press

    async def action_press(self) -> None:  # type: ignore[override]  # Textual awaits actions
        if self.disabled or not self.display:
            return
        result = self._on_press()
        if inspect.isawaitable(result):
            await result


def after_earlier_keys(action: str) -> str:
    """The binding action that runs ``action_<action>`` once the keys typed before it have taken
    effect (Ctrl+S, Ctrl+R, F2: priority bindings, which Textual runs at once inside the App)."""
    return f"after_keys({action!r})"


class AfterKeysActions(_ScreenBase):
    """Mixin for a screen with :func:`after_earlier_keys` bindings: ``after_keys('accept')`` runs
    ``action_accept`` through :func:`after_keys`, and is enabled, disabled or hidden exactly as
    ``accept`` is (the footer and arming ask ``check_action`` about the action itself)."""

    def action_after_keys(self, action: str) -> None:
        after_keys(self, getattr(self, f"action_{action}"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "after_keys" and parameters:
            return self.check_action(str(parameters[0]), ())
        return super().check_action(action, parameters)


class SequencedScreen(AfterKeysActions):
    """Mixin for a screen whose keys are handled one at a time, in arrival order.

    Put it first among the bases (``class ElicitationScreen(SequencedScreen, ModalScreen[...])``).
    """

    #: After :meth:`close_keys`: the keys still queued are dropped.
    _keys_closed: bool = False

    def close_keys(self) -> None:
        """The screen is closing: keys still queued are not for it, nor for the screen that
        comes next (typed before it appeared); they are dropped."""
        self._keys_closed = True

    def _forward_event(self, event: events.Event) -> None:
        # Nothing has focus yet (the screen has just been pushed): the key still joins the queue,
        # and goes to the first field once the screen has focused it.
        if isinstance(event, KeyInput):
            self.post_message(SequencedKey(event))
            return
        super()._forward_event(event)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, SequencedKey):
            if not self._keys_closed:
                await self._deliver(event.key)
            return
        if isinstance(event, KeysHandled):
            if not self._keys_closed:
                await self._run_after_keys(event.callback)
            return
        await super().on_event(event)

    async def _run_after_keys(self, callback: Callable[[], Awaitable[None] | None]) -> None:
        """Run ``callback`` from the App's queue and hold later keys until it has finished (a key
        typed after Ctrl+S must go to the field the failed submit focused)."""
        done = asyncio.Event()

        async def run() -> None:
            try:
                result = callback()
                if inspect.isawaitable(result):
                    await result
            finally:
                done.set()

        self.app.call_later(run)
        await _wait(done, self)

    async def _deliver(self, key: KeyInput) -> None:
        """Hand ``key`` to the widget focused now and wait until it has been handled."""
        target = self.focused
        if target is None:
            # Nothing to type into (a confirmation): the screen's own bindings (Escape).
            if isinstance(key, events.Key):
                await self.app._check_bindings(key.key)
            return
        if not isinstance(target, OrderedKeys):
            # A plain widget: Textual's own path. Its keys are resolved after bubbling through
            # this screen, so they cannot be waited for here; a sequenced screen should make
            # every focusable widget an ``OrderedKeys`` (``OrderedButton`` for buttons).
            event = _copy(key)
            event._set_forwarded()
            target.post_message(event)
            return
        message = _KeyForControl(_copy(key))
        target.post_message(message)
        await _wait(message.done, target)


async def _wait(done: asyncio.Event, handler: Widget) -> None:
    """Wait for ``done``, at most :data:`KEY_TIMEOUT`, and not at all once ``handler`` is gone."""
    waited = 0.0
    while not done.is_set() and waited < KEY_TIMEOUT:
        try:
            await asyncio.wait_for(done.wait(), 0.1)
        except TimeoutError:
            waited += 0.1
            if not handler.is_attached:
                return


def after_keys(screen: Screen[Any], callback: Callable[[], Awaitable[None] | None]) -> None:
    """Run ``callback`` (a function or a coroutine function) once every key delivered so far has
    taken effect, and on a :class:`SequencedScreen` hold the keys after it until it has finished.
    If the screen closes first, it never runs.

    On a screen that is not a :class:`SequencedScreen` the callback goes through the App's queue
    only, which covers keys already handled by their widgets but not keys still in a widget's
    queue.
    """
    if isinstance(screen, SequencedScreen):
        screen.post_message(KeysHandled(callback))
    else:
        screen.app.call_later(callback)
