"""The name a server is shown by, from the key an event or a request carries.

Events, requests and the transcript's records carry a server's key (``ServerEntry.name``, stable
for the run); a generic-named one is shown by the name it announced (``session/naming.py``). The
functions that turn them into text (``render.py``, the request headers, the log and traffic rows)
are called from many screens with only the key at hand, so they ask the running app, the one owner
of the entries, through Textual's ``active_app`` (as every widget reaches ``self.app``). Outside an
app (a unit test of a render function) the key is the name.

This is the one function for a server's name wherever a person reads it: headings, notices, the
running panel, the Ctrl+C picker, dialogs, the default test file name and the ``--save-answers``
file. The key stays where files and lookups need it (the stderr log, ``NodeRef``, the history).
"""

from __future__ import annotations

from textual._context import active_app

from mcp_tui.ui.server_state import ServerEntry


def server_claim(server: str) -> str | None:
    """``server``'s ``ServerEntry.claim`` in the running app ("calls itself '…'"), else ``None``."""
    entry = _entry(server, None)
    return entry.claim if entry is not None else None


def shown_name(server: str, app: object | None = None) -> str:
    """``server``'s ``ServerEntry.shown_name`` in ``app`` (default: the running app), else
    ``server`` itself."""
    entry = _entry(server, app)
    return entry.shown_name if entry is not None else server


def _entry(server: str, app: object | None) -> ServerEntry | None:
    if app is None:
        try:
            app = active_app.get()
        except LookupError:
            return None
    entries = getattr(app, "entries", None)
    entry = entries.get(server) if isinstance(entries, dict) else None
    return entry if isinstance(entry, ServerEntry) else None
