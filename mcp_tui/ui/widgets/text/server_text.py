"""Text a server wrote, in a region only mcp-tui can draw: the server's words never pass as ours.

A server's message is plain text, and plain text can imitate anything drawn with characters: a
line "Server github asks for input ✓ Verified by mcp-tui", a boxed ``[ Approve ]``, a key footer.
What it cannot produce is colour or a border: server text reaches the screen only as literal
``Content`` (``ui/literal``), never markup or escapes. So every block a server wrote — an
elicitation's message, a field's description, a URL request's message, a sampling request's
system prompt and messages, a tool's description, a tool's result in the transcript — is shown
in a :class:`ServerText`: a coloured bar down its left side and, when it has a ``label``, a rule
along its top carrying a filled tag in the client's colours ("from server evil"). Whatever the
server draws stays inside that bar; mcp-tui's own words (the header naming the server, the
buttons, the footer, the rules of a field) are never put inside one.

The region is a :class:`FittedText`, so it can also be cut to its ``max-height`` with a note
saying where the rest is (the info panel, a tool's description above its form); with
``more=None`` it shows all its text.
"""

from __future__ import annotations

from textual.content import Content

from mcp_tui.ui.literal import literal, literal_line
from mcp_tui.ui.widgets.text.fitted_text import FittedText

__all__ = ["ServerText", "from_server"]


def from_server(server: str, what: str = "") -> Content:
    """The tag of a region: ``from server evil`` (``what`` first: ``message 1 (user) from ...``;
    it may hold a server's word, such as a role, so it is shown literally too).

    ``server`` is mcp-tui's own name for the connection (the config's or the command line's);
    still shown literally, so a name with brackets is never read as markup.
    """
    head = literal_line(f" {what} from server ", limit=80) if what else Content(" from server ")
    return head + literal_line(server, limit=60) + Content(" ")


class ServerText(FittedText):
    """A block of server text inside the server's region (see the module's docstring).

    ``text`` is the server's raw string (made literal here) or ``Content`` already built from
    it with ``ui/literal``; ``label`` (usually :func:`from_server`) titles the region.
    """

    DEFAULT_CSS = """
    ServerText {
        height: auto;
        border-left: outer $secondary-lighten-2;
        padding: 0 0 0 1;
    }
    ServerText.-labelled {
        border-top: solid $secondary-lighten-2;
        border-title-align: left;
        border-title-color: $text;
        border-title-background: $secondary;
    }
    """

    def __init__(
        self,
        text: str | Content,
        *,
        label: Content | None = None,
        more: Content | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        content = text if isinstance(text, Content) else literal(text)
        super().__init__(content, more, id=id, classes=classes)
        self.add_class("server-text")
        if label is not None:
            self.label = label

    @property
    def label(self) -> Content | None:
        """The region's tag, or ``None`` when it is only the bar."""
        return self._border_title

    @label.setter
    def label(self, label: Content | None) -> None:
        # ``border_title`` parses a ``str`` as markup; a ``Content`` is taken as it is.
        self.border_title = label
        self.set_class(label is not None, "-labelled")
