"""Keep CLI tests away from the real user's config and log directories."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_tui.config import paths


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The platform directories point into ``tmp_path``; ``MCP_TUI_CONFIG`` is unset, and so is
    ``GITHUB_ACTIONS`` (where the suite runs on Actions, ``mcp-tui test`` would add its GitHub
    output to every test's; ``test_runtests_github.py`` sets it itself)."""
    home = tmp_path / "platform"
    monkeypatch.setattr(paths, "config_dir", lambda: home / "config")
    monkeypatch.setattr(paths, "log_dir", lambda: home / "log")
    monkeypatch.setattr(paths, "data_dir", lambda: home / "data")
    monkeypatch.delenv("MCP_TUI_CONFIG", raising=False)
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE"):
        monkeypatch.delenv(name, raising=False)
    yield home
