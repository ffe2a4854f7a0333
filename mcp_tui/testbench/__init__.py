"""``mcp-tui test``'s pure half: the test file (models, loader, JSON Schema, writer), the choice
of cases (``-k``) and the comparison of what a call did with what a case expects.

No Textual and no MCP SDK: the running half is ``mcp_tui.headless.testrun``; the TUI's "Save as a
test" writes through ``writer.py``.
"""
