"""The layers import one way: pure -> session -> ui -> cli (see ARCHITECTURE.md).

Two checks that can fail: a static scan of every module's imports against the layer rules, and a
subprocess that imports every pure and session module and asserts Textual was never loaded.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_tui"

#: Top-level imports each layer may not make (module-name prefixes).
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "schema": ("textual", "mcp", "mcp_types", "mcp_tui.session", "mcp_tui.ui", "mcp_tui.cli"),
    "session": ("textual", "mcp_tui.ui", "mcp_tui.cli"),
    "ui": ("mcp", "mcp_types", "mcp_tui.cli"),
    # The chat (the optional extra): the conversation and its provider, below the UI, no SDK.
    "chat": ("textual", "mcp", "mcp_types", "mcp_tui.ui", "mcp_tui.cli"),
}
#: Session modules that are plain data with no ``mcp`` import, which the config layer builds.
PURE_DATA = (
    "mcp_tui.session.servers",
    "mcp_tui.session.oauth_settings",
    "mcp_tui.session.roots",
)
PURE_MODULES = (
    "config",
    "config_models",
    "config_json",
    "config_text",
    "errors",
    "untrusted",
    "options",
    "paths",
    "answers",
    "collector",
    "startup",
)


def _layer(path: Path) -> str | None:
    rel = path.relative_to(PACKAGE)
    if rel.parts[0] in FORBIDDEN:
        return rel.parts[0]
    if len(rel.parts) == 1 and rel.stem in PURE_MODULES:
        return "schema"  # same rules as the schema engine: pure Python
    return None


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _violations() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = _layer(path)
        if layer is None:
            continue
        for name in _imports(path):
            if name in PURE_DATA:
                continue
            for prefix in FORBIDDEN[layer]:
                if name == prefix or name.startswith(prefix + "."):
                    found.append(f"{path.relative_to(PACKAGE.parent)} imports {name}")
    return found


def test_no_module_imports_against_the_layer_direction() -> None:
    assert _violations() == []


def test_the_scan_sees_a_violation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "mcp_tui"
    (fake / "schema").mkdir(parents=True)
    (fake / "schema" / "bad.py").write_text("import textual.app\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert _violations() == ["mcp_tui/schema/bad.py imports textual.app"]


def test_pure_data_modules_import_nothing_heavy() -> None:
    for name in PURE_DATA:
        path = PACKAGE.parent / (name.replace(".", "/") + ".py")
        assert not [i for i in _imports(path) if i.split(".")[0] in ("mcp", "mcp_types", "textual")]


def test_pure_and_session_modules_never_load_textual() -> None:
    modules = sorted(
        ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        for p in PACKAGE.rglob("*.py")
        if _layer(p) in ("schema", "session", "chat") and p.stem != "__main__"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(sorted(n for n in sys.modules if n == 'textual' or n.startswith('textual.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
        timeout=120,
    )
    assert out.stdout.strip() == "[]"
