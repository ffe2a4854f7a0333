"""No two folders of mcp_tui import each other: each folder is a room on one floor, and a reader
who opens it knows which rooms it stands on and which stand on it.

How this reads "two folders import each other (a package and its own subpackage count as one)":

- A folder is the directory a module file sits in. ``ui/literal.py`` is in ``ui``,
  ``ui/screens/x.py`` in ``ui/screens``: a subfolder is a room of its own, so ``ui`` and
  ``ui/screens`` importing each other is a pair (it is the pair the issue was filed about: the
  ``ui`` root held both the app and the basement every screen stands on).
- A package and its folder are one: ``ui/app/__init__.py`` is in ``ui/app``, so importing the
  package ``mcp_tui.ui.app`` is an arrow into ``ui/app``, and a package's ``__init__`` naming its
  own modules (a re-export) is no arrow at all.
- A ``__main__`` (``python -m mcp_tui``) is in no folder: it is run, never imported, and belongs
  to the command it starts.
- Imports are read as the layer and cycle tests read them (``tests/import_scan.py``): everywhere
  in a module, ``import_module`` literals and package walks included.

A pair is broken by moving what both folders need down (or up) to where one of them stands, as
the plain records went to ``config/`` and the URL check to ``url/``. :data:`KNOWN_PAIRS` lists
pairs still waiting for their part of the work, each with why it exists and what removes it; an
entry is deleted with the pair, and a stale entry fails too. The goal is an empty list.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.import_scan import folder_arrows, two_way_pairs

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_tui"

#: (folder, folder), sorted -> why the two still import each other and which part of the work
#: removes the pair, e.g. ``("mcp_tui.ui", "mcp_tui.ui.screens"): "the ui root holds the app;
#: issue 31, ui/app/ for the roof"``. Empty since the url/, config/ and ui/app/ moves.
KNOWN_PAIRS: dict[tuple[str, str], str] = {}


def _report(package: Path, pairs: list[tuple[str, str]]) -> str:
    """Each pair with its arrow counts both ways and the file arrows that make it."""
    arrows = folder_arrows(package)
    counts = two_way_pairs(arrows)
    lines = []
    for a, b in pairs:
        there, back = counts[(a, b)]
        lines.append(f"{a} <-> {b}: {there}/{back} file arrows")
        # The thinner direction first: it is usually the door that goes the wrong way.
        both = sorted((arrows[(a, b)], arrows[(b, a)]), key=len)
        for source, target in [*both[0], *both[1]][:12]:
            lines.append(f"    {source} -> {target}")
    return "\n".join(lines)


def unexpected_pairs(package: Path) -> list[tuple[str, str]]:
    return [pair for pair in two_way_pairs(folder_arrows(package)) if pair not in KNOWN_PAIRS]


def test_no_two_folders_import_each_other() -> None:
    found = unexpected_pairs(PACKAGE)
    assert found == [], "folders that import each other:\n" + _report(PACKAGE, found)


def test_every_known_pair_still_exists() -> None:
    """A pair removed leaves the list with it, so the list only ever shrinks."""
    gone = sorted(set(KNOWN_PAIRS) - set(two_way_pairs(folder_arrows(PACKAGE))))
    assert gone == [], f"no longer import each other, delete from KNOWN_PAIRS: {gone}"


def _tree(root: Path, files: dict[str, str]) -> Path:
    fake = root / "mcp_tui"
    for where, source in {"__init__.py": "", **files}.items():
        (fake / where).parent.mkdir(parents=True, exist_ok=True)
        (fake / where).write_text(source, encoding="utf-8")
    return fake


def test_a_pair_is_seen_with_its_arrows(tmp_path: Path) -> None:
    fake = _tree(
        tmp_path,
        {
            "ui/__init__.py": "",
            "ui/text.py": "def later():\n    from mcp_tui.ui.screens import form\n",
            "ui/screens/__init__.py": "",
            "ui/screens/form.py": "from mcp_tui.ui import text\n",
            "ui/screens/other.py": "import importlib\nimportlib.import_module('mcp_tui.ui.text')\n",
        },
    )
    assert unexpected_pairs(fake) == [("mcp_tui.ui", "mcp_tui.ui.screens")]
    report = _report(fake, [("mcp_tui.ui", "mcp_tui.ui.screens")])
    assert "mcp_tui.ui <-> mcp_tui.ui.screens: 1/2 file arrows" in report
    assert "mcp_tui.ui.screens.other -> mcp_tui.ui.text" in report


def test_a_package_and_its_folder_are_one(tmp_path: Path) -> None:
    """Importing a package is importing its folder; its ``__init__`` re-exporting its own
    modules, and a ``__main__`` starting the command line, make no pair."""
    fake = _tree(
        tmp_path,
        {
            "__main__.py": "from mcp_tui.cli.main import main\n",
            "errors.py": "",
            "cli/__init__.py": "",
            "cli/main.py": "from mcp_tui.errors import x\nfrom mcp_tui.ui.app import App\n",
            "ui/__init__.py": "",
            "ui/text.py": "",
            "ui/app/__init__.py": "from mcp_tui.ui.app.app import App\n",
            "ui/app/app.py": "from mcp_tui.ui import text\n",
        },
    )
    assert unexpected_pairs(fake) == []


def test_a_deliberate_pair_in_the_real_tree_fails(tmp_path: Path) -> None:
    """The real tree with one door added the wrong way (the config naming a session module)."""
    copy = tmp_path / "mcp_tui"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "config" / "wrong_way.py").write_text(
        "from mcp_tui.session.naming import x\n", encoding="utf-8"
    )
    assert ("mcp_tui.config", "mcp_tui.session") in unexpected_pairs(copy)
