"""Talking to servers, on the official MCP SDK: connections, protocol eras and the client features.

Imports ``mcp``, never Textual. The UI and the headless runner implement the typed seams declared
here (elicitation, sampling, URL consent); see ``docs/architecture.md``.
"""
