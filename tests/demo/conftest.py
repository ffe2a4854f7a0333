"""Demo tests: ``demo_testkit`` imported before any test module (it configures logging)."""

from __future__ import annotations

from tests.demo import demo_testkit  # noqa: F401  (configures logging before any MCPServer is built)
