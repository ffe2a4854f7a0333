"""The multi-line editor every screen uses: it keeps its text as it is and draws it inert.

The counterpart of ``inert.InertInput`` for ``TextArea``, which draws its document's lines as
they are: the JSON editor holds a server's defaults and the arguments of the last call, the
sampling review's reply box what a model answered, the detail view a server's text. Each line
is drawn through :func:`mcp_tui.untrusted.inert` (one visible character for each unsafe one:
``␛``, ``�``), so the cursor and the selection, which Textual places by character, stay on the
character they are on, and ``text`` is exactly what was loaded or typed. Tabs stay: the editor
lays them out itself.

Textual measures a line (soft wrapping, the horizontal scroll, a click) on the real text, where
a control character takes no cell; here it is drawn one cell wide, so a line that holds some may
be cut that many cells early. Such lines are rare in an editor: the JSON editor writes unsafe
characters as JSON escapes (``"\\u001b"``).

A module of its own because importing ``TextArea`` costs tens of milliseconds that a session
which never opens an editor should not pay.
"""

from __future__ import annotations

from rich.text import Text
from textual.strip import Strip
from textual.widgets import TextArea

from mcp_tui.ui.widgets.inert import inert_strip
from mcp_tui.untrusted import inert

__all__ = ["InertTextArea"]


class InertTextArea(TextArea):
    """A ``TextArea`` whose lines are drawn inert (see the module docstring)."""

    def get_line(self, line_index: int) -> Text:
        # From the document, not ``super().get_line``: Rich's ``Text`` drops BEL, BS, VT, FF and
        # CR, and every character after one would be styled one column off (the cursor too).
        return Text(inert(self.document.get_line(line_index), keep="\t"), end="", no_wrap=True)

    def render_line(self, y: int) -> Strip:
        # A suggestion is drawn by ``TextArea`` as it is: each line is made inert once more.
        return inert_strip(super().render_line(y))
