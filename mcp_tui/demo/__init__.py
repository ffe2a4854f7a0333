"""The demo MCP server bundled with mcp-tui.

`python -m mcp_tui.demo` serves it over stdio (for any MCP client); `--http` serves Streamable
HTTP on 127.0.0.1. `mcp_tui.demo.server.build_server()` builds it in-process for tests. Nothing
here is imported by the TUI itself except `mcp_tui.demo.server.demo_stdio_command()`.
"""
