"""``mcp-tui call`` and ``mcp-tui list``: one server, no screen, answers from a file or a policy.

The sibling of ``ui``: it drives the same ``session`` layer and prints to stdout/stderr instead of
drawing. ``run.py`` connects, calls and picks the exit code; ``elicit.py`` answers elicitation and
sampling requests from a script or a policy; ``output.py`` prints catalogs and results (every
server string through :mod:`mcp_tui.untrusted`). No Textual (``tests/test_layers.py``).
"""
