"""The tour's note: "Tour · step 3/10 — Validation", what the spec asks, the wire, what to do.

Docked at the bottom of the screen, one line above its key footer (the footer is docked too, and
docked widgets share the edge; the margin keeps them apart). On the session screen the whole
note; over a form or a URL consent (``-compact``) only the heading and what to do, so the form
keeps its room. Every text here is the tour's own (``script.py``): nothing from a server.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.widgets import Static


@dataclass(frozen=True)
class NoteText:
    """What the note says now: the heading, its state on the right, and the lines below it."""

    heading: str
    state: str
    spec: str = ""
    wire: str = ""
    do: str = ""


class TourNote(Static):
    """One note per screen; the guide keeps every live one up to date."""

    DEFAULT_CSS = """
    TourNote {
        dock: bottom;
        margin-bottom: 1;
        height: auto;
        max-height: 10;
        width: 1fr;
        padding: 0 1;
        background: $boost;
        border-top: hkey $accent;
    }
    TourNote.-compact { max-height: 5; }
    """

    def __init__(self, text: NoteText, *, compact: bool = False, wire: bool = True) -> None:
        super().__init__(classes="-compact" if compact else "", markup=False)
        self.compact = compact
        #: On a screen with a wire panel (F6 is worth naming).
        self.wire = wire
        self.text = text
        self.update(self._content())

    def show(self, text: NoteText) -> None:
        if text != self.text:
            self.text = text
            self.update(self._content())

    def _content(self) -> Content:
        text = self.text
        heading = Content.assemble(
            (text.heading, "bold"), ("  ·  ", "dim"), (text.state, "italic $accent")
        )
        lines = [heading]
        rows = (
            [("Do", text.do)]
            if self.compact
            else [
                ("Spec", text.spec),
                ("Wire", text.wire),
                ("Do", text.do),
            ]
        )
        for label, value in rows:
            if value:
                lines.append(Content.assemble((f"{label}: ", "bold $text-accent"), value))
        return Content("\n").join(lines)

    def plain(self) -> str:
        """The note as text (tests)."""
        return self._content().plain
