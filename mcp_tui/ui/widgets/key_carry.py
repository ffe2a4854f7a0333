"""Keys typed after one sequenced screen closed go to the next one (the next queued form).

A user who sends a form with Ctrl+S and types on is typing into the next form of the queue: the
keys still queued on the closing screen (see ``key_order``) are kept here, in order, and handed to
the next screen right after it is pushed, before any key typed later. A Ctrl+S among them (an
``after_keys`` action) is kept by name and runs in its turn on that screen.
"""

from __future__ import annotations

from textual import events

from mcp_tui.ui.widgets.key_order import CarriedAction, KeyInput, SequencedKey, SequencedScreen

__all__ = ["KeyCarry"]


class KeyCarry:
    """Keys typed after one sequenced screen closed, kept for the next one.

    Whoever shows the screens one after another (the elicitation queue) owns one carry: a screen
    that closes while another is waiting calls :meth:`SequencedScreen.close_keys` with it, the
    owner calls :meth:`hand_to` on the next screen right after pushing it, and :meth:`clear` when
    nothing more is coming (kept keys must not surface in some unrelated screen later).
    """

    def __init__(self) -> None:
        self._keys: list[KeyInput | str] = []
        self._target: SequencedScreen | None = None
        self._armed = False

    @property
    def kept(self) -> int:
        """Keys waiting for the next screen."""
        return len(self._keys)

    def start(self) -> None:
        """A screen is closing with another to come: keep what follows for that one."""
        self._armed = True
        self._target = None

    def keep(self, key: KeyInput | str) -> None:
        """A key (or an action's name) the closed screen had queued: to the next screen, or kept
        until it is shown."""
        if not self._armed:
            return
        target = self._target
        if target is not None and target.is_attached:
            target.post_message(_carried(key))
        else:
            self._keys.append(key)

    def hand_to(self, screen: SequencedScreen) -> None:
        """Give the kept keys to ``screen`` (just pushed: they run after its mount and focus)."""
        if not self._armed:
            return
        self._target = screen
        keys, self._keys = self._keys, []
        for key in keys:
            screen.post_message(_carried(key))

    def clear(self) -> None:
        """Nothing more is coming: drop the kept keys and keep no more."""
        self._keys.clear()
        self._target = None
        self._armed = False


def _carried(key: KeyInput | str) -> events.Event:
    return CarriedAction(key) if isinstance(key, str) else SequencedKey(key, carried=True)
