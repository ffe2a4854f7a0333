"""No module reaches for another module's private names in ``headless/``, ``check/`` and ``cli/``.

A ``_name`` is a module's own business: importing it from elsewhere is a seam nobody declared,
which breaks the day the owner renames it. The scan is ``tests/import_scan.private_imports``
(``from a.b import _name``, and ``b._name`` on an imported module), which
``scripts/house_numbers.py`` counts with.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_scan import private_imports

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_tui"
#: The folders kept free of them (issue: one headless engine, no borrowed privates).
KEPT = ("mcp_tui.headless", "mcp_tui.check", "mcp_tui.cli")


def test_headless_check_and_cli_import_no_private_names_of_other_modules() -> None:
    found = [
        f"{importer} imports {module}.{name}"
        for importer, module, name in private_imports(PACKAGE)
        if importer.startswith(KEPT)
    ]
    assert found == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from pkg.a import _hidden\n", [("pkg.b", "pkg.a", "_hidden")]),
        ("from pkg import a\nx = a._hidden\n", [("pkg.b", "pkg.a", "_hidden")]),
        ("import pkg.a as a\nx = a._hidden()\n", [("pkg.b", "pkg.a", "_hidden")]),
        ("from pkg.a import visible, __version__\n", []),
        ("from pkg import a\nx = a.__name__\n", []),
    ],
)
def test_the_scan_finds_a_borrowed_private_name(
    tmp_path: Path, source: str, expected: list[tuple[str, str, str]]
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("_hidden = 1\nvisible = 2\n", encoding="utf-8")
    (package / "b.py").write_text(source, encoding="utf-8")
    assert private_imports(package) == expected


def test_a_module_may_use_its_own_private_names(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("_hidden = 1\nfrom pkg.a import _hidden\n", encoding="utf-8")
    assert private_imports(package) == []
