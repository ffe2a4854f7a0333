"""How fast the tool-arguments tree form paints: a 200-property form against a 1-field one.

Issue 18's goal: the tree form (nested objects, lists, variants) mounts lazily like the
elicitation forms, so 200 properties paint within 4x of a single field. Both forms here are tree
forms (each has a ``boolean | string`` variant, which the flat form cannot show). In one process,
with Textual's headless driver: time from pushing ``ArgumentsScreen`` to the first frame
(``probe.FrameProbe``: ``App._display``) drawn with a field of the form focused; then the screen is
dismissed and the next one pushed. Sizes alternate (after a warm-up of each) so drift hits both.
Writing to a real terminal is left out (the same for both sizes), so the ratio is what counts.

    .venv/bin/python benchmarks/arguments_form.py [RUNS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import probe
from textual.app import App

from mcp_tui.ui.screens.arguments import ArgumentsScreen


def schema(size: int) -> dict[str, Any]:
    """``size`` properties: a ``boolean | string`` variant first, then text, numbers, booleans."""
    properties: dict[str, Any] = {"mode": {"type": ["boolean", "string"], "title": "Mode"}}
    kinds = [
        {"type": "string", "description": "Some text"},
        {"type": "integer", "minimum": 0, "maximum": 100},
        {"type": "boolean", "default": False},
    ]
    for i in range(size - 1):
        properties[f"field_{i:03}"] = dict(kinds[i % len(kinds)])
    return {"type": "object", "properties": properties, "required": ["mode"]}


class Bench(App[None]):
    pass


async def measure(runs: int) -> dict[str, list[float]]:
    app = Bench()
    results: dict[str, list[float]] = {"1": [], "200": []}
    async with app.run_test(size=(120, 40)) as pilot:
        frames = probe.FrameProbe(app)
        probe.enter_app_context(app)

        def focused_form() -> bool:
            screen = app.screen
            focused = app.focused
            return (
                isinstance(screen, ArgumentsScreen)
                and focused is not None
                and focused.screen is screen
            )

        async def once(size: int) -> float:
            waiter = asyncio.ensure_future(frames.frame_where(focused_form, timeout=60))
            await asyncio.sleep(0)
            started = time.perf_counter()  # the clock frame_where reports
            app.push_screen(ArgumentsScreen("bench", schema(size)))
            elapsed = await waiter - started
            app.pop_screen()
            await pilot.pause(0.05)
            return elapsed

        for size in (1, 200):  # warm-up: widget classes, CSS
            await once(size)
        for _ in range(runs):
            for size in (1, 200):
                results[str(size)].append(await once(size))
    return results


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    results = asyncio.run(measure(runs))
    one = statistics.median(results["1"]) * 1000
    many = statistics.median(results["200"]) * 1000
    for name, values in results.items():
        ms = sorted(v * 1000 for v in values)
        median = statistics.median(ms)
        print(f"{name:>4} fields: median {median:6.1f} ms  (min {ms[0]:.1f}, max {ms[-1]:.1f})")
    print(f"ratio 200/1: {many / one:.2f}x (goal: within 4x)")


if __name__ == "__main__":
    main()
