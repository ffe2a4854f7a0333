"""No keystroke answers a question the person has not seen: a screen arms before it accepts.

Two holes this closes (a black-box run with a real terminal): Ctrl+S pressed about 50 ms after a
URL consent appeared opened the link, and a double Ctrl+S meant for form A opened URL B, which had
arrived 125 ms earlier and was never seen. So every screen that answers a server (a form, a URL
consent and the sign-in consent, the sampling review, the -32042 retry question) is an
:class:`ArmedScreen`:

- **Keys typed before it appeared never reach it; keys typed after do.** It appeared when its
  first frame was written to the terminal: Textual 8.2.8 writes a frame in
  ``Screen._compositor_refresh``, which renders the update and hands it to ``App._display``, and
  that hands it to the driver's writer thread; the screen takes the time as that returns. (A
  callback after the first refresh, which this used before, runs only once the loop is free
  again: at load 25 on 2 cores a key typed 100 ms after the form was visible was dropped.) That
  frame may be written while the screen still mounts, before Textual tells it it was shown
  (``ScreenResume``): it counts all the same. Until then, and until the keys already queued by
  then have been handled, none of its bindings act and no key reaches its widgets: a sequenced
  screen (``key_order``) drops each key whose time is before that moment; the others get their
  focus only then.
- **Its accepting keys and buttons are held for a moment.** For ``ARMING.delay`` seconds
  after it appeared, the accept binding is shown disabled in the footer and the accept
  button is disabled (drawn dim); then both turn live. Decline, cancel and Escape act at once.
- **Shown again, it arms again.** A screen uncovered (a dialog over it closed, another request
  answered) is newly shown: a second Ctrl+S meant for what covered it must not answer it.

The delay lives in one place, ``arming_delay.ARMING`` (its clock too, so tests can drive it
instead of sleeping). A delay of 0 turns arming off altogether (keys typed early included):
``tests/conftest.py`` does that for the tests that are not about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import _time, events
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget

from mcp_tui.ui.arming_delay import ARMING, armed_since, arming_left
from mcp_tui.ui.closing import closing
from mcp_tui.ui.key_order import KeyInput, SequencedKey

if TYPE_CHECKING:
    _ScreenBase = Screen[Any]
else:
    _ScreenBase = object  # a mixin: the real Screen class comes later in the bases


class ArmedScreen(_ScreenBase):
    """Mixin for a screen that answers a server; put it first among the bases.

    A screen names its accepting actions (:attr:`ARMED_ACTIONS`, or :meth:`accepting` for an
    action whose parameters decide) and accept buttons (:attr:`ARMED_BUTTONS`), focuses what it
    starts on in :meth:`focus_when_shown`, and checks :attr:`armed` where a button or a deferred
    key accepts. A screen with its own ``check_action`` calls this one first.

    A base, not a part the screen holds: what it changes is the screen's own behaviour as
    Textual asks it (``check_action``, the ``ScreenResume`` and key events, ``_forward_event``,
    the focus on first showing), so there is no seam to hold it across; every answering screen
    *is* an armed screen.
    """

    ARMED_ACTIONS: ClassVar[frozenset[str]] = frozenset({"accept"})
    ARMED_BUTTONS: ClassVar[tuple[str, ...]] = ()
    #: Textual focuses nothing on its own: a focused widget would take the keys typed before the
    #: screen appeared (only a sequenced screen can still drop them). See ``focus_when_shown``.
    AUTO_FOCUS: ClassVar[str | None] = ""

    #: Textual's clock when the screen appeared (keys older than this are dropped).
    _appeared_at: float | None = None
    #: (Textual's clock, :data:`ARMING`'s clock) when its first frame was written since it last
    #: became the current screen (``None``: not written yet, or covered since).
    _frame_at: tuple[float, float] | None = None
    #: Shown, and its first frame not written yet.
    _awaiting_frame: bool = False
    #: :data:`ARMING`'s clock when it appeared (the delay runs from here).
    _arming_from: float | None = None
    #: Appeared, and the keys queued before that have been handled.
    _shown: bool = False
    _shown_before: bool = False
    _arming_timer: Timer | None = None
    #: The accept button that had focus when it was disabled for arming (focused again after).
    _refocus: Widget | None = None

    # --- what a screen overrides ---------------------------------------------------------------

    def accepting(self, action: str, parameters: tuple[object, ...]) -> bool:
        """True for an action that answers yes (held while arming)."""
        return action in self.ARMED_ACTIONS

    def focus_when_shown(self) -> None:
        """Focus what the screen starts on; called once, when it has first appeared. A screen
        whose keys are not sequenced must not take focus before (keys would reach it)."""

    def when_armed(self) -> None:
        """Called each time the screen turns live."""

    # --- state -----------------------------------------------------------------------------------

    @property
    def shown(self) -> bool:
        """The screen has appeared and the keys typed before that are gone (always, with
        arming off)."""
        return self._shown or ARMING.delay <= 0

    @property
    def armed(self) -> bool:
        """The screen has been on screen for the arming delay: accepting acts."""
        if ARMING.delay <= 0:
            return True
        return self._shown and armed_since(self._arming_from)

    def arming_left(self) -> float:
        """Seconds until :attr:`armed` (0 once armed)."""
        return arming_left(self._arming_from)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Nothing acts before the screen appeared; accepting acts once armed (``None``: the
        footer shows the key, disabled)."""
        if not self.shown:
            return None
        if self.accepting(action, parameters) and not self.armed:
            return None
        return super().check_action(action, parameters)

    # --- showing -------------------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.ScreenResume):
            self._begin_arming()
        elif isinstance(event, events.ScreenSuspend):
            self._frame_at = None  # covered: its next frame is a first one again
        elif isinstance(event, SequencedKey) and self._typed_before_shown(event.key):
            return
        await super().on_event(event)

    def _forward_event(self, event: events.Event) -> None:
        # Nothing focused yet: a key for the screen itself. Before it appeared, it is dropped.
        if isinstance(event, KeyInput) and self._typed_before_shown(event):
            return
        super()._forward_event(event)

    def _typed_before_shown(self, key: KeyInput) -> bool:
        if ARMING.delay <= 0:
            return False
        appeared = self._appeared_at
        return appeared is None or key.time < appeared

    def _begin_arming(self) -> None:
        if ARMING.delay <= 0:  # arming is off: live at once, and no key is held back
            self._appeared_at = float("-inf")
            self._arming_from = float("-inf")
            self._keys_drained()
            return
        self._shown = False
        self._appeared_at = None
        self._arming_from = None
        self._set_buttons(arming=True)
        if self._frame_at is not None:  # written while it mounted, before this event came
            self._appeared()
        else:  # Textual's resume handler refreshes the screen: a frame comes
            self._awaiting_frame = True

    def _compositor_refresh(self) -> None:
        """Where Textual writes the screen's frame (see the module docstring): the first one
        written while it is the current screen is the moment it appeared."""
        writes = self.is_current and not self.app._batch_count
        super()._compositor_refresh()
        if writes and self._frame_at is None:
            self._frame_at = (_time.get_time(), ARMING.clock())
            if self._awaiting_frame:
                self._awaiting_frame = False
                self._appeared()

    def _appeared(self) -> None:
        """First frame written: keys read from then on are the person's answer to this screen."""
        if closing(self) or self._frame_at is None:
            return
        self._appeared_at, self._arming_from = self._frame_at
        # Through the app's queue: the keys queued before now are routed (and dropped) first.
        self.app.call_later(self._keys_drained)

    def _keys_drained(self) -> None:
        if closing(self) or self._appeared_at is None:
            return
        self._shown = True
        if not self._shown_before:
            self._shown_before = True
            self.focus_when_shown()
        self._arming_tick()

    def _arming_tick(self) -> None:
        """Turn live once armed; until then, look again when the delay should be over."""
        if closing(self) or not self._shown:
            return
        if self._arming_timer is not None:
            self._arming_timer.stop()
            self._arming_timer = None
        if self.armed:
            self._set_buttons(arming=False)
            self.refresh_bindings()
            self.when_armed()
            return
        self.refresh_bindings()
        self._arming_timer = self.set_timer(max(self.arming_left(), 0.05), self._arming_tick)

    def update_arming(self) -> None:
        """Look at the clock now (tests that drive :data:`ARMING`'s clock call this)."""
        self._arming_tick()

    def _set_buttons(self, *, arming: bool) -> None:
        """Disable the accept buttons while arming (only those this did: a button disabled for
        another reason, such as the URL being opened, stays so)."""
        for button_id in self.ARMED_BUTTONS:
            try:
                button = self.query_one(f"#{button_id}")
            except NoMatches:
                continue
            if arming:
                if button.disabled:
                    continue
                if self.focused is button:
                    self._refocus = button
                button.add_class("-arming")
                button.disabled = True
            elif button.has_class("-arming"):
                button.remove_class("-arming")
                button.disabled = False
                if self._refocus is button and self.focused is None:
                    button.focus()
                self._refocus = None
