"""Finding the processes a test started, by a marker in their environment (Linux ``/proc``).

Tests that start real servers put ``MCP_TUI_TEST_MARKER=<uuid>`` in the server's environment, then
check that no process with that marker is left once the app has quit.
"""

from __future__ import annotations

from pathlib import Path


def processes_with(marker: str) -> list[int]:
    """PIDs of live (not zombie) processes whose environment carries ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            status = (entry / "status").read_text()
        except OSError:
            continue
        if marker.encode() in environ and "State:\tZ" not in status:
            found.append(int(entry.name))
    return found
