"""The roof of the UI: the app, and what only the app uses.

:class:`McpTuiApp` (``app.py``) owns the server connections and feeds their events to the session
screen; beside it are the parts it holds (the connections, what the user asks of one server, the
URL waits, the chat's model, ``--call``, the ways out), the command palette (``commands.py``,
``palette.py``), the handlers that answer a server's elicitation and sampling requests on screen,
the help screen, which walks every UI module for its keys, and the config's ``[keys]`` applied
(``keymap.py``). Nothing under :mod:`mcp_tui.ui` imports this package:
the screens name the app by :class:`~mcp_tui.ui.app_interface.McpApp`.

``from mcp_tui.ui.app import McpTuiApp`` is how the command line (and the tests) build the app.
"""

from mcp_tui.ui.app.app import McpTuiApp

__all__ = ["McpTuiApp"]
