"""Server text for Textual widgets: control characters made visible, never parsed as markup.

Every widget that shows a string a server controls builds it here. ``Content`` is literal text in
Textual 8 (no markup, no ``@click`` actions, no links), and :func:`mcp_tui.untrusted.visible` has
already replaced ESC/CSI/OSC, C1, bidi and zero-width characters with visible escapes.
"""

from __future__ import annotations

from rich.text import Text
from textual.content import Content

from mcp_tui.untrusted import DEFAULT_LIMIT, one_line, visible


def literal(text: object, *, limit: int | None = DEFAULT_LIMIT, style: str = "") -> Content:
    """Multi-line server text as literal ``Content`` (newlines kept, length bounded)."""
    content = Content(visible(text, limit=limit))
    return content.stylize(style) if style else content


def literal_line(text: object, *, limit: int | None = 200, style: str = "") -> Content:
    """One line of server text (titles, labels, option names) as literal ``Content``."""
    content = Content(one_line(text, limit=limit))
    return content.stylize(style) if style else content


def literal_text(text: object, *, limit: int | None = DEFAULT_LIMIT, style: str = "") -> Text:
    """Multi-line server text as a Rich ``Text`` for widgets that take Rich renderables.

    ``Tree`` labels and ``RichLog.write`` want Rich ``Text``; the ``Text`` constructor never parses
    markup, and :func:`visible` has already made control characters visible.
    """
    return Text(visible(text, limit=limit), style=style, end="")


def literal_text_line(text: object, *, limit: int | None = 200, style: str = "") -> Text:
    """One line of server text as a Rich ``Text`` (tree labels, log lines)."""
    return Text(one_line(text, limit=limit), style=style, end="")
