"""A session written down to share: a self-contained HTML page and Markdown, for a bug report or
a blog post ("Export session…" in the palette).

Pure Python, no Textual and no SDK: the UI gathers what the session holds into a
:class:`~mcp_tui.export.model.SharedSession` (the transcript, every call with the requests asked
inside it and the answers given, the traffic), masking what was typed into fields that looked
secret; :func:`to_html` and :func:`to_markdown` only write text. Every server string is escaped
for its format there, so an export is as inert as the screen it came from.
"""

from __future__ import annotations

from mcp_tui.export.html import to_html
from mcp_tui.export.markdown import to_markdown
from mcp_tui.export.model import (
    MASK,
    SharedCall,
    SharedExchange,
    SharedLine,
    SharedMessage,
    SharedSession,
    masked,
)

__all__ = [
    "MASK",
    "SharedCall",
    "SharedExchange",
    "SharedLine",
    "SharedMessage",
    "SharedSession",
    "masked",
    "to_html",
    "to_markdown",
]
