"""The multi-line editor every screen uses: it keeps its text as it is and draws it inert.

The counterpart of ``inert.InertInput`` for ``TextArea``, which draws its document's lines as
they are: the JSON editor holds a server's defaults and the arguments of the last call, the
sampling review's reply box what a model answered, the detail view a server's text.

``TextArea`` reads its lines from its document for everything it lays out (soft wrapping, the
widths behind the horizontal scroll, where a click or Up/Down lands) and for what it draws, and
its ``text`` (what is sent) from the same document's lines joined. So the document here,
:class:`InertDocument`, answers the first from :func:`mcp_tui.untrusted.inert` of its lines (one
visible character for each unsafe one: ``␛``, ``�``) and the second from the lines as they are:
a line is measured as it is drawn (Textual counts a control character as no cell at all), the
cursor and the selection, placed by character, stay on the character they are on, and ``text``
and a copied selection are exactly what was loaded or typed. Tabs stay: the editor lays them out.

A module of its own because importing ``TextArea`` costs tens of milliseconds that a session
which never opens an editor should not pay.
"""

from __future__ import annotations

from typing import overload

from textual._cells import cell_len
from textual.document._document import Document, EditResult, Location
from textual.document._document_navigator import DocumentNavigator
from textual.document._wrapped_document import WrappedDocument
from textual.geometry import Size
from textual.strip import Strip
from textual.widgets import TextArea

from mcp_tui.ui.widgets.text.inert import inert_strip
from mcp_tui.untrusted import inert

__all__ = ["InertDocument", "InertTextArea"]


class InertDocument(Document):
    """A plain-text document whose lines are read inert and whose ``text`` is the real one."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._shown: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        shown = self._shown
        if shown is None:
            shown = self._shown = [inert(line, keep="\t") for line in self._lines]
        return shown

    def get_line(self, index: int) -> str:
        return self.lines[index]

    @overload
    def __getitem__(self, line_index: int) -> str: ...

    @overload
    def __getitem__(self, line_index: slice) -> list[str]: ...

    def __getitem__(self, line_index: int | slice) -> str | list[str]:
        return self.lines[line_index]

    def get_size(self, tab_width: int) -> Size:
        lines = self.lines
        width = max((cell_len(line.expandtabs(tab_width)) for line in lines), default=0)
        return Size(width, len(lines))

    def replace_range(self, start: Location, end: Location, text: str) -> EditResult:
        self._shown = None
        return super().replace_range(start, end, text)


class InertTextArea(TextArea):
    """A ``TextArea`` whose lines are measured and drawn inert (see the module docstring)."""

    def _set_document(self, text: str, language: str | None) -> None:
        if language:  # a syntax-aware document (never asked for here): drawn inert only
            super()._set_document(text, language)
            return
        # As ``TextArea._set_document`` for plain text, with the inert document.
        self._highlight_query = None
        document = InertDocument(text)
        self.document = document
        self.wrapped_document = WrappedDocument(document, tab_width=self.indent_width)
        self.navigator = DocumentNavigator(self.wrapped_document)
        self._build_highlight_map()
        self.move_cursor((0, 0))
        self._rewrap_and_refresh_virtual_size()

    def render_line(self, y: int) -> Strip:
        # A suggestion is drawn by ``TextArea`` as it is: each line is made inert once more.
        return inert_strip(super().render_line(y))
