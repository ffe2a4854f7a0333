"""Text-level helpers for config files: where a key is, JSON with comments, ``${VAR}`` expansion.

Validation errors only know a key *path* (``servers.db.args[1]``); people need a *line*. tomllib and
json do not keep positions, so this module re-scans the source text to map key paths to lines.
The scanners are deliberately forgiving: they run only on files that already parsed, and when they
cannot place a key they fall back to its nearest ancestor (or report no line at all).

Pure: standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from mcp_tui.errors import ConfigError

KeyPath = tuple[str | int, ...]


def format_key_path(path: KeyPath) -> str:
    """``("servers", "my db", "args", 1)`` -> ``servers."my db".args[1]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        text = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)
        out += f".{text}" if out else text
    return out or "(top level)"


def line_of_offset(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


def find_line(lines: Mapping[KeyPath, int], path: KeyPath) -> int | None:
    """The line of ``path``, or of its nearest ancestor that has one."""
    for end in range(len(path), 0, -1):
        line = lines.get(path[:end])
        if line is not None:
            return line
    return None


# ---- JSON with comments (VS Code's mcp.json is JSONC) -------------------------------------------

_TRAILING_COMMA = re.compile(r",(\s*)([}\]])")


def strip_jsonc(text: str) -> str:
    """Blank out ``//`` and ``/* */`` comments and trailing commas, keeping every offset.

    Comments become spaces (newlines kept), so line and column numbers in later errors still point
    at the user's file. Strings are left alone, including ones that contain ``//`` (URLs).
    """
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i = _after_string(text, i)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end == -1 else end + 2
            for j in range(i, end):
                if out[j] != "\n":
                    out[j] = " "
            i = end
        else:
            i += 1
    blanked = "".join(out)
    return _blank_trailing_commas(blanked)


def load_jsonc(text: str, what: str) -> tuple[Any, str]:
    """JSON with comments and trailing commas -> (the value, the text without them); ``what``
    names the file in the error (``Config file x.json``), with the line and column of the slip."""
    clean = strip_jsonc(text)
    try:
        return json.loads(clean), clean
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{what} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None


def _blank_trailing_commas(text: str) -> str:
    """Replace a comma that is followed only by whitespace and ``}``/``]`` with a space."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i = _after_string(text, i)
            continue
        if ch == "," and _TRAILING_COMMA.match(text, i):
            out[i] = " "
        i += 1
    return "".join(out)


def _after_string(text: str, start: int) -> int:
    """The offset just past the JSON string that opens at ``start`` (escapes skipped)."""
    i, n = start + 1, len(text)
    while i < n and text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


_WS = re.compile(r"\s*")


def json_key_lines(text: str) -> dict[KeyPath, int]:
    """Map every key path of a (comment-stripped) JSON document to the line its key is on.

    Array items map to the line where the item starts.
    """
    lines: dict[KeyPath, int] = {}
    decoder = json.JSONDecoder()

    def skip(i: int) -> int:
        m = _WS.match(text, i)
        return m.end() if m else i

    def value(i: int, path: KeyPath) -> int:
        i = skip(i)
        if i >= len(text):
            return i
        ch = text[i]
        if ch == "{":
            i = skip(i + 1)
            while i < len(text) and text[i] != "}":
                if text[i] != '"':
                    raise ValueError("expected a key")
                key, after = decoder.raw_decode(text, i)
                lines.setdefault((*path, key), line_of_offset(text, i))
                i = skip(after)
                i = skip(i + 1)  # the colon
                i = skip(value(i, (*path, key)))
                if i < len(text) and text[i] == ",":
                    i = skip(i + 1)
            return i + 1
        if ch == "[":
            i = skip(i + 1)
            index = 0
            while i < len(text) and text[i] != "]":
                lines.setdefault((*path, index), line_of_offset(text, i))
                i = skip(value(i, (*path, index)))
                if i < len(text) and text[i] == ",":
                    i = skip(i + 1)
                index += 1
            return i + 1
        _, end = decoder.raw_decode(text, i)
        return int(end)

    with contextlib.suppress(ValueError, IndexError):  # best effort: keep what was found
        value(0, ())
    return lines


# ---- TOML --------------------------------------------------------------------------------------

_KEY = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?")
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=")
_KEY_PART = re.compile(_KEY)


def _split_dotted(dotted: str) -> tuple[str, ...]:
    parts: list[str] = []
    for m in _KEY_PART.finditer(dotted):
        raw = m.group(0)
        if raw.startswith('"'):
            try:
                parts.append(str(json.loads(raw)))
            except ValueError:
                parts.append(raw[1:-1])
        elif raw.startswith("'"):
            parts.append(raw[1:-1])
        else:
            parts.append(raw)
    return tuple(parts)


def toml_key_lines(text: str) -> dict[KeyPath, int]:
    """Map the key paths of a TOML document to lines: table headers and ``key = value`` lines.

    Keys inside inline tables map to the line of the inline table's own key (via
    :func:`find_line`'s ancestor fallback). Arrays of tables get their index in the path.
    """
    lines: dict[KeyPath, int] = {}
    table: KeyPath = ()
    array_counts: dict[KeyPath, int] = {}
    in_multiline: str | None = None
    depth = 0  # open brackets of a multi-line array value
    # A multi-line array (``answers = [`` then an item per line): its key and the next item's
    # index, so ``answers[1]`` is the line its item starts on.
    array_key: KeyPath | None = None
    item = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if in_multiline is not None:
            if line.count(in_multiline) % 2 == 1:
                rest = line[line.rfind(in_multiline) + 3 :]
                in_multiline = None
                depth = max(0, depth + _bracket_balance(rest))
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if depth == 1 and array_key is not None and not stripped.startswith("]"):
            lines.setdefault((*array_key, item), number)
            item += 1
        if depth == 0:
            header = _HEADER.match(line)
            if header and not _ASSIGN.match(line):
                path: KeyPath = _in_arrays(_split_dotted(header.group(2)), array_counts)
                for end in range(1, len(path)):
                    lines.setdefault(path[:end], number)
                if header.group(1) == "[[":
                    index = array_counts.get(path, 0)
                    array_counts[path] = index + 1
                    lines.setdefault(path, number)
                    path = (*path, index)
                table = path
                lines.setdefault(path, number)
                continue
            assign = _ASSIGN.match(line)
            if assign:
                key_path = (*table, *_split_dotted(assign.group(1)))
                for end in range(len(table) + 1, len(key_path) + 1):
                    lines.setdefault(key_path[:end], number)
                opens_array = line[assign.end() :].strip().startswith("[")
                array_key, item = (key_path, 0) if opens_array else (None, 0)
        for quote in ('"""', "'''"):
            if line.count(quote) % 2 == 1:
                in_multiline = quote
                break
        depth = max(0, depth + _bracket_balance(line))
        if depth == 0:
            array_key = None
    return lines


def _in_arrays(path: tuple[str, ...], array_counts: Mapping[KeyPath, int]) -> KeyPath:
    """A header's path with the index of each array of tables it is inside: ``[case.expect]``
    after the second ``[[case]]`` is ``("case", 1, "expect")``."""
    out: KeyPath = ()
    for i, part in enumerate(path):
        out = (*out, part)
        count = array_counts.get(out)
        if count and i < len(path) - 1:
            out = (*out, count - 1)
    return out


def _bracket_balance(line: str) -> int:
    """Net ``[``/``{`` minus ``]``/``}`` outside strings and comments (for multi-line arrays)."""
    balance, i, n = 0, 0, len(line)
    while i < n:
        ch = line[i]
        if ch in "\"'":
            end = line.find(ch, i + 1)
            while ch == '"' and end > 0 and line[end - 1] == "\\":
                end = line.find(ch, end + 1)
            i = n if end == -1 else end + 1
            continue
        if ch == "#":
            break
        if ch in "[{":
            balance += 1
        elif ch in "]}":
            balance -= 1
        i += 1
    if _HEADER.match(line) and not _ASSIGN.match(line):
        return 0
    return balance


# ---- ${VAR} expansion --------------------------------------------------------------------------

#: ``$${`` (a literal ``${``, written so by :func:`escape_variables`) or a ``${...}`` reference.
_VARIABLE = re.compile(r"\$\$\{|\$\{([^}]*)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: How a literal ``${`` is written where ``${...}`` is expanded.
ESCAPED = "$${"


class ExpansionError(ValueError):
    """A ``${...}`` reference that cannot be filled in; the message says why and what to do."""


def escape_variables(value: str) -> str:
    """``value`` written so that :func:`expand_variables` gives it back as it is: every ``${``
    as ``$${``. What a server sent, or a value already expanded, is written so into a file whose
    strings are expanded (a test file's answers and server table): never read as a reference."""
    return value.replace("${", ESCAPED)


class TrackedEnviron(Mapping[str, str]):
    """An environment that keeps every value read from it: what ``${VAR}`` took from the
    environment, which the test bench masks in its reports (``testbench/redact.py``)."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.untracked = environ
        #: Each variable read, and its value.
        self.taken: dict[str, str] = {}

    def __getitem__(self, key: str) -> str:
        value = self.untracked[key]
        self.taken[key] = value
        return value

    def __contains__(self, key: object) -> bool:
        return key in self.untracked

    def __iter__(self) -> Iterator[str]:
        return iter(self.untracked)

    def __len__(self) -> int:
        return len(self.untracked)


def expand_variables(
    value: str, environ: Mapping[str, str], *, config_path: Path | None = None
) -> str:
    """Fill in ``${VAR}``, ``${VAR:-default}`` and VS Code's ``${env:VAR}``; ``$${`` is a
    literal ``${`` (:func:`escape_variables`).

    Also ``${userHome}`` and ``${workspaceFolder}`` (the folder that holds ``.vscode/``, or the
    config file's folder). A bare ``$VAR`` is left as it is. Anything else (VS Code's
    ``${input:...}`` prompts among them) raises :class:`ExpansionError`: a silent empty string in
    a command line or an ``Authorization`` header is worse than a clear stop.
    """

    def replace(m: re.Match[str]) -> str:
        if m.group(1) is None:
            return "${"  # $${: a literal ${
        inner = m.group(1).strip()
        name, default = inner, None
        if ":-" in inner:
            name, default = inner.split(":-", 1)
        elif inner.startswith("env:"):
            name = inner[4:]
        if inner == "userHome":
            return os.path.expanduser("~")
        if inner == "workspaceFolder" and config_path is not None:
            folder = config_path.resolve().parent
            return str(folder.parent if folder.name == ".vscode" else folder)
        if inner.startswith("input:"):
            raise ExpansionError(
                f"${{{inner}}} asks VS Code to prompt for a value, which mcp-tui cannot do; "
                "put the value in an environment variable and write ${env:NAME} instead"
            )
        if not _NAME.fullmatch(name):
            raise ExpansionError(
                f"${{{inner}}} is not a variable mcp-tui knows; use ${{NAME}}, "
                "${NAME:-default} or ${env:NAME} with an environment variable name"
            )
        if name in environ:
            return environ[name]
        if default is not None:
            return default
        raise ExpansionError(
            f"the environment variable {name} is not set (write ${{{name}:-default}} "
            "to give a default)"
        )

    return _VARIABLE.sub(replace, value)
