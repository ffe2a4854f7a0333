"""``mcp-tui test`` against its floor: the same 50 calls made by a bare SDK script (issue 26's goal:
<= 1.3x), and ``-j 2`` against ``-j 1`` (goal: faster).

    .venv/bin/python benchmarks/mcptest_vs_sdk.py             # 5 runs of each, alternating
    .venv/bin/python benchmarks/mcptest_vs_sdk.py --runs 3 --cases 50

The cases are calls to the bundled demo, 2025-11-25: a confirmation answered ``accept`` (one
elicitation each), a structured search and a project lookup declined, in turn. ``mcp-tui test``
runs them from a generated test file (one server process, every expectation checked); the floor
is ``floor`` below, which starts the demo with the SDK's ``Client``, makes the same calls and
answers the same way, checking nothing. Both are timed as whole processes (interpreter start,
imports, server start, calls, shutdown). For ``-j`` the cases are split over two files (a server
each). Runs alternate after one warm-up of each, so a machine that slows down hits all alike; the
verdict is the ratio of the medians.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MCP_TUI = [sys.executable, "-m", "mcp_tui"]

#: (tool, arguments as TOML, the answer as TOML, the expectation as TOML), used in turn.
CALLS = (
    ("confirm_action", "{}", '[{ action = "accept" }]', '{ text_contains = "Confirmed" }'),
    ("search_issues", '{ query = "bug" }', "[]", '{ pointers = { "/total" = 3 } }'),
    (
        "delete_project",
        '{ name = "website" }',
        '[{ action = "decline" }]',
        '{ text_contains = "Kept website" }',
    ),
)


def cases_file(cases: range) -> str:
    lines = ['server = "demo"', 'eras = ["2025-11-25"]', ""]
    for i in cases:
        tool, args, answers, expect = CALLS[i % len(CALLS)]
        lines += [
            "[[case]]",
            f'name = "call {i}"',
            f'tool = "{tool}"',
            f"arguments = {args}",
            f"answers = {answers}",
            f"expect = {expect}",
            "",
        ]
    return "\n".join(lines)


FLOOR = """
import sys
import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

CALLS = [("confirm_action", {}), ("search_issues", {"query": "bug"}),
         ("delete_project", {"name": "website"})]

async def answer(ctx, request):
    if "confirm" in request.message.lower() and "delete" not in request.message.lower():
        return types.ElicitResult(action="accept", content={})
    return types.ElicitResult(action="decline")

async def main(count):
    from mcp_tui.demo.server import demo_stdio_command, demo_stdio_env
    argv = demo_stdio_command()
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=demo_stdio_env())
    async with Client(params, mode="legacy", elicitation_callback=answer) as client:
        for i in range(count):
            tool, args = CALLS[i % len(CALLS)]
            await client.call_tool(tool, args)

anyio.run(main, int(sys.argv[1]))
"""


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, timeout=600, check=False, cwd=ROOT)
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(
            f"{' '.join(argv[:4])} failed ({done.returncode}): {done.stdout.decode()[-800:]}"
            f"{done.stderr.decode()[-800:]}"
        )
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cases", type=int, default=50)
    ns = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mcp-tui-bench-") as tmp:
        folder = Path(tmp)
        one = folder / "one" / "all.mcptest.toml"
        one.parent.mkdir()
        one.write_text(cases_file(range(ns.cases)), encoding="utf-8")
        half = ns.cases // 2
        two = folder / "two"
        two.mkdir()
        (two / "a.mcptest.toml").write_text(cases_file(range(half)), encoding="utf-8")
        (two / "b.mcptest.toml").write_text(cases_file(range(half, ns.cases)), encoding="utf-8")
        floor_script = folder / "floor.py"
        floor_script.write_text(FLOOR, encoding="utf-8")
        commands = {
            "SDK floor": [sys.executable, str(floor_script), str(ns.cases)],
            "mcp-tui test": [*MCP_TUI, "test", "-q", str(one)],
            "test -j 1 (2 files)": [*MCP_TUI, "test", "-q", "-j", "1", str(two)],
            "test -j 2 (2 files)": [*MCP_TUI, "test", "-q", "-j", "2", str(two)],
        }
        for argv in commands.values():
            timed(argv)  # warm-up: disk caches, bytecode
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(ns.runs):
            for name, argv in commands.items():
                times[name].append(timed(argv))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        spread = f"min {min(values):.2f}, max {max(values):.2f}"
        print(f"{name:22} median {medians[name]:.2f} s  ({spread})")
    ratio = medians["mcp-tui test"] / medians["SDK floor"]
    print(
        f"mcp-tui test / SDK floor: {ratio:.2f}x (goal <= 1.3x) {'ok' if ratio <= 1.3 else 'OVER'}"
    )
    speedup = medians["test -j 1 (2 files)"] / medians["test -j 2 (2 files)"]
    print(f"-j 2 vs -j 1: {speedup:.2f}x faster (goal > 1) {'ok' if speedup > 1 else 'NOT FASTER'}")


if __name__ == "__main__":
    main()
