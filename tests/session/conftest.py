"""Session tests: asyncio under anyio, and the ``session_testkit`` helpers importable."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import session_testkit  # noqa: E402,F401  (configures logging before any MCPServer is built)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
