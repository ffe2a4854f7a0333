"""Key latency while a server sends something big: does the UI keep answering keys?

``python benchmarks/stalls.py [SCENARIO ...] [--runs N] [--traffic-log] [--traffic-view]``

Each scenario runs mcp-tui (built as the CLI builds it) in a pseudo-terminal against
``stall_server.py`` over stdio. A thread presses Up/Down in the catalog every 100 ms, as
Textual's own input thread delivers keys (``driver.send_message``), so keys keep arriving while
the event loop is busy; a key's latency is its press -> the first frame painted after the tree
handled it. Scenarios:

- ``idle``: a tool call that sends nothing big (the machine's own key latency, for comparison);
- ``meta``: one ``notifications/message`` of about 14 MB, 10^6 keys in ``_meta``;
- ``log``: one log message whose data is a 14 MB string;
- ``log-object``: one log message whose data is an object of 10^6 keys (about 14 MB);
- ``progress``: one progress notification with a 14 MB message, during its tool call;
- ``idle-3000``: 3,000 tools listed, nothing sent (the big tree's own key latency);
- ``refresh``: 3,000 tools of 2 KB descriptions; five ``list_changed`` in a row (each one renames
  a tool and adds one), each re-fetched and shown;
- ``meta-http``, ``refresh-http``, ``log-object-http``: those over Streamable HTTP (the server's
  ``--http``: the notification rides the tool call's SSE stream, ``tools/list`` is one JSON body).

``--traffic-log`` adds ``--log FILE`` (every message written as JSON Lines); ``--traffic-view``
opens the traffic view (``t``) first, so every message is also listed and the newest shown as JSON.

Prints, per scenario, the keys pressed during the window and their latency (median, p95, max) and
how many took over 100 ms (the goal: none), then the longest the event loop was busy between two
5 ms ticks, in CPU time of its thread: on a shared, loaded machine wall times stretch with
everyone else's work, while this is what the stall itself costs (on a quiet machine, a key
waits about that long). ``--json FILE`` writes the samples. Not part of the
pytest suite (no timed assertions in ``tests/``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import probe

HERE = Path(__file__).resolve().parent
SERVER = HERE / "stall_server.py"
#: Seconds between two key presses.
KEY_GAP = 0.1
#: The goal: every key answered within this (seconds).
GOAL = 0.1

SCENARIOS: dict[str, dict[str, Any]] = {
    "idle": {"tools": 3, "call": ("noop", {})},
    "meta": {"tools": 3, "call": ("big_meta", {"keys": 1_000_000})},
    "log": {"tools": 3, "call": ("big_log", {"bytes": 14_000_000})},
    "log-object": {"tools": 3, "call": ("big_log_object", {"keys": 1_000_000})},
    "progress": {"tools": 3, "call": ("big_progress", {"bytes": 14_000_000})},
    "refresh": {"tools": 3000, "rounds": 5},
    "idle-3000": {"tools": 3000, "call": ("noop", {})},
    "meta-http": {"tools": 3, "call": ("big_meta", {"keys": 1_000_000}), "http": True},
    "refresh-http": {"tools": 3000, "rounds": 5, "http": True},
    "log-object-http": {"tools": 3, "call": ("big_log_object", {"keys": 1_000_000}), "http": True},
}


class KeyPresser(threading.Thread):
    """Presses Down/Up every :data:`KEY_GAP` seconds from its own thread, as a terminal would."""

    def __init__(self, frames: probe.FrameProbe) -> None:
        super().__init__(daemon=True, name="key-presser")
        self.frames = frames
        self.pressed: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            key = "down" if len(self.pressed) % 2 == 0 else "up"
            self.pressed.append(self.frames.press(key, None))
            self.stop.wait(KEY_GAP)


async def loop_busy(samples: list[float]) -> None:
    """The event loop thread's CPU time between two 5 ms ticks, each: how long the loop could
    not answer a key, whatever else the machine was doing (a shared machine stretches wall
    times, not the CPU time a stall takes)."""
    while True:
        started = time.thread_time()
        await asyncio.sleep(0.005)
        samples.append(time.thread_time() - started)


class Harness:
    def __init__(self, app: Any, frames: probe.FrameProbe) -> None:
        self.app = app
        self.frames = frames
        #: (frame time, keys the catalog had handled by then), one per frame painted.
        self.painted: list[tuple[float, int]] = []
        self.handled = 0

    @property
    def entry(self) -> Any:
        return self.app.entries["stall"]

    def watch_keys(self) -> None:
        """Count the catalog's cursor moves, and note each frame with the count it shows."""
        tree = self.app.session.areas.catalog
        down, up = tree.action_cursor_down, tree.action_cursor_up

        def moved(action: Any) -> Any:
            def counted() -> None:
                action()
                self.handled += 1

            return counted

        tree.action_cursor_down = moved(down)
        tree.action_cursor_up = moved(up)
        original = self.frames._check

        def check(now: float) -> None:
            self.painted.append((now, self.handled))
            original(now)

        self.frames._check = check  # type: ignore[method-assign]

    def latencies(self, pressed: list[float]) -> list[float]:
        """Each key's press -> the first frame that shows it handled (keys are handled in order)."""
        result: list[float] = []
        frames = iter(self.painted)
        at, count = 0.0, 0
        for index, started in enumerate(pressed):
            while count < index + 1:
                try:
                    at, count = next(frames)
                except StopIteration:
                    return result
            result.append(at - started)
        return result

    async def ready(self) -> None:
        from mcp_tui.session.events import ConnectionState

        await probe.wait_until(
            lambda: self.app.session is not None and self.app.session.is_mounted, timeout=60
        )
        await probe.wait_until(
            lambda: self.entry.state is ConnectionState.READY and bool(self.entry.tools),
            timeout=120,
        )
        # The first listing drawn: its tree is built once, before the measured window.
        await probe.wait_until(
            lambda: self.app.session.areas.catalog.last_line >= len(self.entry.tools), timeout=120
        )

    async def call(self, tool: str, arguments: dict[str, Any]) -> None:
        if self.app.session.calls.call_tool("stall", tool, arguments) is None:
            raise RuntimeError(f"could not call {tool}")
        await asyncio.sleep(0.05)
        await probe.wait_until(lambda: self.app.session.areas.running.count == 0, timeout=120)


async def scenario(h: Harness, name: str, args: argparse.Namespace) -> dict[str, Any]:
    plan = SCENARIOS[name]
    tree = h.app.session.areas.catalog
    tree.focus()
    if args.traffic_view:
        await h.app.session.action_toggle_traffic()
    await asyncio.sleep(0.5)
    tree.focus()
    tree.cursor_line = 1
    h.watch_keys()
    busy: list[float] = []
    ticking = asyncio.ensure_future(loop_busy(busy))
    presser = KeyPresser(h.frames)
    started = time.perf_counter()
    presser.start()
    await asyncio.sleep(0.5)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    if "call" in plan:
        tool, arguments = plan["call"]
        await h.call(tool, arguments)
    else:
        for _ in range(plan["rounds"]):
            before = h.entry.catalog_version
            await h.call("list_changed", {})
            await probe.wait_until(lambda b=before: h.entry.catalog_version > b, timeout=120)
            await asyncio.sleep(0.3)
    await asyncio.sleep(0.5)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    presser.stop.set()
    presser.join()
    await asyncio.sleep(0.3)
    ticking.cancel()
    keys = h.latencies(presser.pressed)
    return {
        "keys": keys,
        "busy": busy,
        "pressed": len(presser.pressed),
        "seconds": time.perf_counter() - started,
        "tools": len(h.entry.tools),
    }


def build(name: str, args: argparse.Namespace, http_port: int | None) -> Any:
    from mcp_tui.cli.main import build_app
    from mcp_tui.config.options import AppOptions
    from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget

    argv = (str(SERVER), "--tools", str(SCENARIOS[name]["tools"]))
    target: Any = StdioTarget(sys.executable, argv)
    if http_port is not None:
        target = HttpTarget(f"http://127.0.0.1:{http_port}/mcp")
    spec = ServerSpec("stall", target, mode="legacy")
    options: dict[str, Any] = {}
    if args.traffic_log:
        options["traffic_log"] = args.out.with_suffix(".traffic.jsonl")
    return build_app([spec], AppOptions(**options))


async def inside(args: argparse.Namespace) -> dict[str, Any]:
    from mcp_tui.process.startup import pause_collector

    name = args.scenario[0]
    pause_collector()  # as ``mcp_tui.cli.main.main`` does: start-up's imports frozen once done
    server = None
    if SCENARIOS[name].get("http"):
        argv = [sys.executable, str(SERVER), "--http", "--tools", str(SCENARIOS[name]["tools"])]
        server = subprocess.Popen(argv, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
        assert server.stdout is not None
        port = int(server.stdout.readline())
    try:
        return await measured(name, args, None if server is None else port)
    finally:
        if server is not None:
            server.kill()
            server.wait()


async def measured(name: str, args: argparse.Namespace, port: int | None) -> dict[str, Any]:
    app = build(name, args, port)
    frames = probe.FrameProbe(app)
    task = asyncio.ensure_future(app.run_async())
    h = Harness(app, frames)
    try:
        await probe.wait_until(lambda: app.is_running, timeout=60)
        probe.enter_app_context(app)
        await h.ready()
        await asyncio.sleep(0.5)
        return await scenario(h, name, args)
    finally:
        await app.connections.close(timeout=5)
        app.exit()
        await task


def summary(name: str, samples: list[float], pressed: int, busy: list[float]) -> str:
    if not samples:
        return f"{name:10} no keys measured"
    ms = sorted(s * 1000 for s in samples)
    over = sum(1 for s in samples if s > GOAL)
    blocked = sorted(b * 1000 for b in busy)
    long_blocks = sum(b > GOAL * 1000 for b in blocked)
    return (
        f"{name:10} {len(ms):4}/{pressed:<4} keys: median {statistics.median(ms):6.0f} ms"
        f"  p95 {probe.p95(ms):6.0f}  max {ms[-1]:6.0f}  over {GOAL * 1000:g} ms: {over:3}"
        f" | loop busy (CPU) p99 {blocked[int(0.99 * (len(blocked) - 1))]:5.0f} ms"
        f"  max {blocked[-1]:5.0f} ms  over {GOAL * 1000:g} ms: {long_blocks}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="*", help=f"any of {', '.join(SCENARIOS)} (default: all)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--traffic-log", action="store_true")
    parser.add_argument("--traffic-view", action="store_true")
    parser.add_argument("--json", type=Path, help="write every sample here")
    parser.add_argument("--profile", type=Path, help="cProfile the event loop's thread meanwhile")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    unknown = sorted(set(args.scenario) - set(SCENARIOS))
    if unknown:
        parser.error(f"unknown scenario {', '.join(unknown)}: choose from {', '.join(SCENARIOS)}")
    args.scenario = args.scenario or list(SCENARIOS)
    if args.inside:
        try:
            result = asyncio.run(inside(args))
        except BaseException:
            result = {"error": traceback.format_exc()}
        args.out.write_text(json.dumps(result))
        return

    from measure import in_pty_json

    flags = [f for f, on in (("--traffic-log", args.traffic_log),
                             ("--traffic-view", args.traffic_view)) if on]  # fmt: skip
    if args.profile:
        flags += ["--profile", str(args.profile.resolve())]
    results: dict[str, list[dict[str, Any]]] = {}
    for name in args.scenario:
        for _ in range(args.runs):
            argv = [sys.executable, str(Path(__file__).resolve()), name, "--inside", *flags]
            results.setdefault(name, []).append(in_pty_json(argv))
        runs = results[name]
        keys = [k for run in runs for k in run["keys"]]
        busy = [b for run in runs for b in run["busy"]]
        print(summary(name, keys, sum(run["pressed"] for run in runs), busy), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
