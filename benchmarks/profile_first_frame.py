"""Profile mcp-tui (or the bare Textual floor) from process start to its first painted frame.

``python benchmarks/profile_first_frame.py OUT.txt [--floor]`` (``PROFILE_ALL=1``: every frame,
Textual's too) runs, in a pty, a child that starts
pyinstrument before anything else is imported and stops it at the first ``App._display`` with a
frame; the child writes the text report to OUT.txt and exits. Used for the closing-note evidence
of issue 9; nothing in ``tests`` runs it.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

CHILD = r"""
import sys, os
from pyinstrument import Profiler
profiler = Profiler(interval=0.0005)
profiler.start()
from textual.app import App
out, floor = sys.argv[1], sys.argv[2] == "floor"
original = App._display
def display(self, screen, renderable):
    original(self, screen, renderable)
    if renderable is None:
        return
    profiler.stop()
    with open(out, "w") as f:
        show_all = os.environ.get("PROFILE_ALL") == "1"
        f.write(profiler.output_text(unicode=True, color=False, show_all=show_all))
    os._exit(0)
App._display = display
if floor:
    sys.argv = ["floor_textual.py"]
    sys.path.insert(0, sys.argv[0])
    import runpy
    runpy.run_path(os.path.join(os.environ["BENCH_DIR"], "floor_textual.py"), run_name="__main__")
else:
    from mcp_tui.cli.main import main
    main(["--", sys.executable, os.path.join(os.environ["BENCH_DIR"], "bench_server.py")])
"""


def main() -> int:
    from measure import PYTHON, bench_env, in_pty  # type: ignore[import-not-found]

    out = Path(sys.argv[1]).resolve()
    which = "floor" if "--floor" in sys.argv else "app"
    in_pty(
        [PYTHON, "-c", CHILD, str(out), which], env=bench_env({"BENCH_DIR": str(HERE)}), timeout=60
    )
    print(out.read_text() if out.exists() else "no profile written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
