"""Importing a test fixture module by its path: the tests directory is not a package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_by_path(key: str, path: Path) -> ModuleType:
    """Import ``path`` once as the module ``key`` (kept in ``sys.modules``) and return it."""
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]
