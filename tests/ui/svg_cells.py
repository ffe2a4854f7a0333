"""What a Textual SVG screenshot shows, cell by cell (not a test module: no ``test_`` prefix).

Two screenshots that look the same can differ byte for byte: the exporter writes one ``<text>``
and one ``<rect>`` per run of equal style, so a screen drawn by one widget instead of four splits
its runs differently, and a blank cell may or may not carry a text colour. :func:`cells` reduces
a screenshot to what a person sees: each cell's background, and each visible character with its
text style. ``python tests/ui/svg_cells.py FILE [REV]`` compares a snapshot in the work tree with
the same file at a git revision (default ``HEAD``).
"""

from __future__ import annotations

import html
import re
import subprocess
import sys

#: The exporter's cell width in SVG units (Textual 8.2.8's ``export_screenshot``).
CELL_WIDTH = 12.2
_RECT = re.compile(
    r'<rect fill="(#[0-9a-f]+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="[\d.]+"'
)
_TEXT = re.compile(r'<text class="([^"]+)" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')
_STYLE = re.compile(r"\.(terminal-[\w-]+) \{ ([^}]*) \}")

Cell = tuple[str, float, int]


def cells(svg: str) -> dict[Cell, str]:
    """``("bg", y, column)`` -> colour and ``("ch", y, column)`` -> "character style" for every
    non-blank character (a blank looks the same whatever its text colour)."""
    styles = dict(_STYLE.findall(svg))
    seen: dict[Cell, str] = {}
    for fill, x, y, width in _RECT.findall(svg):
        first = round(float(x) / CELL_WIDTH)
        for column in range(first, first + round(float(width) / CELL_WIDTH)):
            seen["bg", float(y), column] = fill
    for cls, x, y, text in _TEXT.findall(svg):
        first = round(float(x) / CELL_WIDTH)
        for offset, char in enumerate(html.unescape(text)):
            if char not in "\xa0 ":
                seen["ch", float(y), first + offset] = f"{char} {styles.get(cls, cls)}"
    return seen


def differences(before: str, after: str) -> list[tuple[Cell, str | None, str | None]]:
    a, b = cells(before), cells(after)
    return [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]


def main(argv: list[str]) -> int:
    path, rev = argv[0], argv[1] if len(argv) > 1 else "HEAD"
    before = subprocess.run(
        ["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True
    ).stdout
    with open(path, encoding="utf-8") as file:
        found = differences(before, file.read())
    print(f"{path}: " + (f"{len(found)} cells differ" if found else "the same cells"))
    for cell, old, new in found[:20]:
        print(f"  {cell}: {old!r} -> {new!r}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
