"""How the house stands: the numbers a change to the package layout is judged by.

Prints, for ``mcp_tui`` as it is on disk:

- folders that import each other: every pair of folders with file arrows both ways, as
  ``a <-> b  n/m`` (n files of ``a`` import ``b``'s, m the other way), then the one-way total;
- modules per folder;
- the classes with more than one base from mcp_tui (mixin towers), with their bases, and the
  lines of the class and of everything it inherits from mcp_tui;
- the ``Protocol`` classes (how many, and where);
- the largest classes by lines (alone, and with their mcp_tui ancestors);
- the private names (``_name``) one module imports from another, per folder and each one
  (``tests/test_private_names.py`` keeps ``headless``, ``check`` and ``cli`` at none).

A folder is the directory a module file sits in (``ui/literal.py`` is in ``ui``, ``ui/screens/x.py``
in ``ui/screens``, a package's ``__init__`` in its own folder; a ``__main__`` in none, as in
``tests/test_folder_pairs.py``), and the imports are read as the layer and cycle tests read them
(``tests/import_scan.py``: ``import_module`` literals and package walks count).

Run: ``python scripts/house_numbers.py [--top N] [--package DIR]``; for an older commit, export
its ``mcp_tui`` (``git archive REV mcp_tui | tar -x -C DIR``) and pass ``--package DIR/mcp_tui``.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.import_scan import (  # noqa: E402
    folder_arrows,
    folder_of,
    module_files,
    private_imports,
    two_way_pairs,
)

PACKAGE = ROOT / "mcp_tui"


@dataclass
class ClassInfo:
    module: str
    name: str
    lines: int
    bases: list[str]
    protocol: bool
    own_bases: list[str] = field(default_factory=list)


def classes(package: Path) -> dict[str, list[ClassInfo]]:
    """Class name -> every class of that name in the package."""
    found: dict[str, list[ClassInfo]] = defaultdict(list)
    for name, path in module_files(package).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = []
            for base in node.bases:
                target = base.value if isinstance(base, ast.Subscript) else base
                bases.append(ast.unparse(target).rpartition(".")[2])
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            found[node.name].append(ClassInfo(name, node.name, lines, bases, "Protocol" in bases))
    for infos in found.values():
        for info in infos:
            info.own_bases = [b for b in info.bases if b in found and b != info.name]
    return found


def with_ancestors(info: ClassInfo, every: dict[str, list[ClassInfo]]) -> tuple[int, int]:
    """Lines of the class and of all its mcp_tui ancestors, and how many storeys the chain has."""
    seen: set[str] = set()
    total = 0
    storeys = 0

    def climb(node: ClassInfo, depth: int) -> None:
        nonlocal total, storeys
        key = f"{node.module}.{node.name}"
        if key in seen:
            return
        seen.add(key)
        total += node.lines
        storeys = max(storeys, depth)
        for base in node.own_bases:
            climb(every[base][0], depth + 1)

    climb(info, 1)
    return total, storeys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=5, help="how many largest classes to list")
    parser.add_argument(
        "--package",
        type=Path,
        default=PACKAGE,
        help="the mcp_tui folder to count (e.g. one exported from an older commit)",
    )
    args = parser.parse_args(argv)

    package = args.package.resolve()
    arrows = folder_arrows(package)
    pairs = two_way_pairs(arrows)
    print(f"Folders importing each other: {len(pairs)} pairs")
    for (a, b), (there, back) in pairs.items():
        print(f"  {a} <-> {b}  {there}/{back}")
    one_way = sum(1 for (a, b) in arrows if (b, a) not in arrows)
    print(f"  (folder pairs importing one way only: {one_way})")

    files = module_files(package)
    per_folder = Counter(
        folder_of(name, path) or name.rpartition(".")[0] for name, path in files.items()
    )
    print(f"\nModules per folder ({len(files)} modules in {len(per_folder)} folders):")
    for name, count in sorted(per_folder.items()):
        print(f"  {name}: {count}")

    every = classes(package)
    infos = [info for group in every.values() for info in group]
    print("\nClasses with more than one base from mcp_tui (mixin bases):")
    for info in sorted(infos, key=lambda i: (i.module, i.name)):
        if len(info.own_bases) > 1:
            total, storeys = with_ancestors(info, every)
            print(
                f"  {info.module}.{info.name}: {len(info.own_bases)} "
                f"({', '.join(info.own_bases)}); {info.lines} lines own, {total} with its "
                f"mcp_tui ancestors, {storeys} storeys"
            )

    protocols = sorted(f"{i.module}.{i.name}" for i in infos if i.protocol)
    print(f"\nProtocol classes: {len(protocols)}")
    for name in protocols:
        print(f"  {name}")

    print(f"\nLargest classes (own lines; with mcp_tui ancestors), top {args.top}:")
    for info in sorted(infos, key=lambda i: -i.lines)[: args.top]:
        print(f"  {info.module}.{info.name}: {info.lines}")
    ranked = sorted(infos, key=lambda i: -with_ancestors(i, every)[0])
    for info in ranked[: args.top]:
        total, storeys = with_ancestors(info, every)
        print(f"  {info.module}.{info.name}: {total} with ancestors ({storeys} storeys)")

    private = private_imports(package)
    per_importer = Counter(
        folder_of(importer, files[importer]) or importer for importer, _, _ in private
    )
    print(f"\nPrivate names imported from another module: {len(private)}")
    for folder, count in sorted(per_importer.items()):
        print(f"  {folder}: {count}")
    for importer, module, name in private:
        print(f"    {importer} <- {module}.{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
