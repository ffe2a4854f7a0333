"""Where the first frame's time goes, phase by phase, for mcp-tui and the bare Textual floor.

``python benchmarks/frame_phases.py [RUNS]`` runs each program RUNS times (default 10),
alternating, in a pty with the same environment as ``run.py``, and prints the median time from
process start to each phase: ``textual.app`` imported, ``mcp_tui.cli.main`` imported, ``build_app``,
``App.run``, the first screen's compose started and done, and the first frame written. The
profile behind issue 9's closing note; nothing in ``tests`` runs it.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from measure import PYTHON, bench_env, in_pty  # noqa: E402

CHILD = r"""
import json, os, sys, time
T = {"start": time.perf_counter()}
from textual.app import App
import textual.screen
T["textual.app imported"] = time.perf_counter()
out, floor = sys.argv[1], sys.argv[2] == "floor"

run = App.run
def timed_run(self, *args, **kwargs):
    T["App.run"] = time.perf_counter()
    return run(self, *args, **kwargs)
App.run = timed_run

compose = textual.screen.Screen._compose
async def timed_compose(self):
    T.setdefault("screen compose", time.perf_counter())
    result = await compose(self)
    T.setdefault("screen composed", time.perf_counter())
    return result
textual.screen.Screen._compose = timed_compose

display = App._display
def timed_display(self, screen, renderable):
    display(self, screen, renderable)
    if renderable is None:
        return
    T["first frame written"] = time.perf_counter()
    start = T.pop("start")
    with open(out, "w") as file:
        json.dump({name: (t - start) * 1000 for name, t in T.items()}, file)
    os._exit(0)
App._display = timed_display

if floor:
    import runpy
    sys.argv = ["floor_textual.py"]
    runpy.run_path(os.path.join(os.environ["BENCH_DIR"], "floor_textual.py"), run_name="__main__")
else:
    import mcp_tui.cli.main as cli
    T["mcp_tui.cli.main imported"] = time.perf_counter()
    build = cli.build_app
    def timed_build(*args, **kwargs):
        T["build_app start"] = time.perf_counter()
        app = build(*args, **kwargs)
        T["build_app done"] = time.perf_counter()
        return app
    cli.build_app = timed_build
    server = os.path.join(os.environ["BENCH_DIR"], "bench_server.py")
    cli.main(["--", sys.executable, server])
"""


def one(which: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "phases.json"
        env = bench_env({"BENCH_DIR": str(HERE)})
        in_pty([PYTHON, "-c", CHILD, str(out), which], env=env, timeout=60)
        phases: dict[str, float] = json.loads(out.read_text())
        return phases


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    seen: dict[str, dict[str, list[float]]] = {"floor": defaultdict(list), "app": defaultdict(list)}
    for _ in range(runs):
        for which in ("floor", "app"):
            for name, ms in one(which).items():
                seen[which][name].append(ms)
    for which, phases in seen.items():
        print(f"{'bare Textual app' if which == 'floor' else 'mcp-tui'} (median of {runs}, ms)")
        ordered = sorted(phases.items(), key=lambda item: statistics.median(item[1]))
        for name, values in ordered:
            print(f"  {statistics.median(values):7.1f}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
