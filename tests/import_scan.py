"""Every import a module of mcp_tui makes, read from its text: the one reading the layer test, the
cycle test and the folder test share (and ``scripts/house_numbers.py`` counts with).

A door no test sees is a door nobody guards, so besides ``import`` statements (top-level, inside a
function, under ``TYPE_CHECKING`` alike) the scan reads the two dynamic forms the code uses:

- ``importlib.import_module("mcp_tui.x")``, also when the function is handed on with its name
  (``asyncio.to_thread(importlib.import_module, "mcp_tui.x")``); an f-string counts as importing
  its literal head (``f"jsonschema.{name}"`` imports ``jsonschema``);
- ``pkgutil.walk_packages(pkg.__path__, "pkg.")`` imports every module under ``pkg``
  (``iter_modules`` only its direct children): the walk reaches them all, whatever it does next.

An ``import_module`` whose argument is none of these is reported by :func:`unread_imports`, so
the tests can insist that every such call is explained by a walk in the same module.
"""

from __future__ import annotations

import ast
from pathlib import Path

_WALKS = {"walk_packages": True, "iter_modules": False}


def module_files(package: Path) -> dict[str, Path]:
    """Dotted module name -> its file, for every ``.py`` under ``package`` (``__init__`` is the
    package's own name)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _callee(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def _module_string(node: ast.expr) -> str | None:
    """The module a string argument names: a literal whole, an f-string by its literal head."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str) and "." in first.value:
            return first.value.rpartition(".")[0] or None
    return None


def _walked(call: ast.Call, modules: dict[str, Path]) -> list[str]:
    recursive = _WALKS[_callee(call.func) or ""]
    prefix: str | None = None
    if len(call.args) > 1:
        prefix = _module_string(call.args[1])
    for keyword in call.keywords:
        if keyword.arg == "prefix" and isinstance(keyword.value, ast.Constant):
            prefix = str(keyword.value.value)
    package = prefix.removesuffix(".") if prefix else None
    if package is None and call.args:
        path_of = _dotted(call.args[0])
        if path_of and path_of.endswith(".__path__"):
            package = path_of.removesuffix(".__path__")
    if not package:
        return []
    depth = package.count(".") + 1
    return [
        name
        for name in modules
        if name.startswith(package + ".") and (recursive or name.count(".") == depth)
    ]


def _dynamic(tree: ast.AST, modules: dict[str, Path]) -> tuple[list[str], int]:
    """Modules named by ``import_module`` and package walks, and how many ``import_module``
    calls name none."""
    names: list[str] = []
    unread = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = _callee(node.func)
        if callee in _WALKS:
            names.extend(_walked(node, modules))
        arguments: list[ast.expr] = []
        if callee == "import_module" and node.args:
            arguments.append(node.args[0])
        arguments.extend(
            after
            for before, after in zip(node.args, node.args[1:], strict=False)
            if _callee(before) == "import_module"
        )
        for argument in arguments:
            name = _module_string(argument)
            if name is None:
                unread += 1
            else:
                names.append(name)
    return names, unread


def imported_names(path: Path, name: str, modules: dict[str, Path]) -> list[str]:
    """Every module name ``path`` (module ``name``) imports, absolute, in order, once each.

    ``from a.b import c`` counts as importing ``a.b.c`` when that is one of ``modules`` (or a
    file beside them), else ``a.b``. Names outside mcp_tui (``textual.app``) are kept as written.
    """
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    root = path.parents[len(name.split(".")) - (0 if path.name == "__init__.py" else 1)]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                where = root / full.replace(".", "/")
                is_module = full in modules or where.is_dir() or where.with_suffix(".py").is_file()
                names.append(full if is_module else base)
    dynamic, _ = _dynamic(tree, modules)
    names.extend(dynamic)
    return list(dict.fromkeys(names))


def unread_imports(path: Path) -> int:
    """How many ``import_module`` calls in ``path`` name no module the scan can read."""
    return _dynamic(ast.parse(path.read_text(encoding="utf-8")), {})[1]


def walks_a_package(path: Path) -> bool:
    """Whether ``path`` walks a package (whose modules it then imports by computed names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Call) and _callee(node.func) in _WALKS for node in ast.walk(tree)
    )


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports anywhere in its text (a name below a
    module, like ``mcp_tui.x.function``, counts as that module)."""
    modules = module_files(package)

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for target in imported_names(path, name, modules):
            found = resolve(target)
            if found is not None and found != name:
                graph[name].add(found)
    return graph


def folder_of(name: str, path: Path) -> str | None:
    """The folder (dotted) module ``name`` sits in: the directory of its file, so a package's
    ``__init__`` is in its own folder. ``None`` for a ``__main__``: a program's entry point, run
    by ``python -m`` and imported by nothing, belongs to the command it starts, not to a room."""
    if path.stem == "__main__":
        return None
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def folder_arrows(package: Path) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(folder a, folder b) -> the file arrows (module in a, module in b) from a to b."""
    files = module_files(package)
    arrows: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for source, targets in import_graph(package).items():
        for target in sorted(targets):
            a, b = folder_of(source, files[source]), folder_of(target, files[target])
            if a is not None and b is not None and a != b:
                arrows.setdefault((a, b), []).append((source, target))
    return arrows


def two_way_pairs(
    arrows: dict[tuple[str, str], list[tuple[str, str]]],
) -> dict[tuple[str, str], tuple[int, int]]:
    """Every pair of folders with arrows both ways -> (arrows a->b, arrows b->a), with a < b."""
    return {
        (a, b): (len(there), len(arrows[(b, a)]))
        for (a, b), there in sorted(arrows.items())
        if a < b and (b, a) in arrows
    }


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(package: Path) -> list[tuple[str, str, str]]:
    """Every (importing module, module, private name) where a module of ``package`` reaches for
    a ``_name`` of another: ``from a.b import _name``, or ``b._name`` on a module it imported
    (``from a import b``, ``import a.b as b``). A module's own privates are its business; another
    module's are a seam nobody declared."""
    modules = module_files(package)
    found: list[tuple[str, str, str]] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in modules:
                        aliases[alias.asname or alias.name] = full
                    elif node.module in modules and node.module != name and _private(alias.name):
                        found.append((name, node.module, alias.name))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in modules:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and _private(node.attr)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and aliases[node.value.id] != name
            ):
                found.append((name, aliases[node.value.id], node.attr))
    return sorted(set(found))
