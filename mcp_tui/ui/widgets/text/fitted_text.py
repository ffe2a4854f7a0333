"""A block of text bounded by its ``max-height``, that says when it was cut.

A ``max-height`` alone cuts a long paragraph without a sign: at 80x24 a tool's description of
six wrapped lines showed five and stopped mid-sentence, and the info panel lost the tool's
arguments and the "i details" hint under a long description. This widget wraps the text at its
own width whenever its size or the screen's changes and, when the lines do not fit its
``max-height`` (a fifth of the screen without one), keeps what fits and ends with a note
(``more``) saying where the rest is: on a line of its own, or (``inline``: a running call's
progress message, two lines at most, where an ellipsis says enough) at the end of the last line.
With ``more=None`` the text is never cut (it grows with its lines, as a plain ``Static``).
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

#: Without a ``max-height``: the share of the screen's height the text may take. The fewest
#: lines it gets either way.
SHARE = 5
FEWEST = 2


class FittedText(Static):
    """``text`` wrapped to the widget's width, cut to its line budget with ``more`` after it."""

    def __init__(
        self,
        text: Content,
        more: Content | None,
        *,
        inline: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(text, id=id, classes=classes)
        self._text = text
        self._more = more
        self._inline = inline
        #: Lines shown after the text only when they fit too (a hint the footer also gives).
        self._spare: Content | None = None
        #: (width, budget) of the last fitting: a resize that changes neither does nothing.
        self._fitted: tuple[int, int] | None = None

    def set_text(self, text: Content, spare: Content | None = None) -> None:
        """Show ``text`` instead, and ``spare`` under it if there is room (fitted now if the
        widget has a size, else on its resize)."""
        self._text = text
        self._spare = spare
        self._fitted = None
        self.update(text if spare is None else Content.assemble(text, "\n", spare))
        self.fit()

    @property
    def budget(self) -> int:
        """Lines the text may take: its ``max-height`` less its padding and border, here."""
        viewport = self.app.size
        scalar = self.styles.max_height
        if scalar is None:
            return max(FEWEST, viewport.height // SHARE)
        parent = self.parent
        container = parent.size if isinstance(parent, Widget) else viewport
        height = int(scalar.resolve(container, viewport))
        gutter = self.styles.gutter  # padding and border (a labelled region's top rule)
        return max(FEWEST, height - gutter.top - gutter.bottom)

    def on_mount(self) -> None:
        if self._more is None:
            return
        # A taller or shorter terminal changes the budget without resizing this widget (its
        # text is cut to fit): the screen's layout refresh says so.
        self.screen.screen_layout_refresh_signal.subscribe(self, lambda _screen: self.fit())

    def on_resize(self, event: events.Resize) -> None:
        if self._more is not None:
            self.fit()

    def fit(self) -> None:
        """Show as much of the text as fits the budget at the current width."""
        width = self.content_size.width
        if width <= 0 or self._more is None:
            return
        budget = self.budget
        if self._fitted == (width, budget):
            return
        self._fitted = (width, budget)
        lines = self._text.wrap(width)
        if len(lines) <= budget:
            spare = self._spare
            if spare is not None and len(lines) + len(spare.wrap(width)) <= budget:
                self.update(Content.assemble(self._text, "\n", spare))
            else:
                self.update(self._text)
            return
        if self._inline:
            room = max(0, width - self._more.cell_length)
            last = lines[budget - 1].rstrip().truncate(room)
            kept = Content("\n").join([*lines[: budget - 1], last])
            self.update(Content.assemble(kept, self._more))
            return
        kept = Content("\n").join(lines[: budget - 1])
        self.update(Content.assemble(kept, "\n", self._more))

    @property
    def cut(self) -> bool:
        """The text does not fit, and the note says so."""
        return self._fitted is not None and len(self._text.wrap(self._fitted[0])) > self._fitted[1]
