"""One exception tree for mcp-tui, and the exit codes; each message is written for its reader.

Fatal start-up problems (bad arguments, config, commands) end the program with one clear paragraph
and a non-zero exit code; nothing here should ever surface as a traceback. The codes live here, not
with the argument parsers, because both the command line and the headless runner end with them
(``mcp-tui --help`` lists them: ``cli/args.py``).
"""

from __future__ import annotations

from msgspec import Struct

EXIT_OK = 0
#: The tool call failed: ``isError``, or a JSON-RPC error answered the call.
EXIT_TOOL_ERROR = 1
#: Bad arguments, a missing or invalid config or answers file.
EXIT_USAGE = 2
#: The server could not be started or reached, or the connection was lost.
EXIT_CONNECTION = 3
#: An elicitation request could not be answered validly (a scripted answer does not fit).
EXIT_ELICITATION = 4
#: Ctrl+C.
EXIT_INTERRUPTED = 130


class McpTuiError(Exception):
    """Base of every error mcp-tui raises on purpose."""


class UsageError(McpTuiError):
    """The command line cannot be understood (exit code 2)."""


class ConfigError(McpTuiError):
    """A config file is missing or invalid; the message names the file, key and line."""


class ConnectionFailed(McpTuiError):
    """A server could not be started or reached."""


class TaskEnded(McpTuiError):
    """A server ended a tool call's task without its result (it cancelled it, or said it
    completed without one); the message is the sentence the person reads."""


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
