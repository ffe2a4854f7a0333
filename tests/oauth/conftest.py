"""OAuth tests: ``oauth_testkit`` imported first, and a private data directory.

Every test gets its own ``XDG_DATA_HOME`` (the platform data directory on Linux), so tokens are
written under ``tmp_path`` and never into the real one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.oauth import oauth_testkit  # noqa: F401  (configures logging before any MCPServer is built)


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    for name in ("BROWSER", "FOLLOW_LOG", "FOLLOW_TAMPER_STATE", "FOLLOW_SUBMIT", "FOLLOW_COOKIES"):
        monkeypatch.delenv(name, raising=False)
    return data
