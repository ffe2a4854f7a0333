"""Where mcp-tui keeps its files, per platform (``platformdirs``), and how the config is found.

The config file is looked up in this order: ``--config FILE`` on the command line, then the
``MCP_TUI_CONFIG`` environment variable, then ``<user config dir>/mcp-tui/config.toml``. Only the
last one may be missing without an error: a file the user *named* that does not exist is a mistake
worth stopping for, while a missing default just means "no config yet".

Pure: no ``mcp``, no ``textual``; ``platformdirs`` is imported lazily because ``mcp-tui --help``
should not pay for it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from enum import Enum
from pathlib import Path

from msgspec import Struct

APP_NAME = "mcp-tui"
#: Environment variable naming the config file (weaker than ``--config``).
CONFIG_ENV = "MCP_TUI_CONFIG"
CONFIG_FILE_NAME = "config.toml"


def config_dir() -> Path:
    """The per-user config directory, e.g. ``~/.config/mcp-tui`` on Linux."""
    import platformdirs

    return platformdirs.user_config_path(APP_NAME, appauthor=False)


def default_config_file() -> Path:
    """The config file used when neither ``--config`` nor ``MCP_TUI_CONFIG`` names one."""
    return config_dir() / CONFIG_FILE_NAME


def log_dir() -> Path:
    """Where server stderr logs go unless the config or command line says otherwise."""
    import platformdirs

    return platformdirs.user_log_path(APP_NAME, appauthor=False)


def data_dir() -> Path:
    """Per-user data (saved answers and other state that is not configuration)."""
    import platformdirs

    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def theme_file() -> Path:
    """Where the TUI remembers the theme chosen in the palette (state, not configuration)."""
    return data_dir() / "theme"


class ConfigSource(Enum):
    """Which rule chose the config file; decides whether a missing file is an error."""

    COMMAND_LINE = "--config"
    ENVIRONMENT = CONFIG_ENV
    DEFAULT = "default location"


class ConfigLocation(Struct, frozen=True):
    """The config file to read and why that one."""

    path: Path
    source: ConfigSource

    @property
    def explicit(self) -> bool:
        """True when the user named the file, so its absence is an error."""
        return self.source is not ConfigSource.DEFAULT

    def describe(self) -> str:
        """``/path/config.toml (from MCP_TUI_CONFIG)`` for messages."""
        if self.source is ConfigSource.DEFAULT:
            return f"{self.path} (the default location)"
        return f"{self.path} (from {self.source.value})"


def expand_user_path(raw: str | os.PathLike[str]) -> Path:
    """``~`` expanded; relative paths stay relative (the caller decides relative to what)."""
    return Path(os.path.expanduser(os.fspath(raw)))


def locate_config(
    explicit: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> ConfigLocation:
    """Apply the precedence ``--config`` > ``MCP_TUI_CONFIG`` > platform config dir.

    An empty ``MCP_TUI_CONFIG`` counts as unset (a common way to "turn it off" in a shell).
    """
    env = os.environ if environ is None else environ
    if explicit is not None and os.fspath(explicit) != "":
        return ConfigLocation(expand_user_path(explicit), ConfigSource.COMMAND_LINE)
    from_env = env.get(CONFIG_ENV, "")
    if from_env.strip():
        return ConfigLocation(expand_user_path(from_env), ConfigSource.ENVIRONMENT)
    return ConfigLocation(default_config_file(), ConfigSource.DEFAULT)


def default_stderr_log(server_name: str) -> Path:
    """A per-server stderr log file in the log directory, with a file-system-safe name."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in server_name) or "server"
    return log_dir() / f"{safe.lstrip('.') or 'server'}.stderr.log"
