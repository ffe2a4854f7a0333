"""No two modules of mcp_tui import each other, directly or through others.

Every import counts: top-level, inside a function (a deferred import is still a dependency, only a
later one), under ``if TYPE_CHECKING`` (the reader still has to read both to read either), a
module named to ``importlib.import_module`` and every module a package walk reaches (read by
``tests/import_scan.py``, shared with the layer test). A circle means neither module can be
understood, tested or moved alone; break it by moving what both need down, or by passing it in (a
Protocol, a callable).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.import_scan import import_graph

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_tui"


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


def test_no_two_modules_import_each_other() -> None:
    found = circles(import_graph(PACKAGE))
    assert found == [], "modules that import each other: " + "; ".join(
        " <-> ".join(c) for c in found
    )


@pytest.mark.parametrize(
    "second",
    [
        "from mcp_tui.first import x\n",
        "def later():\n    from mcp_tui import first\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import first\n",
        "import importlib\ndef later():\n    return importlib.import_module('mcp_tui.first')\n",
        "import asyncio, importlib\n"
        "async def later():\n"
        "    await asyncio.to_thread(importlib.import_module, 'mcp_tui.first')\n",
        "import pkgutil, mcp_tui\n"
        "def later():\n"
        "    return list(pkgutil.walk_packages(mcp_tui.__path__, 'mcp_tui.'))\n",
    ],
)
def test_a_circle_is_seen_however_it_is_imported(tmp_path: Path, second: str) -> None:
    fake = tmp_path / "mcp_tui"
    fake.mkdir()
    (fake / "__init__.py").write_text("", encoding="utf-8")
    (fake / "first.py").write_text("from mcp_tui.second import y\nx = 1\n", encoding="utf-8")
    (fake / "second.py").write_text(second + "y = 2\n", encoding="utf-8")
    assert circles(import_graph(fake)) == [["mcp_tui.first", "mcp_tui.second"]]
