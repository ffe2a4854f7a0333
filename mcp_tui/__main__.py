"""``python -m mcp_tui`` behaves exactly as the ``mcp-tui`` console script."""

from mcp_tui.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
