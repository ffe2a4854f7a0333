"""mcp-tui: a terminal client for the Model Context Protocol built around elicitation.

Layers, with imports pointing one way: ``config``/``schema``/``errors``/``untrusted`` (pure) ->
``session`` (MCP, no Textual) -> ``ui`` (Textual, no raw MCP) -> ``cli``.
"""

__version__ = "0.1.0"
