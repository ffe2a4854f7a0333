"""``mcp-tui check`` against ``mcp-tui list`` on the same server (issue 30's goal: <= 1.5x).

    .venv/bin/python benchmarks/check_vs_list.py            # server-everything, 7 runs each
    .venv/bin/python benchmarks/check_vs_list.py --runs 3 --server bench   # bench_server.py

``check`` connects once per era (at the same time when it makes no call) where ``list`` connects
once, and runs every check over the listings. Runs alternate (one warm-up of each first), so a
machine that slows down hits both alike; the verdict is the ratio of the medians. Needs the npm
peers for server-everything (``cd tests/interop && npm ci``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MCP_TUI = [sys.executable, "-m", "mcp_tui"]
MODULES = ROOT / "tests" / "interop" / "node_modules"


def server(name: str) -> list[str]:
    if name == "bench":
        return [sys.executable, str(ROOT / "benchmarks" / "bench_server.py")]
    index = MODULES / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    if not index.is_file():
        sys.exit("server-everything is not installed: cd tests/interop && npm ci")
    return [str(MODULES / ".bin" / "node"), str(index), "stdio"]


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, timeout=120, check=False)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):  # check exits 1 when it finds errors
        sys.exit(f"{argv[3]} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--server", choices=("everything", "bench"), default="everything")
    ns = parser.parse_args()
    target = ["--quiet", "--", *server(ns.server)]
    listing = [*MCP_TUI, "list", *target]
    checking = [*MCP_TUI, "check", *target]
    timed(listing), timed(checking)  # warm-up: disk caches, node's compile cache
    lists, checks = [], []
    for _ in range(ns.runs):
        lists.append(timed(listing))
        checks.append(timed(checking))
    ratio = statistics.median(checks) / statistics.median(lists)
    for name, values in (("list", lists), ("check", checks)):
        spread = f"min {min(values):.2f}, max {max(values):.2f}"
        print(f"{name:6} median {statistics.median(values):.2f} s  ({spread})")
    print(f"check / list = {ratio:.2f}  (goal <= 1.5: {'met' if ratio <= 1.5 else 'NOT met'})")


if __name__ == "__main__":
    main()
