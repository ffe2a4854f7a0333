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
  ``--http``: the notification rides the tool call's SSE stream, ``tools/list`` is one JSON body);
- ``task-flood``, ``task-flood-100k``: on 2026-07-28, a tool call that becomes a task whose
  ``tasks/get`` lists 10,000 (100,000) input requests at once; a second after the client polled
  again, each form shown is cancelled (Escape) and Ctrl+C pressed on the session screen. Besides
  the loop's busy time it prints how long Ctrl+C took to send ``tasks/cancel``, how many forms
  were shown and how many ``tasks/update`` (with how many answers) went out;
- ``task-flood-paused``, ``task-flood-100k-paused``: the same with "stop asking" on (no form is
  shown), Ctrl+C pressed once the first ``tasks/update`` went out, while the flood is answered.

``--smoke`` runs every scenario once in one process, small and with short pauses, to see that each
still runs (``tests/test_benchmarks_smoke.py``); its numbers mean nothing.

``--traffic-log`` adds ``--log FILE`` (every message written as JSON Lines); ``--traffic-view``
opens the traffic view (``t``) first, so every message is also listed and the newest shown as JSON.

Prints, per scenario, the keys pressed during the window and their latency (median, p95, max) and
how many took over 100 ms (the goal: none), then the longest the event loop was busy between two
5 ms ticks, in CPU time of its thread: on a shared, loaded machine wall times stretch with
everyone else's work, while this is what the stall itself costs (on a quiet machine, a key
waits about that long), and the longest run of the garbage collector (it stops every thread,
which the loop's CPU time does not show). ``--json FILE`` writes the samples. Not part of the
pytest suite (no timed assertions in ``tests/``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
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
#: The pauses around a scenario are this many times their length (``--smoke``: a tenth).
PAUSE = 1.0
#: ``--smoke``: the largest size of each kind (a message still over ``big_json.LARGE_LINE``).
SMOKE_SIZES = {"keys": 2000, "bytes": 1_200_000, "tools": 30, "rounds": 1, "flood": 50}

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
    "task-flood": {"tools": 3, "flood": 10_000},
    "task-flood-100k": {"tools": 3, "flood": 100_000},
    "task-flood-paused": {"tools": 3, "flood": 10_000, "paused": True},
    "task-flood-100k-paused": {"tools": 3, "flood": 100_000, "paused": True},
}


def smoke_plan(plan: dict[str, Any]) -> dict[str, Any]:
    """A scenario at ``--smoke`` size: the same path through mcp-tui, small."""
    small = {k: min(v, SMOKE_SIZES[k]) if k in SMOKE_SIZES else v for k, v in plan.items()}
    if "call" in plan:
        tool, arguments = plan["call"]
        small["call"] = (tool, {k: min(v, SMOKE_SIZES[k]) for k, v in arguments.items()})
    return small


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


class CollectorPauses:
    """How long each run of the cyclic garbage collector took, in whichever thread: it holds the
    GIL, so the loop waits meanwhile, which its own CPU time does not show."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)

    def stop(self) -> None:
        gc.callbacks.remove(self._note)


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


class TaskTraffic:
    """The ``tasks/*`` requests the client sends, with the time each was recorded."""

    def __init__(self, app: Any) -> None:
        self.sent: list[tuple[float, str, int]] = []
        buffer = app._buffer
        add = buffer.add

        def recorded(event: Any) -> None:
            from mcp_tui.session.events import TrafficRecorded

            if isinstance(event, TrafficRecorded) and event.direction == "out":
                method = event.method or ""
                if method.startswith("tasks/"):
                    answers = 0
                    if method == "tasks/update":
                        params = event.message.get("params") or {}
                        answers = len(params.get("inputResponses") or {})
                    self.sent.append((time.perf_counter(), method, answers))
            add(event)

        buffer.add = recorded

    def count(self, method: str) -> int:
        return sum(1 for _, m, _ in self.sent if m == method)

    def first(self, method: str, after: float) -> float | None:
        return next((at for at, m, _ in self.sent if m == method and at >= after), None)


async def task_flood(h: Harness, plan: dict[str, Any]) -> dict[str, Any]:
    """See the module docstring: the flood, then Ctrl+C; what it cost and what was sent."""
    from mcp_tui.ui.screens.arming import ArmedScreen

    traffic = TaskTraffic(h.app)
    if plan.get("paused"):  # "stop asking" on: no form, the session screen takes the Ctrl+C
        h.entry.connection.set_elicitation_paused(True)
    if h.app.session.calls.call_tool("stall", "task_flood", {"requests": plan["flood"]}) is None:
        raise RuntimeError("could not call task_flood")
    shown = 0
    if plan.get("paused"):  # Ctrl+C once the first answers went out: the rest are on their way
        await probe.wait_until(lambda: traffic.count("tasks/update") >= 1, timeout=180)
    else:
        # The first tasks/get lists the flood; the second is sent once the first was dealt with.
        await probe.wait_until(lambda: traffic.count("tasks/get") >= 2, timeout=180)
        await asyncio.sleep(1.0 * PAUSE)
        while isinstance(h.app.screen, ArmedScreen):  # each form shown: Escape (cancel)
            screen = h.app.screen
            await probe.wait_until(lambda s=screen: s.shown, timeout=30)  # a key before is dropped
            shown += 1
            h.frames.press("escape", None)
            await probe.wait_until(lambda s=screen: h.app.screen is not s, timeout=30)
            with contextlib.suppress(TimeoutError):  # the next form, if one waits
                await probe.wait_until(lambda: isinstance(h.app.screen, ArmedScreen), 1.0)
    pressed = h.frames.press("ctrl+c", None)
    try:
        await probe.wait_until(lambda: traffic.first("tasks/cancel", pressed) is not None, 30)
        cancel_after: float | None = (traffic.first("tasks/cancel", pressed) or 0.0) - pressed
    except TimeoutError:
        cancel_after = None
    return {
        "cancel_after": cancel_after,
        "updates": traffic.count("tasks/update"),
        "answers": sum(n for _, m, n in traffic.sent if m == "tasks/update"),
        "gets": traffic.count("tasks/get"),
        "shown": shown,
    }


async def scenario(h: Harness, name: str, args: argparse.Namespace) -> dict[str, Any]:
    plan = SCENARIOS[name]
    tree = h.app.session.areas.catalog
    tree.focus()
    if args.traffic_view:
        await h.app.session.action_toggle_traffic()
    await asyncio.sleep(0.5 * PAUSE)
    tree.focus()
    tree.cursor_line = 1
    h.watch_keys()
    busy: list[float] = []
    ticking = asyncio.ensure_future(loop_busy(busy))
    collections = CollectorPauses()
    presser = KeyPresser(h.frames)
    started = time.perf_counter()
    presser.start()
    await asyncio.sleep(0.5 * PAUSE)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    flood: dict[str, Any] = {}
    if "flood" in plan:
        flood = await task_flood(h, plan)
    elif "call" in plan:
        tool, arguments = plan["call"]
        await h.call(tool, arguments)
    else:
        for _ in range(plan["rounds"]):
            before = h.entry.catalog_version
            await h.call("list_changed", {})
            await probe.wait_until(lambda b=before: h.entry.catalog_version > b, timeout=120)
            await asyncio.sleep(0.3 * PAUSE)
    await asyncio.sleep(0.5 * PAUSE)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    presser.stop.set()
    presser.join()
    await asyncio.sleep(0.3 * PAUSE)
    ticking.cancel()
    collections.stop()
    keys = h.latencies(presser.pressed)
    return {
        "keys": keys,
        "busy": busy,
        "collections": collections.pauses,
        "pressed": len(presser.pressed),
        "seconds": time.perf_counter() - started,
        "tools": len(h.entry.tools),
        **flood,
    }


def build(name: str, args: argparse.Namespace, http_port: int | None) -> Any:
    from mcp_tui.cli.main import build_app
    from mcp_tui.config.options import AppOptions
    from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget

    argv = (str(SERVER), "--tools", str(SCENARIOS[name]["tools"]))
    target: Any = StdioTarget(sys.executable, argv)
    if http_port is not None:
        target = HttpTarget(f"http://127.0.0.1:{http_port}/mcp")
    mode = "2026-07-28" if "flood" in SCENARIOS[name] else "legacy"
    spec = ServerSpec("stall", target, mode=mode)
    options: dict[str, Any] = {}
    if args.traffic_log:
        options["traffic_log"] = args.out.with_suffix(".traffic.jsonl")
    return build_app([spec], AppOptions(**options))


async def inside(args: argparse.Namespace) -> dict[str, Any]:
    """One scenario, or with ``--smoke`` each asked for in turn (``{"smoke": {name: ...}}``)."""
    if not args.smoke:
        return await inside_one(args.scenario[0], args)
    return {"smoke": {name: await inside_one(name, args) for name in args.scenario}}


async def inside_one(name: str, args: argparse.Namespace) -> dict[str, Any]:
    from mcp_tui.process.startup import pause_collector

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
        await asyncio.sleep(0.5 * PAUSE)
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


def flood_summary(run: dict[str, Any]) -> str:
    after = run["cancel_after"]
    cancel = "no tasks/cancel within 30 s" if after is None else f"{after * 1000:.0f} ms"
    return (
        f"Ctrl+C -> tasks/cancel {cancel}; {run['shown']} forms shown, {run['updates']} "
        f"tasks/update sent ({run['answers']} answers), {run['gets']} tasks/get"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="*", help=f"any of {', '.join(SCENARIOS)} (default: all)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--traffic-log", action="store_true")
    parser.add_argument("--traffic-view", action="store_true")
    parser.add_argument("--json", type=Path, help="write every sample here")
    parser.add_argument("--profile", type=Path, help="cProfile the event loop's thread meanwhile")
    parser.add_argument("--smoke", action="store_true", help="small, short, in one process")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    unknown = sorted(set(args.scenario) - set(SCENARIOS))
    if unknown:
        parser.error(f"unknown scenario {', '.join(unknown)}: choose from {', '.join(SCENARIOS)}")
    args.scenario = args.scenario or list(SCENARIOS)
    flags: list[str] = []
    if args.smoke:
        global PAUSE
        PAUSE = 0.1
        SCENARIOS.update({name: smoke_plan(plan) for name, plan in SCENARIOS.items()})
        flags = ["--smoke"]
    if args.inside:
        try:
            result = asyncio.run(inside(args))
        except BaseException:
            result = {"error": traceback.format_exc()}
        args.out.write_text(json.dumps(result))
        return

    from measure import in_pty_json

    flags += [f for f, on in (("--traffic-log", args.traffic_log),
                              ("--traffic-view", args.traffic_view)) if on]  # fmt: skip
    if args.profile:
        flags += ["--profile", str(args.profile.resolve())]
    results: dict[str, list[dict[str, Any]]] = {}
    if args.smoke:  # every scenario once, in one process
        argv = [sys.executable, str(Path(__file__).resolve()), *args.scenario, "--inside", *flags]
        ran = in_pty_json(argv)["smoke"]
        results = {name: [ran[name]] for name in args.scenario}
    for name in args.scenario:
        for _ in range(0 if args.smoke else args.runs):
            argv = [sys.executable, str(Path(__file__).resolve()), name, "--inside", *flags]
            results.setdefault(name, []).append(in_pty_json(argv))
        runs = results[name]
        keys = [k for run in runs for k in run["keys"]]
        busy = [b for run in runs for b in run["busy"]]
        print(summary(name, keys, sum(run["pressed"] for run in runs), busy), flush=True)
        pauses = [p for run in runs for p in run["collections"]]
        if pauses:
            print(f"{name:10} longest garbage collection {max(pauses) * 1000:.0f} ms", flush=True)
        for run in runs:
            if "updates" in run:
                print(f"{name:10} {flood_summary(run)}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
