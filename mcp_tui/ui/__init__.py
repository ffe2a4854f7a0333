"""The Textual app: screens, widgets and one stylesheet (``app/app.tcss``).

Talks to ``session`` objects, never to raw MCP types; every server string is shown as literal
text. See ``docs/architecture.md``.
"""
