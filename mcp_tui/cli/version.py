"""``mcp-tui --version``: what a bug report needs to name the build in one paste.

The distribution (``mcp-tui-client`` on PyPI, not the command's name), mcp-tui's version, the
Python, the versions of the MCP SDK and of Textual actually installed (read from their metadata,
without importing them: ``--version`` stays instant), and the protocol eras mcp-tui speaks.
"""

from __future__ import annotations

import platform
from importlib import metadata

from mcp_tui import DISTRIBUTION, __version__

#: The protocol revisions mcp-tui speaks, each with how a connection reaches it. These are the
#: three that define elicitation; the SDK also negotiates 2024-11-05 and 2025-03-26 with older
#: servers (no elicitation there). tests/cli/test_version.py holds each against the installed
#: SDK's own lists.
PROTOCOL_ERAS: tuple[tuple[str, str], ...] = (
    ("2025-06-18", "initialize"),
    ("2025-11-25", "initialize"),
    ("2026-07-28", "server/discover"),
)


def installed_version(distribution: str) -> str:
    """The installed version of ``distribution``, or ``not installed``."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def version_text() -> str:
    """The lines ``mcp-tui --version`` prints."""
    installed = installed_version(DISTRIBUTION)
    # Run from a checkout that was never installed, or installed at another version: say so.
    if installed == "not installed":
        source = f"{DISTRIBUTION}, not installed: run from its source"
    elif installed != __version__:
        source = f"{DISTRIBUTION} {installed} installed, this source is {__version__}"
    else:
        source = DISTRIBUTION
    eras = ", ".join(f"{era} ({how})" for era, how in PROTOCOL_ERAS)
    return "\n".join(
        [
            f"mcp-tui {__version__} ({source})",
            f"python {platform.python_version()} ({platform.python_implementation()})",
            f"mcp {installed_version('mcp')} (the MCP Python SDK)",
            f"textual {installed_version('textual')}",
            f"protocol eras: {eras}",
        ]
    )
