"""A pushed screen is styled once, as its widgets mount, not a second time when it is shown.

Textual (8.2.8) styles every widget as it mounts, then, on the ``ScreenResume`` that
``push_screen`` sends, applies the whole stylesheet to the whole screen again. For a screen pushed
a moment ago that second pass changes nothing, yet it cost about a fifth of an elicitation form's
time from arrival to painted (every widget re-matched against every rule).

The second pass is skipped only when it cannot matter: on the screen's first resume, when no CSS
was added to the stylesheet since the screen began composing. A widget class seen for the first
time adds its ``DEFAULT_CSS`` as it mounts, after its ancestors were styled; then the pass runs,
as Textual would run it. Later resumes (after a screen above it closed) are Textual's own.

A part the screen holds (``self.styled_once = StyledOnce(self)``), whose :meth:`StyledOnce.see`
the screen's ``on_event`` calls before passing the event on: a mixin here only overrode
``on_event`` and shared the screen's ``self``.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.screen import Screen


class StyledOnce:
    """For a screen pushed fresh each time: skips the restyle of its first ``ScreenResume``."""

    def __init__(self, screen: Screen[Any]) -> None:
        self._screen = screen
        #: How many CSS sources the stylesheet had when composing began; ``None`` once resumed.
        self._css_sources_at_compose: int | None = None

    def see(self, event: events.Event) -> None:
        """Look at each event before the screen handles it (from the screen's ``on_event``)."""
        if isinstance(event, events.Compose):
            self._css_sources_at_compose = len(self._screen.app.stylesheet.source)
        elif isinstance(event, events.ScreenResume):
            before, self._css_sources_at_compose = self._css_sources_at_compose, None
            if before is not None and before == len(self._screen.app.stylesheet.source):
                event.refresh_styles = False
