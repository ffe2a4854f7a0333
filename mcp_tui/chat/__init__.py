"""Chat with a model: the optional ``chat`` extra (``pip install 'mcp-tui-client[chat]'``).

A conversation in which a model calls the servers' tools, and every elicitation, URL consent and
sampling request those tools make opens the same screens as a call made by hand. This package is the
conversation itself (no Textual): settings, the provider, the tool catalogue the model sees, the
turn loop with its approval step, and the saved conversations. The UI is
``ui/screens/chat_screen.py``.

Nothing here is imported on the way to the first frame: the provider library (``pydantic-ai``)
costs about a second to import, so only opening the chat loads it. :func:`available` tells whether
the extra is installed without importing it.
"""

from __future__ import annotations

import importlib.util

#: What the chat needs beyond the base install, for the message shown when it is missing.
INSTALL_HINT = "pip install 'mcp-tui-client[chat]'"


def available() -> bool:
    """Whether the ``chat`` extra is installed (checked without importing it)."""
    return importlib.util.find_spec("pydantic_ai") is not None
