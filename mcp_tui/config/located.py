"""The config file by precedence, read only when there is one.

Shared by the TUI, ``call``/``list`` and ``mcp-tui auth`` (which lives in its own module and so
needs this below the command line's main module). The loader (pydantic) is imported only when a
file exists: without one, nothing on the way to the first frame imports pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from mcp_tui.config.paths import ConfigLocation, locate_config
from mcp_tui.errors import ConfigError

if TYPE_CHECKING:
    from mcp_tui.config.load import LoadedConfig


def load_located_config(
    explicit: str | None, environ: Mapping[str, str]
) -> tuple[ConfigLocation, LoadedConfig | None]:
    """The config by precedence; ``None`` when the default file does not exist (not an error)."""
    location = locate_config(explicit, environ)
    if not location.path.exists():
        if location.explicit:
            raise ConfigError(f"Config file {location.describe()} does not exist.")
        return location, None
    # The loader (pydantic) is imported only when there is a file to read: without one, nothing
    # on the way to the first frame imports pydantic.
    from mcp_tui.config.load import load_config

    return location, load_config(location.path, environ)
