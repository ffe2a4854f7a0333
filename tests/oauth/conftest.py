"""OAuth tests: asyncio under anyio, ``oauth_testkit`` importable, and a private data directory.

Every test gets its own ``XDG_DATA_HOME`` (the platform data directory on Linux), so tokens are
written under ``tmp_path`` and never into the real one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import oauth_testkit  # noqa: E402,F401  (configures logging before any MCPServer is built)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    for name in ("BROWSER", "FOLLOW_LOG", "FOLLOW_TAMPER_STATE", "FOLLOW_SUBMIT", "FOLLOW_COOKIES"):
        monkeypatch.delenv(name, raising=False)
    return data
