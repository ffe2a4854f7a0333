"""A block of text given at most a fifth of the screen's height, that says when it was cut.

A ``max-height`` alone cuts a long paragraph without a sign: at 80x24 a tool's description of
six wrapped lines showed five and stopped mid-sentence. This widget wraps the text at its own
width whenever its size changes and, when the lines do not fit, keeps what fits and ends with
a note (``more``) saying where the rest is.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.widgets import Static

#: The share of the screen's height the text may take, and the fewest lines it gets.
SHARE = 5
FEWEST = 2


class FittedText(Static):
    """``text`` wrapped to the widget's width, cut to its line budget with ``more`` after it."""

    def __init__(self, text: Content, more: Content, *, classes: str | None = None) -> None:
        super().__init__(text, classes=classes)
        self._text = text
        self._more = more
        #: (width, budget) of the last fitting: a resize that changes neither does nothing.
        self._fitted: tuple[int, int] | None = None

    @property
    def budget(self) -> int:
        """Lines the text may take on this screen."""
        return max(FEWEST, self.app.size.height // SHARE)

    def on_mount(self) -> None:
        # A taller or shorter terminal changes the budget without resizing this widget (its
        # text is cut to fit): the screen's layout refresh says so.
        self.screen.screen_layout_refresh_signal.subscribe(self, lambda _screen: self.fit())

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """Show as much of the text as fits the budget at the current width."""
        width = self.content_size.width
        if width <= 0:
            return
        budget = self.budget
        if self._fitted == (width, budget):
            return
        self._fitted = (width, budget)
        lines = self._text.wrap(width)
        if len(lines) <= budget:
            self.update(self._text)
            return
        kept = Content("\n").join(lines[: budget - 1])
        self.update(Content.assemble(kept, "\n", self._more))

    @property
    def cut(self) -> bool:
        """The text does not fit, and the note says so."""
        return self._fitted is not None and len(self._text.wrap(self._fitted[0])) > self._fitted[1]
