"""Interop tests: mcp-tui against npm peers nobody here wrote (see ``interop_peers.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.interop.interop_peers import FORM_EXAMPLE_JS, NodeServer, node_http_server, require_peers


@pytest.fixture(scope="session")
def peers() -> None:
    """The npm peers are installed: skips locally, fails under CI, when they are not."""
    require_peers()


@pytest.fixture
def form_example(peers: None, tmp_path: Path) -> Iterator[NodeServer]:
    """The TypeScript SDK's ``elicitationFormExample.js`` on 127.0.0.1, stopped after the test."""
    with node_http_server(FORM_EXAMPLE_JS, tmp_path / "form-example.log") as server:
        yield server
