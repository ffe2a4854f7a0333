"""``mcp-tui test``'s pure half: the test file (models, loader, JSON Schema, writer), the choice
of cases (``-k``), the comparison of what a call did with what a case expects, the run's plain
records (``plan.py``, ``result.py``) and its reports (``report.py``, ``junitxml.py``,
``json_report.py``, the ``--update`` writer ``update.py``).

No Textual and no MCP SDK: the running half is ``mcp_tui.headless.testrun``; the TUI's "Save as a
test" writes through ``writer.py``.
"""
