"""Headless tests: kept away from the real user's config and log directories, as the CLI's are."""

from __future__ import annotations

from tests.cli.conftest import isolated_dirs

__all__ = ["isolated_dirs"]
