"""mcp-tui: a terminal client for the Model Context Protocol built around elicitation.

Layers, with imports pointing one way: ``config``/``schema``/``errors``/``untrusted`` (pure) ->
``session`` (MCP, no Textual) -> ``ui`` (Textual, no raw MCP) -> ``cli``.
"""

#: The one place the version is written: the build reads it (``[tool.hatch.version]``), servers see
#: it in ``clientInfo``, ``mcp-tui --version`` prints it.
__version__ = "0.1.0"

#: The name on PyPI, which is not the command's: ``mcp-tui`` is refused there (``mcptui`` exists and
#: PyPI compares names without separators). ``pipx install mcp-tui-client`` gives ``mcp-tui``.
DISTRIBUTION = "mcp-tui-client"
