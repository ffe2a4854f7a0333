"""``mcp-tui ARGS`` with one probe: at its first painted frame, which ``mcp`` modules are loaded?

``python benchmarks/first_frame_modules.py OUT -- SERVER COMMAND...`` runs ``mcp_tui.cli.main.main``
for that stdio server and writes ``{"mcp_loaded": [...], "modules": N, "mcp_tui_loaded": [...]}``
to OUT when the first frame is written. ``import mcp`` must not be on the path to the first frame:
it costs several times Textual's own import.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from textual.app import App


def install(out: Path) -> None:
    original = App._display
    done = False

    def display(self: App[Any], screen: Any, renderable: Any) -> None:
        nonlocal done
        original(self, screen, renderable)
        if done or renderable is None:
            return
        done = True
        loaded = sorted(sys.modules)
        out.write_text(
            json.dumps(
                {
                    "mcp_loaded": [m for m in loaded if m == "mcp" or m.startswith("mcp.")],
                    "mcp_types_loaded": "mcp_types" in sys.modules,
                    "modules": len(loaded),
                    "mcp_tui_loaded": [m for m in loaded if m.startswith("mcp_tui")],
                }
            )
        )

    App._display = display  # type: ignore[method-assign]


def main() -> int:
    out = Path(sys.argv[1])
    rest = sys.argv[2:]
    install(out)
    from mcp_tui.cli.main import main as mcp_tui_main

    return mcp_tui_main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
