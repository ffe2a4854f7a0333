"""One exception tree for mcp-tui; each message is written for the person reading it.

Fatal start-up problems (bad arguments, config, commands) end the program with one clear paragraph
and a non-zero exit code; nothing here should ever surface as a traceback.
"""

from __future__ import annotations

from msgspec import Struct


class McpTuiError(Exception):
    """Base of every error mcp-tui raises on purpose."""


class UsageError(McpTuiError):
    """The command line cannot be understood (exit code 2)."""


class ConfigError(McpTuiError):
    """A config file is missing or invalid; the message names the file, key and line."""


class ConnectionFailed(McpTuiError):
    """A server could not be started or reached."""


class SchemaProblem(Struct, frozen=True):
    """One reason a requested schema is outside the subset we render, with its property path."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class SchemaError(McpTuiError):
    """A requested schema cannot be rendered as a form; lists every problem found."""

    def __init__(self, problems: list[SchemaProblem]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"- {p}" for p in self.problems)
        super().__init__(f"The requested schema cannot be shown as a form:\n{lines}")
