"""What one mcp-tui process sets up around itself, below every layer.

``startup.py`` and ``collector.py`` hold the garbage collector off while start-up's imports and a
big form's widgets are built (measured in ``benchmarks/``); ``logs.py`` routes library logging (the
SDK's warnings) to a file under the TUI and to one escaped line per record on stderr headless, so
nothing writes to the terminal behind Textual's back; ``watch.py`` watches files for ``--watch``.
No MCP SDK, no Textual.
"""
