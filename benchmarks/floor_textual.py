"""The bare Textual floors: an app that paints one label (or one input), and nothing else.

``python benchmarks/floor_textual.py``: the first-frame floor. Run in a pseudo-terminal by
``run.py``, which times process start -> the label painted, then Ctrl+P -> the command palette
painted (the same keys and the same palette as mcp-tui, so "visible and answering keys" is measured
the same way), then quits with Ctrl+Q.

``--keys N --out FILE``: one focused ``Input``; type N characters and write each key -> repaint
time (the keystroke floor, measured by ``probe.py`` exactly as mcp-tui is).

``--memory --out FILE [--import-mcp]``: paint the label (after ``import mcp`` when asked), wait a
second, write the peak RSS: the memory floor is "bare Textual + ``import mcp``".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Input, Label

LABEL = "bench floor ready"


class FloorApp(App[None]):
    def __init__(self, with_input: bool = False) -> None:
        super().__init__()
        self.with_input = with_input

    def compose(self) -> ComposeResult:
        yield Label(LABEL)
        if self.with_input:
            yield Input(id="field")


async def measured(args: argparse.Namespace) -> dict[str, object]:
    import probe

    app = FloorApp(with_input=args.keys > 0)
    frames = probe.FrameProbe(app)
    task = asyncio.ensure_future(app.run_async())
    await probe.wait_until(lambda: frames.first_frame is not None)
    probe.enter_app_context(app)
    result: dict[str, object] = {}
    if args.keys:
        field = app.query_one("#field", Input)
        field.focus()
        await asyncio.sleep(0.5)
        letters = "abcdefghijklmnopqrstuvwxyz"

        def step(i: int) -> tuple[str, str, probe.Predicate]:
            expected = "".join(letters[j % 26] for j in range(i + 1))
            return letters[i % 26], letters[i % 26], lambda: field.value == expected

        result["keys"] = await probe.key_latencies(frames, args.keys, step)
    if args.memory:
        await asyncio.sleep(1.0)
        result["peak_rss_mib"] = probe.peak_rss_mib()
        result["mcp_imported"] = "mcp" in sys.modules
    app.exit()
    await task
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keys", type=int, default=0)
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--import-mcp", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.import_mcp:
        import mcp  # noqa: F401  (the memory floor counts the SDK's import)
    if not args.keys and not args.memory:
        FloorApp().run()
        return
    result = asyncio.run(measured(args))
    assert args.out is not None
    args.out.write_text(json.dumps(result))


if __name__ == "__main__":
    main()
