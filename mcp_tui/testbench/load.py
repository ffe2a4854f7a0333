"""Reading test files: TOML or JSON into a :class:`~mcp_tui.testbench.model.TestFile`, every
mistake one sentence naming the file, the line and the key.

``mcp-tui test`` loads (and expands) every file before it runs any, so a bad file stops the run
before a single server is started (exit 2): nothing is half-run. Validation errors only know a
key path; the line comes from re-scanning the text (``config/text.py``, as for config and answers
files). ``${VAR}`` in a server's ``env`` and ``headers`` is filled in from the environment here
(:func:`expand_server`), into a copy: the file's own text is never rewritten with a secret.

Pure: standard library, pydantic and the config helpers.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from mcp_tui.config.answers import AnswerEntry
from mcp_tui.config.text import (
    ExpansionError,
    KeyPath,
    expand_variables,
    find_line,
    format_key_path,
    json_key_lines,
    load_jsonc,
    toml_key_lines,
)
from mcp_tui.errors import ConfigError
from mcp_tui.testbench.model import (
    Case,
    ElicitationExpect,
    Expect,
    SamplingExpect,
    ServerDecl,
    Step,
    TestFile,
)

#: The file names ``mcp-tui test DIR`` and the pytest plugin collect.
SUFFIXES = (".mcptest.toml", ".mcptest.json")


class TestFileError(ConfigError):
    """A test file that cannot be run: the message names the file, the line and the key."""

    __test__ = False


@dataclass(frozen=True)
class LoadedFile:
    """A valid test file, with where each key is (for messages and ``--update``)."""

    __test__ = False

    path: Path
    model: TestFile
    lines: Mapping[KeyPath, int]
    is_json: bool
    #: The values its ``${VAR}``s took from the environment (once expanded for a run): what
    #: every report of the run masks (``testbench/redact.py``).
    secrets: frozenset[str] = frozenset()

    def line_of(self, *key: str | int) -> int | None:
        return find_line(self.lines, tuple(key))

    def where(self, *key: str | int) -> str:
        """``file:line`` of a key, for a failure's heading."""
        line = self.line_of(*key)
        return f"{self.path}:{line}" if line is not None else str(self.path)


def is_test_file(path: Path) -> bool:
    return path.name.endswith(SUFFIXES)


def find_test_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The files named, and every ``*.mcptest.toml``/``.json`` under each directory named
    (sorted, hidden folders and ``node_modules`` skipped); a missing path is an error."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for item in sorted(path.rglob("*.mcptest.*")):
                parts = item.relative_to(path).parts
                if is_test_file(item) and not any(
                    p.startswith(".") or p == "node_modules" for p in parts[:-1]
                ):
                    found.append(item)
        elif path.is_file():
            found.append(path)
        else:
            raise TestFileError(f"Test file or folder {path} does not exist.")
    return list(dict.fromkeys(found))


def load_test_file(path: str | os.PathLike[str]) -> LoadedFile:
    """Read and validate one test file; :class:`TestFileError` names what is wrong."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise TestFileError(f"Test file {file} does not exist.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TestFileError(f"Test file {file} cannot be read: {exc}.") from None
    return parse_test_file(text, file)


def parse_test_file(text: str, file: Path) -> LoadedFile:
    """:func:`load_test_file` on text already read (the writer checks what it would write)."""
    data: Any
    is_json = file.suffix.lower() in (".json", ".jsonc")
    if is_json:
        try:
            data, clean = load_jsonc(text, f"Test file {file}")
        except ConfigError as exc:
            raise TestFileError(str(exc)) from None
        lines = json_key_lines(clean)
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise TestFileError(f"Test file {file} is not valid TOML: {exc}.") from None
        lines = toml_key_lines(text)

    def fail(key: KeyPath, message: str) -> TestFileError:
        line = find_line(lines, key)
        at = f", line {line}" if line is not None else ""
        return TestFileError(f"Test file {file}{at}: {format_key_path(key)}: {message}.")

    if not isinstance(data, dict):
        raise fail((), "expected a table of keys (server, case, ...)")
    if "server" not in data:
        raise fail(
            (),
            'no `server`: name the server once (server = "demo", or a [server] table '
            "with command, url or name)",
        )
    if "case" not in data:
        raise fail((), "no cases: add a [[case]] table (name, tool, expect)")
    try:
        model = TestFile.model_validate(data)
    except ValidationError as exc:
        key, message = _first_problem(exc, data)
        raise fail(key, message) from None
    return LoadedFile(file, model, lines, is_json)


# ---- validation messages ------------------------------------------------------------------------


def _call_tables(
    at: tuple[str, ...], model: type[BaseModel]
) -> dict[tuple[str, ...], type[BaseModel]]:
    """A case's or a step's table and those inside it (answers, expect and its lists)."""
    return {
        at: model,
        (*at, "answers"): AnswerEntry,
        (*at, "expect"): Expect,
        (*at, "expect", "elicitations"): ElicitationExpect,
        (*at, "expect", "sampling"): SamplingExpect,
    }


#: The model of each table, to list the keys it takes when one is unknown.
_TABLES: dict[tuple[str, ...], type[BaseModel]] = {
    (): TestFile,
    ("server",): ServerDecl,
    **_call_tables(("case",), Case),
    **{
        table: model
        for steps in (("setup",), ("teardown",), ("case", "setup"), ("case", "teardown"))
        for table, model in _call_tables(steps, Step).items()
    },
}
#: Union members pydantic names in an error's location; they are not keys of the file.
_TAGS = {"ServerDecl", "str", "list[str]", "int", "float", "bool"}


def _first_problem(exc: ValidationError, data: Any) -> tuple[KeyPath, str]:
    """The one error worth reporting, as (key path, sentence)."""
    errors = exc.errors(include_url=False)
    # A `server` table with a mistake also fails the "demo" literal: report the table's error.
    errors.sort(
        key=lambda e: any(isinstance(p, str) and p.startswith("literal[") for p in e["loc"])
    )
    err = errors[0]
    loc: KeyPath = tuple(
        p
        for p in err["loc"]
        if isinstance(p, int)
        or (isinstance(p, str) and p not in _TAGS and not p.startswith(("literal[", "function-")))
    )
    loc = tuple("schema" if p == "schema_" else p for p in loc)
    message = str(err["msg"]).removeprefix("Value error, ")
    if err["type"] == "extra_forbidden":
        table = tuple(p for p in loc[:-1] if isinstance(p, str))
        model = _TABLES.get(table)
        if model is not None:
            known = sorted((f.alias or name) for name, f in model.model_fields.items())
            close = difflib.get_close_matches(str(loc[-1]), known, n=1)
            hint = f"did you mean `{close[0]}`? " if close else ""
            message = f"unknown key ({hint}{'this table' if table else 'the file'} takes " + (
                ", ".join(known) + ")"
            )
            if table and loc[-1] in TestFile.model_fields:
                message += (
                    f"; `{loc[-1]}` is a key of the file: TOML puts every key after a [table] "
                    "header into that table, so write it before the first one"
                )
        else:
            message = "unknown key"
    elif err["type"] == "missing":
        message = "missing: this key is required"
    elif "input" in err and err["type"].endswith("_type"):
        message = f"{message}, not {_kind(err['input'])}"
    if loc and loc[0] == "server" and isinstance(data.get("server"), str):
        message = 'is "demo" or a table ([server] with command, url or name)'
        loc = ("server",)
    return loc, message


def _kind(value: Any) -> str:
    names = {str: "a string", bool: "a boolean", int: "an integer", float: "a number"}
    for kind, name in names.items():
        if type(value) is kind:
            return name
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


# ---- ${VAR} -------------------------------------------------------------------------------------


def expand_server(loaded: LoadedFile, environ: Mapping[str, str]) -> ServerDecl:
    """The file's server with ``${VAR}`` filled in (``env``, ``headers``, ``url``, ``command``)."""
    decl = loaded.model.server_decl

    def expand(value: str, *key: str | int) -> str:
        try:
            return expand_variables(value, environ, config_path=loaded.path)
        except ExpansionError as exc:
            line = loaded.line_of("server", *key)
            at = f", line {line}" if line is not None else ""
            raise TestFileError(
                f"Test file {loaded.path}{at}: {format_key_path(('server', *key))}: {exc}."
            ) from None

    return decl.model_copy(
        update={
            "command": [expand(a, "command", i) for i, a in enumerate(decl.command)]
            if decl.command is not None
            else None,
            "env": {k: expand(v, "env", k) for k, v in decl.env.items()},
            "headers": {k: expand(v, "headers", k) for k, v in decl.headers.items()},
            "url": expand(decl.url, "url") if decl.url is not None else None,
        }
    )
