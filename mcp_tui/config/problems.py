"""A mistake in a config file, as one paragraph that names the file, the key path and the line.

Kept apart from the loader so both the loader and the server-spec builder (``specs.py``) can raise
the same way: every problem becomes a :class:`~mcp_tui.errors.ConfigError` a person can act on,
pydantic's messages reworded (``unknown key``, ``this key is required``) and the first problem in
full, the next three listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mcp_tui.config.text import KeyPath, find_line, format_key_path
from mcp_tui.errors import ConfigError


class Locator:
    """Turns key paths into ``line N`` using the source text."""

    def __init__(self, path: Path, lines: Mapping[KeyPath, int]) -> None:
        self.path = path
        self.lines = lines

    def where(self, key: KeyPath) -> str:
        line = find_line(self.lines, key)
        at = f", line {line}" if line is not None else ""
        return f"{self.path}{at}: {format_key_path(key)}"

    def error(self, key: KeyPath, message: str) -> ConfigError:
        return ConfigError(f"Config file {self.where(key)}: {message}")

    def from_validation(
        self, prefix: KeyPath, exc: ValidationError, rename: Mapping[str, str] | None = None
    ) -> ConfigError:
        """One paragraph for every problem pydantic found, the first one in full.

        ``rename`` maps our key names back to the file's (``transport`` came from ``type``).
        """
        problems = []
        for err in exc.errors(include_url=False):
            loc = [p for p in err["loc"] if isinstance(p, str | int)]
            if loc and rename and isinstance(loc[0], str):
                loc[0] = rename.get(loc[0], loc[0])
            key = (*prefix, *loc)
            problems.append((key, _explain(err)))
        first_key, first_msg = problems[0]
        text = f"Config file {self.where(first_key)}: {first_msg}."
        if len(problems) > 1:
            rest = "; ".join(
                f"{format_key_path(k)} (line {find_line(self.lines, k) or '?'}): {m}"
                for k, m in problems[1:4]
            )
            more = f" and {len(problems) - 4} more" if len(problems) > 4 else ""
            text += f" Also: {rest}{more}."
        return ConfigError(text)


def _explain(err: Mapping[str, Any]) -> str:
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        return "unknown key (see config.example.toml for the keys mcp-tui reads)"
    if kind == "missing":
        return "this key is required"
    message = str(err.get("msg", "invalid value"))
    message = message.removeprefix("Value error, ")
    if "input" in err and kind not in ("missing",) and not isinstance(err["input"], dict | list):
        message += f" (got {err['input']!r})"
    return message
