"""mcp-tui's performance goals (issue 9), each measured against a floor in the same run.

    .venv/bin/python benchmarks/run.py            # everything, 5 runs each (~6-10 min)
    .venv/bin/python benchmarks/run.py --quick    # 2 runs each, fewer keys (~3 min)
    .venv/bin/python benchmarks/run.py --only frame,forms --json results.json
    .venv/bin/python benchmarks/run.py --smoke    # each measurement once, small: does it run?

Prints one table: goal, floor, value, ratio, target, met. Times are medians of several runs with
min-max; floor and mcp-tui runs alternate so drift on a shared machine hits both alike. See
benchmarks/README.md for what each row measures and how. ``--smoke`` runs every measurement once
with small sizes and no warm-up, to see that each still runs (``tests/test_benchmarks_smoke.py``);
its numbers mean nothing.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import anchors
import measure
from measure import PANELS_MARKER, TOOL_MARKER, mcp_tui_argv, server_argv

GROUPS = ("frame", "launch", "forms", "keys", "headless", "memory", "anchors")
FLOOR_TEXTUAL = [measure.PYTHON, str(measure.HERE / "floor_textual.py")]
FLOOR_SDK_LIST = [measure.PYTHON, str(measure.HERE / "floor_sdk.py"), "list"]


@dataclass
class Row:
    goal: str
    value: list[float]
    floor: list[float] = field(default_factory=list)
    #: ``ratio``: value/floor must be <= target; ``max``: the value itself must be <= target;
    #: ``info``: shown with its ratio, no goal (context for another row).
    kind: str = "ratio"
    target: float = 1.0
    unit: str = "ms"
    note: str = ""


def spread(values: list[float], unit: str) -> str:
    if not values:
        return "—"
    scale = 1000.0 if unit == "ms" else 1.0
    med, lo, hi = (statistics.median(values) * scale, min(values) * scale, max(values) * scale)
    digits = 0 if unit == "ms" and med >= 10 else (2 if unit == "ms" and med < 1 else 1)
    if len(values) == 1:
        return f"{med:.{digits}f} {unit}"
    return f"{med:.{digits}f} {unit} ({lo:.{digits}f}–{hi:.{digits}f})"


def verdict(row: Row) -> tuple[str, str, str]:
    """(ratio, target, met) columns."""
    if not row.value:
        return "—", "", "skipped"
    value = statistics.median(row.value)
    if row.kind == "max":
        scale = 1000.0 if row.unit == "ms" else 1.0
        ratio = f"{value / statistics.median(row.floor):.2f}x" if row.floor else "—"
        met = value * scale <= row.target
        return ratio, f"≤ {row.target:g} {row.unit}", "yes" if met else "NO"
    ratio_value = value / statistics.median(row.floor)
    if row.kind == "info":
        return f"{ratio_value:.2f}x", "—", "—"
    met = ratio_value <= row.target
    target = f"≤ {row.target:g}x" if row.target >= 1 else f"< {row.target:g}x"
    return f"{ratio_value:.2f}x", target, "yes" if met else "NO"


def print_table(rows: list[Row]) -> None:
    header = ("goal", "floor", "mcp-tui", "ratio", "target", "met")
    lines = [header]
    for row in rows:
        ratio, target, met = verdict(row)
        lines.append(
            (row.goal, spread(row.floor, row.unit), spread(row.value, row.unit), ratio, target, met)
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for n, line in enumerate(lines):
        print("| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(line)) + " |")
        if n == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        if row.note:
            print(f"- {row.goal}: {row.note}")


#: ``--smoke``: each measurement once, small, without warm-up (set by ``main``).
SMOKE = False


def alternate(runs: int, *makers: Callable[[], Any]) -> list[list[Any]]:
    """Call each maker once per run, in turn; one warm-up round first (not counted)."""
    for make in makers if not SMOKE else ():
        make()
    results: list[list[Any]] = [[] for _ in makers]
    for _ in range(runs):
        for i, make in enumerate(makers):
            results[i].append(make())
    return results


#: The frame rows take ~1 s a pair, and this machine's speed swings by 1.5x within a minute:
#: they get this many times the other groups' runs.
FRAME_RUNS_FACTOR = 3


def paired(app: list[float], floor: list[float]) -> str:
    """The median of each alternating pair's own ratio (the two ran back to back, so a swing in
    the machine's speed between pairs cancels out), as a note beside the ratio of medians."""
    ratios = sorted(a / f for a, f in zip(app, floor, strict=True))
    median = statistics.median(ratios)
    return f"pair by pair: median {median:.2f}x ({ratios[0]:.2f}–{ratios[-1]:.2f}x)"


def group_frame(runs: int, rows: list[Row]) -> None:
    tui = mcp_tui_argv("--", *server_argv())
    floor, app = alternate(
        runs * (1 if SMOKE else FRAME_RUNS_FACTOR),
        lambda: measure.first_frame(FLOOR_TEXTUAL, b"bench floor ready"),
        lambda: measure.first_frame(tui, b"connecting"),
    )
    for goal, key in (
        ("First frame (servers connecting)", "frame"),
        ("First frame answering a key (Ctrl+P palette)", "keys"),
    ):
        values, floors = [a[key] for a in app], [f[key] for f in floor]
        rows.append(Row(goal, values, floors, target=1.2, note=paired(values, floors)))
    complete = [measure.until_marker(tui, PANELS_MARKER, settle=True) for _ in range(runs)]
    rows.append(
        Row(
            "Session screen complete (every panel painted)",
            complete,
            [f["frame"] for f in floor],
            kind="info",
            note="the transcript's title painted (the panels come after the first frame, "
            "at the first pause in the keys)",
        )
    )
    modules = measure.first_frame_modules()
    loaded = modules["mcp_loaded"]
    rows.append(
        Row(
            "`mcp` modules loaded at first frame",
            [float(len(loaded))],
            kind="max",
            target=0,
            unit="",
            note=", ".join(loaded[:5]) if loaded else "",
        )
    )


def group_launch(runs: int, rows: list[Row]) -> None:
    tui = mcp_tui_argv("--", *server_argv())
    floor, app = alternate(
        runs,
        lambda: measure.until_marker(FLOOR_SDK_LIST, TOOL_MARKER),
        lambda: measure.until_marker(tui, TOOL_MARKER),
    )
    rows.append(Row("Launch → tools listed on screen", app, floor, target=1.3))


def smoke_flag() -> list[str]:
    return ["--smoke"] if SMOKE else []


def group_forms(runs: int, rows: list[Row]) -> None:
    result = measure.harness("forms", "--runs", str(runs), *smoke_flag())
    one = result["1"]
    cold = spread(result["cold_1"], "ms")
    rows.append(
        Row(
            "Form, 1 field: arrival → painted, focused",
            one,
            kind="max",
            target=50,
            note=f"first form of the session: {cold}",
        )
    )
    rows.append(Row("Form, 20 fields (floor: 1 field)", result["20"], one, target=1.5))
    rows.append(Row("Form, 200 fields (floor: 1 field)", result["200"], one, target=4))
    rows.append(
        Row("Select, 10,000 options: painted (floor: 1 field)", result["select"], one, target=4)
    )
    rows.append(
        Row(
            "Select, 10,000 options: key → filtered (floor: 1 field)",
            result["select_filter"],
            one,
            target=4,
        )
    )
    rows.append(
        Row(
            "Select, arming on: key typed at its first frame → filtered (floor: 1 field)",
            result["select_filter_armed"],
            one,
            target=4,
            note="a typed key reaches a form from its first frame; only accepting keys wait",
        )
    )


def group_keys(runs: int, keys: int, rows: list[Row]) -> None:
    floor: list[float] = []
    flood: list[float] = []
    form: list[float] = []
    both: list[float] = []
    shown: list[float] = []
    import probe

    def p95(result: dict[str, Any]) -> float:
        return probe.p95(result["keys"])

    for _ in range(runs):
        floor.append(p95(measure.floor_textual("--keys", str(keys))))
        if SMOKE:  # the three in one process
            names = ("keys-flood", "keys-form", "keys-form-flood")
            ran = measure.harness(*names, "--keys", str(keys), "--smoke")["scenarios"]
            flooded, formed, both_ran = (ran[name] for name in names)
        else:
            flooded = measure.harness("keys-flood", "--keys", str(keys))
            formed = measure.harness("keys-form", "--keys", str(keys))
            both_ran = measure.harness("keys-form-flood", "--keys", str(keys))
        flood.append(p95(flooded))
        shown.append(flooded["log_lines_shown"] / flooded["seconds"])
        form.append(p95(formed))
        both.append(p95(both_ran))
    rate = f"log lines shown per second during the flood: {statistics.median(shown):.0f}"
    rows.append(
        Row(
            "Key → repaint p95, 1,000 logs/s (floor: bare Input)",
            flood,
            floor,
            kind="max",
            target=50,
            note=rate,
        )
    )
    rows.append(Row("Key → repaint p95, 200-field form open", form, floor, kind="max", target=50))
    rows.append(
        Row("Key → repaint p95, 200-field form + 1,000 logs/s", both, floor, kind="max", target=50)
    )


def group_headless(runs: int, count: int, rows: list[Row]) -> None:
    # ~1.5 s a pair, and a tenth of a millisecond apart: twice the runs, and the pairs' ratios.
    floor, app = alternate(
        runs if SMOKE else runs * 2,
        lambda: measure.sdk_round_trip(count),
        lambda: measure.headless_round_trip(count),
    )
    rows.append(
        Row(
            f"Headless `call`: one elicitation round trip (median of {count}, after 10)",
            app,
            floor,
            target=1.2,
            note=paired(app, floor),
        )
    )


def group_memory(runs: int, rows: list[Row]) -> None:
    floor, app = alternate(
        runs,
        lambda: measure.floor_textual("--memory", "--import-mcp")["peak_rss_mib"],
        lambda: measure.harness("memory", *smoke_flag())["peak_rss_mib"],
    )
    rows.append(
        Row(
            "Peak memory, 200-field form open (floor: Textual + import mcp)",
            app,
            floor,
            target=1.5,
            unit="MiB",
        )
    )


def group_anchors(runs: int, rows: list[Row], install: bool) -> None:
    env = measure.bench_env({"HOME": str(measure.scratch() / "home")})
    (measure.scratch() / "home").mkdir(exist_ok=True)
    ours_help = [measure.until_exit(mcp_tui_argv("--help"), env=env) for _ in range(runs)]
    ours_list = [
        measure.until_exit(mcp_tui_argv("list", "--", *server_argv()), env=env) for _ in range(runs)
    ]
    sdk_list = [measure.until_exit(FLOOR_SDK_LIST, env=env) for _ in range(runs)]
    rows.append(
        Row("`mcp-tui list` → exit (floor: SDK connect + list)", ours_list, sdk_list, target=1.3)
    )
    for anchor in anchors.ANCHORS:
        executable = anchors.ensure(anchor, install=install)
        if isinstance(executable, str):
            rows.append(Row(f"--help vs {anchor.name}", [], note=executable))
            continue
        theirs = [measure.until_exit([str(executable), "--help"], env=env) for _ in range(runs)]
        rows.append(
            Row(f"`mcp-tui --help` (floor: `{anchor.name} --help`)", ours_help, theirs, target=1.0)
        )
        argv = anchors.connect_argv(anchor, executable)
        try:
            connect = [measure.until_exit(argv, env=env) for _ in range(runs)]
        except RuntimeError as error:
            rows.append(Row(f"connect vs {anchor.name}", [], note=str(error)[:200]))
            continue
        what = "tools → exit" if anchor.name == "mcp-cli" else "passthrough tool call → exit"
        rows.append(
            Row(
                f"`mcp-tui list` → exit (floor: {anchor.name} {what})",
                ours_list,
                connect,
                target=1.0,
            )
        )


def machine() -> str:
    import os

    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 runs each, fewer keys")
    parser.add_argument("--smoke", action="store_true", help="each once, small: does it run?")
    parser.add_argument("--runs", type=int, help="runs per measurement (default 5, quick 2)")
    parser.add_argument("--only", help=f"comma-separated groups: {', '.join(GROUPS)}")
    parser.add_argument("--no-install", action="store_true", help="skip installing anchors")
    parser.add_argument("--json", type=Path, help="also write the raw samples here")
    args = parser.parse_args()
    global SMOKE
    SMOKE = args.smoke
    runs = 1 if args.smoke else args.runs or (2 if args.quick else 5)
    keys = 3 if args.smoke else 30 if args.quick else 100
    round_trips = 2 if args.smoke else 20 if args.quick else 50
    chosen = args.only.split(",") if args.only else list(GROUPS)
    unknown = set(chosen) - set(GROUPS)
    if unknown:
        parser.error(f"unknown groups: {', '.join(sorted(unknown))}")
    print(f"mcp-tui benchmarks: {machine()}; {runs} runs; groups: {', '.join(chosen)}", flush=True)
    if args.smoke:
        print("smoke run: each measurement once, small sizes; the numbers mean nothing", flush=True)
    rows: list[Row] = []
    steps: dict[str, Callable[[], None]] = {
        "frame": lambda: group_frame(runs, rows),
        "launch": lambda: group_launch(runs, rows),
        "forms": lambda: group_forms(runs, rows),
        "keys": lambda: group_keys(1 if args.smoke else max(1, runs // 2 + 1), keys, rows),
        "headless": lambda: group_headless(runs, round_trips, rows),
        "memory": lambda: group_memory(runs, rows),
        "anchors": lambda: group_anchors(runs, rows, not args.no_install),
    }
    for name in GROUPS:
        if name in chosen:
            started = time.perf_counter()
            print(f"  {name} ...", end="", flush=True)
            steps[name]()
            print(f" {time.perf_counter() - started:.0f} s", flush=True)
    print()
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps([row.__dict__ for row in rows], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
