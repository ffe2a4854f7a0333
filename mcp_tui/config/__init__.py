"""The files a person writes: mcp-tui's config (TOML, or a foreign client's JSON) and answer files.

Pure Python, read before any screen exists: ``paths.py`` finds the file (``--config`` >
``$MCP_TUI_CONFIG`` > the platform's config directory), ``located.py`` reads it only when it exists,
``load.py`` turns it into server specs and app settings, ``models.py`` is its schema (frozen
pydantic models, ``extra="forbid"``), ``foreign.py`` translates Claude Desktop / Cursor / VS Code
JSON, ``text.py`` names a mistake's key and line. ``options.py`` is what one run of the app is
given; ``answers.py`` reads and writes the answer files ``mcp-tui call`` replays. No MCP SDK, no
Textual (``tests/test_layers.py``).
"""
