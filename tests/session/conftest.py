"""Session tests: ``session_testkit`` imported before any test module (it configures logging)."""

from __future__ import annotations

from tests.session import session_testkit  # noqa: F401  (configures logging before any MCPServer is built)
