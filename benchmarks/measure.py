"""One function per measurement; each runs a program once and returns numbers (seconds or MiB).

Every program runs in a fresh process with the same environment: a private temporary
``XDG_CONFIG_HOME``/``XDG_STATE_HOME``/``XDG_CACHE_HOME``/``HOME`` (so no user config is read and
logs land in the temporary directory) and ``TERM=xterm-256color`` in a 120x40 pseudo-terminal.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ptyrun import PtyProcess

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = sys.executable
SERVER = str(HERE / "bench_server.py")
#: The transcript panel's title: painted once the session screen's panels are mounted.
PANELS_MARKER = b"Transcript"
CTRL_P, CTRL_Q = b"\x10", b"\x11"
#: Textual's command palette placeholder, minus the first letter (drawn under the cursor).
PALETTE = b"earch for commands"
TOOL_MARKER = b"bench_ready_marker"

_SCRATCH = Path(tempfile.mkdtemp(prefix="mcp-tui-bench-"))


def scratch() -> Path:
    return _SCRATCH


def bench_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    for key in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        env[key] = str(_SCRATCH / key.lower())
    env.pop("MCP_TUI_CONFIG", None)
    env.pop("TEXTUAL", None)
    env["PYTHONDONTWRITEBYTECODE"] = "0"
    env.update(extra or {})
    return env


def mcp_tui_argv(*args: str) -> list[str]:
    return [PYTHON, "-m", "mcp_tui", *args]


def server_argv() -> list[str]:
    return [PYTHON, SERVER]


def _settle(p: PtyProcess, quiet: float = 0.01) -> float:
    """Read until the output pauses for ``quiet`` seconds; the time the last bytes came."""
    last = time.perf_counter()
    while True:
        before = len(p.output)
        if not p._read(quiet):
            return last
        if len(p.output) == before:
            return last
        last = time.perf_counter()


def first_frame(argv: list[str], marker: bytes) -> dict[str, float]:
    """Start -> the first frame (marker painted, end of that burst of output); then Ctrl+P ->
    the command palette painted, timed from start ("visible and answering keys")."""
    p = PtyProcess(argv, env=bench_env(), cwd=str(ROOT))
    try:
        p.wait_for(marker)
        frame = _settle(p)
        offset = len(p.output)
        p.send(CTRL_P)
        palette = p.wait_for(PALETTE, start=offset)
        return {"frame": frame - p.started, "keys": palette - p.started}
    finally:
        p.close(CTRL_Q)


def until_marker(
    argv: list[str], marker: bytes, *, env: dict[str, str] | None = None, settle: bool = False
) -> float:
    """Start -> ``marker`` printed or painted (seconds), plus the rest of that burst of output
    when ``settle``; then quit (Ctrl+Q) or end it."""
    p = PtyProcess(argv, env=env or bench_env(), cwd=str(ROOT))
    try:
        seen = p.wait_for(marker, timeout=120)
        return (_settle(p) if settle else seen) - p.started
    finally:
        p.close(CTRL_Q, grace=3.0)


def until_exit(
    argv: list[str], *, env: dict[str, str] | None = None, timeout: float = 120
) -> float:
    """Start -> exit (seconds), in the pty; fails when the exit code is not 0."""
    p = PtyProcess(argv, env=env or bench_env(), cwd=str(ROOT))
    p.keep = False
    try:
        code = p.drain_until_exit(timeout)
        elapsed = time.perf_counter() - p.started
        if code != 0:
            raise RuntimeError(f"{argv[:3]} exited {code}: {p.tail[-800:]!r}")
        return elapsed
    finally:
        p.close()


def in_pty(
    argv: list[str], *, env: dict[str, str] | None = None, timeout: float = 600
) -> PtyProcess:
    """Run ``argv`` in the pty until it exits (its output drained, only the tail kept)."""
    p = PtyProcess(argv, env=env or bench_env(), cwd=str(ROOT))
    p.keep = False
    try:
        p.drain_until_exit(timeout)
    finally:
        p.close()
    return p


def in_pty_json(argv: list[str], timeout: float = 600) -> dict[str, Any]:
    """Run a harness in the pty (its output drained); return the JSON it wrote to ``--out``."""
    out = _SCRATCH / f"result-{time.monotonic_ns()}.json"
    p = in_pty([*argv, "--out", str(out)], timeout=timeout)
    if not out.exists():
        raise RuntimeError(f"{argv[1]} wrote no result: {p.tail[-800:]!r}")
    result: dict[str, Any] = json.loads(out.read_text())
    if "error" in result:
        raise RuntimeError(f"{argv[1]} failed:\n{result['error']}")
    return result


def harness(scenario: str, *args: str) -> dict[str, Any]:
    return in_pty_json([PYTHON, str(HERE / "tui_harness.py"), scenario, *args])


def floor_textual(*args: str) -> dict[str, Any]:
    return in_pty_json([PYTHON, str(HERE / "floor_textual.py"), *args])


def first_frame_modules() -> dict[str, Any]:
    """Which ``mcp`` modules were loaded when mcp-tui painted its first frame."""
    out = _SCRATCH / f"modules-{time.monotonic_ns()}.json"
    argv = [PYTHON, str(HERE / "first_frame_modules.py"), str(out), "--", *server_argv()]
    p = PtyProcess(argv, env=bench_env(), cwd=str(ROOT))
    try:
        p.wait_for(b"connecting")
        deadline = time.perf_counter() + 30
        while not out.exists() and time.perf_counter() < deadline:
            p._read(0.05)
    finally:
        p.close(CTRL_Q)
    result: dict[str, Any] = json.loads(out.read_text())
    return result


#: Round trips at the start of a run that are not counted, for the floor and mcp-tui alike: the
#: first ones of a process pay for lazy imports, caches and the interpreter's specialisation.
WARM_UP_ROUND_TRIPS = 10


def round_trip(argv: list[str]) -> float:
    """Median per-elicitation round trip (seconds) that ``bench_server``'s ``ask`` reports,
    over the round trips after the first :data:`WARM_UP_ROUND_TRIPS`."""
    done = subprocess.run(
        argv,
        env=bench_env(),
        cwd=str(ROOT),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=300,
        check=False,
    )
    for line in done.stdout.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line.startswith("{") and "median_ms" in line:
            summary = json.loads(line)
            if set(summary["actions"]) != {"accept"}:
                raise RuntimeError(f"not every request was accepted: {summary['actions'][:5]}")
            counted = summary["rtt_ms"][WARM_UP_ROUND_TRIPS:]
            return float(statistics.median(counted)) / 1000
    raise RuntimeError(f"no result from {argv[:4]}: {done.stdout[-400:]!r} {done.stderr[-800:]!r}")


def sdk_round_trip(count: int) -> float:
    asked = str(count + WARM_UP_ROUND_TRIPS)
    return round_trip(
        [PYTHON, str(HERE / "floor_sdk.py"), "elicit", "--mode", "legacy", "--count", asked]
    )


def headless_round_trip(count: int) -> float:
    args = json.dumps({"fields": 1, "count": count + WARM_UP_ROUND_TRIPS})
    return round_trip(
        mcp_tui_argv(
            "call",
            "ask",
            "--args",
            args,
            "--elicit",
            "accept-defaults",
            "--mode",
            "legacy",
            "-q",
            "--",
            *server_argv(),
        )
    )
