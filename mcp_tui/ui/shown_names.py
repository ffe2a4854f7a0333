"""The name a server is shown by, from the key an event or a request carries.

Events, requests and the transcript's records carry a server's key (``ServerEntry.name``, stable
for the run); a generic-named one is shown by the name it announced (``session/naming.py``). The
functions that turn them into text (``render.py``, the request headers, the log and traffic rows)
are called from many screens with only the key at hand, so they ask the running app, the one owner
of the entries, through Textual's ``active_app`` (as every widget reaches ``self.app``). Outside an
app (a unit test of a render function) the key is the name.
"""

from __future__ import annotations

from textual._context import active_app

from mcp_tui.ui.server_state import ServerEntry


def shown_name(server: str) -> str:
    """``server``'s ``ServerEntry.shown_name`` in the running app, else ``server`` itself."""
    try:
        app = active_app.get()
    except LookupError:
        return server
    entries = getattr(app, "entries", None)
    entry = entries.get(server) if isinstance(entries, dict) else None
    return entry.shown_name if isinstance(entry, ServerEntry) else server
