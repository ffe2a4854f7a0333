"""No two modules of mcp_tui import each other, directly or through others.

Every import counts: top-level, inside a function (a deferred import is still a dependency, only a
later one) and under ``if TYPE_CHECKING`` (the reader still has to read both to read either). A
circle means neither module can be understood, tested or moved alone; break it by moving what both
need down, or by passing it in (a Protocol, a callable).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_tui"


def _modules(package: Path) -> dict[str, Path]:
    found = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the mcp_tui modules it imports anywhere in its text."""
    modules = _modules(package)

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            for target in targets:
                found = resolve(target)
                if found is not None and found != name:
                    graph[name].add(found)
    return graph


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
    ],
)
def test_a_circle_is_seen_however_it_is_imported(tmp_path: Path, second: str) -> None:
    fake = tmp_path / "mcp_tui"
    fake.mkdir()
    (fake / "__init__.py").write_text("", encoding="utf-8")
    (fake / "first.py").write_text("from mcp_tui.second import y\nx = 1\n", encoding="utf-8")
    (fake / "second.py").write_text(second + "y = 2\n", encoding="utf-8")
    assert circles(import_graph(fake)) == [["mcp_tui.first", "mcp_tui.second"]]
