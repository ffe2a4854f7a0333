"""mcp-tui itself, instrumented: run by ``run.py`` in a pseudo-terminal (real driver, real output).

``python benchmarks/tui_harness.py SCENARIO... --out FILE [--runs N] [--keys N] [--mode M]``

The app is built exactly as the CLI builds it (``mcp_tui.cli.main.build_app``) for one stdio server,
``bench_server.py``. Only timing hooks are added:

- frames and keys: ``probe.FrameProbe`` (the same code times the bare Textual floor);
- "elicitation arrival": the moment the complete ``elicitation/create`` line was read from the
  server's stdout (a wrapper round ``mcp_tui.session.stdio_transport.split_lines``), so the time
  includes parsing the schema and building the form, not only painting it. If that hook cannot be
  installed, the moment the TUI handler is called is used instead, and the result says so.

Scenarios (results as JSON in FILE):

- ``forms``: for 1 (cold, the session's first form), 1, 20 and 200 text fields and one select of
  10,000 options: arrival -> the elicitation screen painted with a field focused; for the select
  also a typed key -> the filtered list painted. Then, with the arming delay on, the select again
  with "7" typed as soon as its first frame is written: key -> the filtered list painted (typed
  keys reach a form the moment it is on screen; only accepting keys wait). Forms are closed with
  ``cancel``.
- ``keys-flood``: the server floods 1,000 log notifications/s; Up/Down in the catalog tree,
  key -> repaint.
- ``keys-form``: a 200-field form is open; characters typed into its first field, key -> repaint.
- ``keys-form-flood``: both at once.
- ``memory``: a 200-field form open (all its page mounted); the process's peak RSS.

The rate limit on elicitation requests is raised for the run (the benchmark opens many forms),
and the arming delay (``mcp_tui.ui.arming_delay``) is set to what each row measures: 0 for paint
and key times (a form is live at once), the app's default for the arming row.

``--smoke``: every size small and every pause short, to see each scenario still runs (the suite's
``tests/test_benchmarks_smoke.py``); its numbers mean nothing. Several scenarios run one after
the other, each with an app of its own, and FILE holds ``{"scenarios": {name: result}}``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import probe

SERVER = Path(__file__).with_name("bench_server.py")
LETTERS = "abcdefghijklmnopqrstuvwxyz"

#: ``--smoke`` sizes: fields of the 20- and 200-field forms, options of the select.
SMOKE_SIZES = {"20": 3, "200": 5, "select": 200}
SIZES = {"20": 20, "200": 200, "select": 10_000}

ARRIVALS: list[float] = []
#: ``--profile``: a pyinstrument profiler run from each arrival to the form painted.
PROFILER: Any = None
HANDLER_CALLS: list[float] = []
HOOKS: dict[str, bool] = {"transport": False, "handler": False}


def install_hooks() -> None:
    """Timestamp elicitation arrival at the transport (preferred) and at the TUI handler."""
    try:
        from mcp_tui.session import stdio_transport

        original_split = stdio_transport.split_lines

        def split_lines(buffer: bytearray, scan_from: int) -> tuple[list[bytes], int]:
            lines, scanned = original_split(buffer, scan_from)
            for line in lines:
                if b'"elicitation/create"' in line:
                    ARRIVALS.append(time.perf_counter())
                    if PROFILER is not None and not PROFILER.is_running:
                        PROFILER.start()
            return lines, scanned

        stdio_transport.split_lines = split_lines  # type: ignore[assignment]
        HOOKS["transport"] = True
    except (ImportError, AttributeError):
        pass
    from mcp_tui.ui.app import elicitation_handler

    handler_class = elicitation_handler.TuiElicitationHandler
    original_elicit = handler_class.elicit

    async def elicit(self: Any, request: Any) -> Any:
        HANDLER_CALLS.append(time.perf_counter())
        return await original_elicit(self, request)

    handler_class.elicit = elicit  # type: ignore[method-assign]
    HOOKS["handler"] = True


def build(mode: str) -> Any:
    from mcp_tui.cli.main import build_app
    from mcp_tui.config.options import AppOptions
    from mcp_tui.config.servers import ServerSpec, StdioTarget

    spec = ServerSpec("bench", StdioTarget(sys.executable, (str(SERVER),)), mode=mode)  # type: ignore[arg-type]
    return build_app([spec], AppOptions(rate_limit_count=1_000_000, rate_limit_seconds=1.0))


class Harness:
    def __init__(self, app: Any, frames: probe.FrameProbe) -> None:
        self.app = app
        self.frames = frames

    @property
    def entry(self) -> Any:
        return self.app.entries["bench"]

    async def ready(self) -> None:
        from mcp_tui.session.events import ConnectionState

        await probe.wait_until(
            lambda: self.app.session is not None and self.app.session.is_mounted, timeout=60
        )
        await probe.wait_until(
            lambda: self.entry.state is ConnectionState.READY and bool(self.entry.tools),
            timeout=60,
        )

    def call(self, tool: str, arguments: dict[str, Any]) -> None:
        if self.app.session.calls.call_tool("bench", tool, arguments) is None:
            raise RuntimeError(f"could not call {tool}")

    def form_screen(self) -> Any:
        from mcp_tui.ui.screens.elicitation_form import ElicitationScreen

        screen = self.app.screen
        return screen if isinstance(screen, ElicitationScreen) else None

    def form_focused(self) -> bool:
        screen = self.form_screen()
        focused = self.app.focused
        return screen is not None and focused is not None and focused.screen is screen

    async def open_form(self, arguments: dict[str, Any]) -> dict[str, float]:
        """Call ``ask``; arrival -> painted and focused (seconds), and arrival -> handler."""
        arrivals, calls = len(ARRIVALS), len(HANDLER_CALLS)
        waiter = asyncio.ensure_future(self.frames.frame_where(self.form_focused, timeout=60))
        self.call("ask", arguments)
        painted = await waiter
        if PROFILER is not None and PROFILER.is_running:
            PROFILER.stop()
        handler = HANDLER_CALLS[calls] if len(HANDLER_CALLS) > calls else painted
        arrived = ARRIVALS[arrivals] if len(ARRIVALS) > arrivals else handler
        return {"paint": painted - arrived, "to_handler": handler - arrived}

    async def close_form(self, still_running: int = 0) -> None:
        from mcp_tui.session.elicitation import ElicitationOutcome

        screen = self.form_screen()
        if screen is not None:
            screen.finish(ElicitationOutcome.cancel("benchmark"))
        await probe.wait_until(lambda: self.form_screen() is None, timeout=30)
        try:
            await probe.wait_until(
                lambda: self.app.session.areas.running.count <= still_running, timeout=30
            )
        except TimeoutError:
            rows = [str(r.call_id) for r in self.app.session.areas.running.query("RunningCall")]
            raise RuntimeError(f"calls still running: {rows}; screen={self.app.screen!r}") from None

    async def type_into_focused(self, count: int) -> list[float]:
        from textual.widgets import Input

        field = self.app.focused
        if not isinstance(field, Input):
            raise RuntimeError(f"focused widget is {field!r}, not an Input")
        start = field.value
        field.cursor_position = len(start)

        def step(i: int) -> tuple[str, str, probe.Predicate]:
            expected = start + "".join(LETTERS[j % 26] for j in range(i + 1))
            return LETTERS[i % 26], LETTERS[i % 26], lambda: field.value == expected

        return await probe.key_latencies(self.frames, count, step)

    async def move_in_catalog(self, count: int) -> list[float]:
        tree = self.app.session.areas.catalog
        tree.focus()
        await asyncio.sleep(0.1)
        tree.cursor_line = 1

        def step(i: int) -> tuple[str, None, probe.Predicate]:
            key, target = ("down", 2) if i % 2 == 0 else ("up", 1)
            return key, None, lambda: tree.cursor_line == target

        return await probe.key_latencies(self.frames, count, step)

    def log_lines(self) -> int:
        return int(self.app.session.areas.logs.lines_written)


def filtered(h: Harness) -> bool:
    """The focused filter box holds "7" and its list starts with the option it matches."""
    from textual.widgets import Input, OptionList

    field = h.app.focused
    if not isinstance(field, Input) or field.value != "7" or field.parent is None:
        return False
    choices = field.parent.query_one(OptionList)
    if choices.option_count == 0:
        return False
    return "00007" in str(choices.get_option_at_index(0).prompt)


async def filter_select(h: Harness) -> float:
    """Type "7" into the focused filter box; key -> the filtered list painted (seconds)."""
    from textual.widgets import Input

    assert isinstance(h.app.focused, Input), h.app.focused
    waiter = asyncio.ensure_future(h.frames.frame_where(lambda: filtered(h), timeout=30))
    await asyncio.sleep(0)
    started = h.frames.press("7", "7")
    return await waiter - started


async def filter_select_armed(h: Harness, options: int) -> float:
    """The arming delay on: "7" typed right after the select form's first frame was written;
    key -> the filtered list painted (seconds). A key read after the frame is the person's."""
    from mcp_tui.ui.arming_delay import ARMING, DEFAULT_ARMING_SECONDS

    ARMING.delay = DEFAULT_ARMING_SECONDS
    try:
        screen_up = asyncio.ensure_future(
            h.frames.frame_where(lambda: h.form_screen() is not None, timeout=60)
        )
        await asyncio.sleep(0)  # the watcher is registered before the form can paint
        h.call("ask", {"options": options})
        await screen_up
        waiter = asyncio.ensure_future(h.frames.frame_where(lambda: filtered(h), timeout=30))
        started = h.frames.press("7", "7")
        return await waiter - started
    finally:
        ARMING.delay = 0.0


async def scenario_forms(h: Harness, args: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {"cold_1": [], "1": [], "20": [], "200": [], "select": []}
    result["select_filter"] = []
    result["select_filter_armed"] = []
    result["to_handler"] = {}
    cold = await h.open_form({"fields": 1})
    result["cold_1"].append(cold["paint"])
    await h.close_form()
    size = SMOKE_SIZES if args.smoke else SIZES
    sizes: list[tuple[str, dict[str, Any]]] = [
        ("1", {"fields": 1}),
        ("20", {"fields": size["20"]}),
        ("200", {"fields": size["200"]}),
        ("select", {"options": size["select"]}),
    ]
    if args.size:
        sizes = [(n, a) for n, a in sizes if n == args.size]
    for _ in range(args.runs):
        for name, arguments in sizes:
            timing = await h.open_form(arguments)
            result[name].append(timing["paint"])
            result["to_handler"].setdefault(name, []).append(timing["to_handler"])
            if name == "select":
                result["select_filter"].append(await filter_select(h))
            await h.close_form()
            await asyncio.sleep(0.1)
        if not args.size or args.size == "select":
            result["select_filter_armed"].append(await filter_select_armed(h, size["select"]))
            await h.close_form()
            await asyncio.sleep(0.1)
    return result


async def start_flood(h: Harness, seconds: float) -> int:
    before = h.log_lines()
    h.call("flood", {"rate": 1000, "seconds": seconds})
    await probe.wait_until(lambda: h.log_lines() > before + 200, timeout=30)
    return before


async def scenario_keys_flood(h: Harness, args: argparse.Namespace) -> dict[str, Any]:
    seconds = args.keys * 0.09 + (1 if args.smoke else 3)
    before = await start_flood(h, seconds)
    started = time.perf_counter()
    latencies = await h.move_in_catalog(args.keys)
    elapsed = time.perf_counter() - started
    lines = h.log_lines() - before
    return {"keys": latencies, "log_lines_shown": lines, "seconds": elapsed}


async def scenario_keys_form(h: Harness, args: argparse.Namespace) -> dict[str, Any]:
    flood = args.running == "keys-form-flood"
    if flood:
        await start_flood(h, args.keys * 0.09 + (2 if args.smoke else 6))
    await h.open_form({"fields": SMOKE_SIZES["200"] if args.smoke else 200})
    await asyncio.sleep(0.2 if args.smoke else 1.5)  # the rest of the page mounts a chunk a frame
    latencies = await h.type_into_focused(args.keys)
    mounted = len(h.form_screen().query("FieldRow"))
    await h.close_form(still_running=1 if flood else 0)
    return {"keys": latencies, "rows_mounted": mounted, "flood": flood}


async def scenario_memory(h: Harness, args: argparse.Namespace) -> dict[str, Any]:
    await h.open_form({"fields": SMOKE_SIZES["200"] if args.smoke else 200})
    await asyncio.sleep(0.2 if args.smoke else 1.5)
    rows = len(h.form_screen().query("FieldRow"))
    peak = probe.peak_rss_mib()
    await h.close_form()
    return {"peak_rss_mib": peak, "rows_mounted": rows}


SCENARIOS = {
    "forms": scenario_forms,
    "keys-flood": scenario_keys_flood,
    "keys-form": scenario_keys_form,
    "keys-form-flood": scenario_keys_form,
    "memory": scenario_memory,
}


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    install_hooks()
    results = {}
    for name in args.scenario:
        args.running = name
        results[name] = await run_one(name, args)
    return results[args.scenario[0]] if len(args.scenario) == 1 else {"scenarios": results}


async def run_one(name: str, args: argparse.Namespace) -> dict[str, Any]:
    from mcp_tui.ui.arming_delay import ARMING

    app = build(args.mode)
    ARMING.delay = 0.0  # paint and key times; the arming row turns it on for itself
    frames = probe.FrameProbe(app)
    gc.freeze()  # as ``mcp_tui.cli.main.run_tui`` does before ``app.run()``
    task = asyncio.ensure_future(app.run_async())
    h = Harness(app, frames)
    try:
        await probe.wait_until(lambda: app.is_running, timeout=60)
        probe.enter_app_context(app)
        await h.ready()
        await asyncio.sleep(0.3)
        result = await SCENARIOS[name](h, args)
        result["hooks"] = dict(HOOKS)
        result["frames"] = frames.frames
    finally:
        await app.connections.close(timeout=5)
        app.exit()
        await task
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", nargs="+", choices=sorted(SCENARIOS))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument("--mode", default="legacy")
    parser.add_argument("--size", help="forms: only this size (1, 20, 200, select)")
    parser.add_argument("--profile", type=Path, help="forms: profile arrival -> painted here")
    parser.add_argument("--smoke", action="store_true", help="small sizes, short pauses")
    args = parser.parse_args()
    if args.profile:
        global PROFILER
        from pyinstrument import Profiler

        PROFILER = Profiler(interval=0.0005, async_mode="disabled")
    try:
        result = asyncio.run(main_async(args))
    except BaseException:
        result = {"error": traceback.format_exc()}
    args.out.write_text(json.dumps(result))
    if PROFILER is not None and PROFILER.last_session is not None:
        args.profile.write_text(
            PROFILER.output_text(unicode=True, show_all=False)
            + PROFILER.output_text(unicode=True, show_all=True)
            + PROFILER.output_text(unicode=True, flat=True)
        )


if __name__ == "__main__":
    main()
