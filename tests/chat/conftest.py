"""The chat tests need the ``chat`` extra (pydantic-ai); CI installs it with the test extra."""

from __future__ import annotations

import os

import pytest

if importlib_missing := __import__("importlib.util").util.find_spec("pydantic_ai") is None:
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI must install the chat extra (pip install -e '.[test]')")
    pytest.skip("the chat extra is not installed", allow_module_level=True)
