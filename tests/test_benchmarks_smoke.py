"""Every benchmark still runs: each of ``benchmarks/run.py``'s groups and every scenario of
``benchmarks/stalls.py``, once, at ``--smoke`` size (small forms, few keys, no warm-up).

The benchmarks drive the app from outside (the harnesses reach into the session screen, type
into forms, wait for markers on the terminal), so a change to the app can leave a benchmark
that no longer runs: ``run.py --quick`` once crashed in its ``forms`` group because the keys it
typed into a select were dropped by the arming delay. Nothing here looks at a time; a number
that misses its goal is the benchmark's business, a benchmark that fails to run is the suite's.
Each group is its own test, so a failure names the group. The anchors (other clients, from
PyPI) are looked for in an empty cache, so the ``anchors`` group runs only mcp-tui's own rows, as
on a machine that never installed them: running someone else's client proves nothing about ours.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"

#: ``run.py``'s groups and a row each prints once it ran (``anchors`` without installing any).
GROUPS = {
    "frame": "First frame answering a key",
    "launch": "Launch → tools listed on screen",
    "forms": "Select, arming on: key typed at its first frame",
    "keys": "Key → repaint p95, 200-field form + 1,000 logs/s",
    "headless": "Headless `call`: one elicitation round trip",
    "memory": "Peak memory, 200-field form open",
    "anchors": "`mcp-tui list` → exit (floor: SDK connect + list)",
}

#: ``stalls.py``'s scenarios in two runs (each one process, an app per scenario).
STALLS = {
    "stdio": ["idle", "meta", "log", "log-object", "progress", "refresh", "idle-3000"],
    "http-and-tasks": [
        "meta-http",
        "refresh-http",
        "log-object-http",
        "task-flood",
        "task-flood-100k",
        "task-flood-paused",
        "task-flood-100k-paused",
    ],
}


def run(*argv: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT,
        env=None if env is None else {**os.environ, **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
    )
    assert done.returncode == 0, f"{argv[0]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_each_group_of_run_py_runs(group: str, tmp_path: Path) -> None:
    no_anchors = {"MCP_TUI_BENCH_CACHE": str(tmp_path / "bench-cache")}
    argv = (str(BENCHMARKS / "run.py"), "--smoke", "--no-install", "--only", group)
    out = run(*argv, env=no_anchors)
    assert GROUPS[group] in out
    if group == "anchors":
        assert out.count("not installed (run without --no-install") == 2, out


@pytest.mark.parametrize("part", sorted(STALLS))
def test_every_stall_scenario_runs(part: str) -> None:
    out = run(str(BENCHMARKS / "stalls.py"), "--smoke", *STALLS[part])
    for name in STALLS[part]:
        assert f"{name} " in out and "loop busy" in out
    if part == "http-and-tasks":
        assert out.count("Ctrl+C -> tasks/cancel") == 4 and "no tasks/cancel" not in out


def test_the_smoke_runs_cover_every_group_and_scenario() -> None:
    """A group or a scenario added to a benchmark is added here too."""
    names = "import json, run, stalls; print(json.dumps([run.GROUPS, list(stalls.SCENARIOS)]))"
    done = subprocess.run(
        [sys.executable, "-c", names],
        cwd=BENCHMARKS,  # the benchmarks import each other as top-level modules
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    groups, scenarios = json.loads(done.stdout)
    assert set(GROUPS) == set(groups)
    assert sorted(n for part in STALLS.values() for n in part) == sorted(scenarios)
