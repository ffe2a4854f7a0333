"""Testing MCP servers from Python: :func:`connect` and the answer helpers (``api.py``), and the
pytest plugin that collects ``*.mcptest.toml`` files and gives the ``mcp_connect`` fixture
(``plugin.py``, enabled by installing mcp-tui)."""

from mcp_tui.testbench.observed import Observed, SeenElicitation, SeenSampling
from mcp_tui.testing.api import (
    AnswerFn,
    McpServer,
    Request,
    accept,
    cancel,
    connect,
    decline,
    expect,
    reply,
)

__all__ = [
    "AnswerFn",
    "McpServer",
    "Observed",
    "Request",
    "SeenElicitation",
    "SeenSampling",
    "accept",
    "cancel",
    "connect",
    "decline",
    "expect",
    "reply",
]
