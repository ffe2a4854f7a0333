"""The packages import one way (see docs/architecture.md):

    errors, untrusted, process, url, config, schema  (pure Python)
        -> session (the MCP SDK)  -> ui (Textual) / headless (no screen)  -> cli

with ``chat`` (the optional extra: a model, no SDK, no Textual) between session and ui, and
``demo`` (the bundled server) standing alone. Checks that can fail: a static scan of every
module's imports (top-level, function-local and ``TYPE_CHECKING`` alike, and the doors by name:
``import_module`` literals and package walks, read by ``tests/import_scan.py``) against the rules; a
subprocess that imports every module below the UI and asserts Textual was never loaded; and a run
on a broken config file that must end before Textual is imported.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.import_scan import imported_names, module_files, unread_imports, walks_a_package

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_tui"

_SDK = ("mcp", "mcp_types")
_ABOVE_SESSION = ("mcp_tui.ui", "mcp_tui.cli", "mcp_tui.headless", "mcp_tui.chat")
#: Imports each package may not make (module-name prefixes), by the package's top-level name.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    # Pure Python: read before any screen exists, usable by every layer above.
    "errors": ("textual", *_SDK, "mcp_tui.session", *_ABOVE_SESSION, "mcp_tui.demo"),
    "untrusted": ("textual", *_SDK, "mcp_tui.session", *_ABOVE_SESSION, "mcp_tui.demo"),
    "process": ("textual", *_SDK, "mcp_tui.session", *_ABOVE_SESSION, "mcp_tui.demo"),
    # A server-chosen URL checked and opened: used by the UI and headless, no SDK, no Textual.
    "url": ("textual", *_SDK, "mcp_tui.session", *_ABOVE_SESSION, "mcp_tui.demo"),
    # The config and the plain records it builds (server specs, OAuth settings, roots, the chat's
    # settings) live on this floor, so it names nothing above it, not even a record.
    "config": (
        "textual",
        *_SDK,
        "pydantic_ai",
        "mcp_tui.session",
        *_ABOVE_SESSION,
        "mcp_tui.demo",
    ),
    "schema": ("textual", *_SDK, "mcp_tui.session", *_ABOVE_SESSION, "mcp_tui.config"),
    # ``mcp-tui check``'s rules: pure functions of the JSON a server sent (headless gathers it).
    "check": (
        "textual",
        *_SDK,
        "mcp_tui.session",
        *_ABOVE_SESSION,
        "mcp_tui.config",
        "mcp_tui.demo",
    ),
    # ``mcp-tui test``'s pure half: the test file, its loader and writer, the comparison of a
    # call with its expectations. The running half is in ``headless``.
    "testbench": ("textual", *_SDK, "mcp_tui.session", *_ABOVE_SESSION, "mcp_tui.demo"),
    # A session written down to share: pure rendering of plain records (the UI gathers them).
    "export": ("textual", *_SDK, "mcp_tui.session", *_ABOVE_SESSION, "mcp_tui.demo"),
    "session": ("textual", *_ABOVE_SESSION, "mcp_tui.demo"),
    # The chat (the optional extra): the conversation and its provider, below the UI, no SDK.
    "chat": ("textual", *_SDK, "mcp_tui.ui", "mcp_tui.cli", "mcp_tui.headless"),
    "headless": ("textual", "mcp_tui.ui", "mcp_tui.cli", "mcp_tui.chat"),
    "ui": (*_SDK, "mcp_tui.cli", "mcp_tui.headless"),
    # The top: it builds the app or the headless run; every rule above keeps others out of it.
    "cli": (),
    # The pytest plugin and the Python API of ``mcp-tui test``: a top, like the command line.
    "testing": ("textual", "mcp_tui.ui", "mcp_tui.cli"),
    # The bundled demo server: a server for any client, it imports nothing of mcp-tui's client.
    "demo": (
        "textual",
        "mcp_tui.errors",
        "mcp_tui.untrusted",
        "mcp_tui.process",
        "mcp_tui.url",
        "mcp_tui.config",
        "mcp_tui.schema",
        "mcp_tui.session",
        *_ABOVE_SESSION,
    ),
}
#: Packages whose modules must never load Textual, even indirectly.
BELOW_THE_UI = (
    "errors",
    "untrusted",
    "process",
    "url",
    "config",
    "schema",
    "check",
    "testbench",
    "session",
    "chat",
    "headless",
)


def _layer(path: Path) -> str | None:
    rel = path.relative_to(PACKAGE)
    top = rel.parts[0] if len(rel.parts) > 1 else rel.stem
    return top if top in FORBIDDEN else None


def _violations() -> list[str]:
    """Every import against the rules, read as :mod:`tests.import_scan` reads them: statements
    anywhere in the module, ``import_module`` literals and package walks."""
    found = []
    modules = module_files(PACKAGE)
    for module, path in modules.items():
        layer = _layer(path)
        if layer is None:
            continue
        for name in imported_names(path, module, modules):
            for prefix in FORBIDDEN[layer]:
                if prefix.startswith(f"mcp_tui.{layer}"):
                    continue
                if name == prefix or name.startswith(prefix + "."):
                    found.append(f"{path.relative_to(PACKAGE.parent)} imports {name}")
                    break
    return sorted(set(found))


def test_every_module_belongs_to_a_layer() -> None:
    loose = [
        str(p.relative_to(PACKAGE.parent))
        for p in PACKAGE.rglob("*.py")
        if _layer(p) is None and p.name not in ("__init__.py", "__main__.py")
    ]
    assert loose == [], "a new top-level package needs its rules in FORBIDDEN"


def test_no_module_imports_against_the_layer_direction() -> None:
    assert _violations() == []


@pytest.mark.parametrize(
    ("where", "source", "expected"),
    [
        ("schema/bad.py", "import textual.app\n", "imports textual.app"),
        ("config/bad.py", "def f():\n    from mcp_tui.ui import app\n", "imports mcp_tui.ui"),
        ("config/bad2.py", "from mcp_tui.session import naming\n", "imports mcp_tui.session"),
        ("config/bad3.py", "from mcp_tui.chat.store import x\n", "imports mcp_tui.chat.store"),
        ("config/bad4.py", "import pydantic_ai\n", "imports pydantic_ai"),
        ("headless/bad.py", "from mcp_tui.cli import main\n", "imports mcp_tui.cli"),
        ("demo/bad.py", "from mcp_tui.untrusted import visible\n", "imports mcp_tui.untrusted"),
        ("errors.py", "from mcp_tui.session import connection\n", "imports mcp_tui.session"),
        ("testbench/bad.py", "from mcp_tui.headless import run\n", "imports mcp_tui.headless"),
        ("testbench/bad2.py", "import mcp\n", "imports mcp"),
        ("url/bad.py", "from mcp.client import session\n", "imports mcp.client"),
        ("url/bad2.py", "def f():\n    import textual.app\n", "imports textual.app"),
        # Doors by name: a literal handed to import_module, directly or through a thread.
        (
            "config/bad5.py",
            "import importlib\nm = importlib.import_module('mcp_tui.ui.text')\n",
            "imports mcp_tui.ui.text",
        ),
        (
            "session/bad.py",
            "import asyncio, importlib\n"
            "async def f():\n"
            "    await asyncio.to_thread(importlib.import_module, 'textual.app')\n",
            "imports textual.app",
        ),
    ],
)
def test_the_scan_sees_a_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, source: str, expected: str
) -> None:
    fake = tmp_path / "mcp_tui"
    (fake / where).parent.mkdir(parents=True, exist_ok=True)
    (fake / where).write_text(source, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    found = _violations()
    assert len(found) == 1 and found[0].startswith(f"mcp_tui/{where} {expected}"), found


def test_a_package_walk_imports_every_module_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``pkgutil.walk_packages(pkg.__path__, "pkg.")`` reaches every module below ``pkg``, and
    each of them counts; ``iter_modules`` reaches only the direct children."""
    fake = tmp_path / "mcp_tui"
    for where in ("ui/__init__.py", "ui/top.py", "ui/screens/__init__.py", "ui/screens/deep.py"):
        (fake / where).parent.mkdir(parents=True, exist_ok=True)
        (fake / where).write_text("", encoding="utf-8")
    (fake / "headless").mkdir()
    (fake / "headless" / "walks.py").write_text(
        "import pkgutil\n"
        "for m in pkgutil.walk_packages(mcp_tui.ui.__path__, 'mcp_tui.ui.'):\n    pass\n",
        encoding="utf-8",
    )
    (fake / "headless" / "lists.py").write_text(
        "import pkgutil\nfor m in pkgutil.iter_modules(mcp_tui.ui.__path__, 'mcp_tui.ui.'):\n"
        "    pass\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert _violations() == [
        "mcp_tui/headless/lists.py imports mcp_tui.ui.screens",
        "mcp_tui/headless/lists.py imports mcp_tui.ui.top",
        "mcp_tui/headless/walks.py imports mcp_tui.ui.screens",
        "mcp_tui/headless/walks.py imports mcp_tui.ui.screens.deep",
        "mcp_tui/headless/walks.py imports mcp_tui.ui.top",
    ]


def test_every_import_by_name_is_one_the_scan_reads() -> None:
    """An ``import_module`` whose argument is no literal is a door the scan cannot see; the only
    one allowed is the import of what a package walk in the same module just named."""
    unread = [
        str(path.relative_to(PACKAGE.parent))
        for path in sorted(PACKAGE.rglob("*.py"))
        if unread_imports(path) and not walks_a_package(path)
    ]
    assert unread == [], "import a literal module name (or walk the package)"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter (nothing imported yet), from the repository's root."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
        timeout=120,
    )


def test_modules_below_the_ui_never_load_textual() -> None:
    modules = sorted(
        ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        for p in PACKAGE.rglob("*.py")
        if _layer(p) in BELOW_THE_UI and p.stem != "__main__"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(sorted(n for n in sys.modules if n == 'textual' or n.startswith('textual.')))\n"
    )
    out = _python(code)
    assert out.stdout.strip() == "[]"


def test_the_config_is_read_before_any_screen_exists(tmp_path: Path) -> None:
    """A broken config file ends the run with its message before Textual is even imported: the
    command line reads the config first, so no screen can come up on a half-read file."""
    bad = tmp_path / "bad.toml"
    bad.write_text("[servers.x]\ncommand = 'python'\nnot_a_key = 1\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from mcp_tui.cli.main import main\n"
        f"code = main(['--config', {str(bad)!r}])\n"
        "print(code, any(n == 'textual' or n.startswith('textual.') for n in sys.modules))\n"
    )
    out = _python(code)
    assert out.stdout.split() == ["2", "False"], out.stderr
    assert "not_a_key" in out.stderr and "line 3" in out.stderr
