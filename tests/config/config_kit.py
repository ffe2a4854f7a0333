"""Writing a config file for a test, and the one-paragraph error loading it gives."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_tui.config.load import load_config
from mcp_tui.errors import ConfigError


def write(tmp_path: Path, text: str, name: str) -> Path:
    """``text`` (dedented) written to ``tmp_path / name``."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def error_of(path: Path, environ: dict[str, str] | None = None) -> str:
    """The message of the ``ConfigError`` loading ``path`` raises; it is one paragraph."""
    with pytest.raises(ConfigError) as info:
        load_config(path, environ or {})
    message = str(info.value)
    assert "\n" not in message, "one paragraph"
    return message
