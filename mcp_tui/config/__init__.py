"""The files a person writes: mcp-tui's config (TOML, or a foreign client's JSON) and answer files.

Pure Python, read before any screen exists. ``paths.py`` finds the file (``--config`` >
``$MCP_TUI_CONFIG`` > the platform's config directory) and ``located.py`` reads it only when it
exists; ``load.py`` turns it into app settings and server specs (``specs.py``), validated by the
frozen pydantic models of ``models.py`` (``extra="forbid"``); ``foreign.py`` translates Claude
Desktop / Cursor / VS Code JSON; ``text.py`` finds a key's line and ``problems.py`` words a
mistake with file, key and line. ``options.py`` is what one run of the app is given;
``answers.py`` reads and writes the answer files ``mcp-tui call`` replays. No MCP SDK, no Textual
(``tests/test_layers.py``).
"""
