"""``${VAR}`` in a case's answers: a secret a form asks for, read from the environment at run time.

"Save as a test" never writes what was typed into a field that looks like a secret (a password,
an API key): it writes ``${API_KEY}`` and says so, and the run fills it in from its environment
(a CI secret). The same forms as in a server's ``env`` and ``headers`` (``${VAR}``,
``${VAR:-default}``, ``${env:VAR}``). Every placeholder is filled in before any server starts; an
unset variable stops the run (exit 2) naming the file, the line and the key.

Only the string values of an answer's ``content`` (and the strings of its lists) are expanded,
in a case's answers and in its setup and teardown steps, never the expectations: what a server
sends is compared as it is.

Pure: the standard library, pydantic models, the config's expansion.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from mcp_tui.config.text import ExpansionError, expand_variables, format_key_path
from mcp_tui.testbench.call import Call
from mcp_tui.testbench.load import LoadedFile, TestFileError
from mcp_tui.testbench.model import Case, Step, TestFile

C = TypeVar("C", bound=Call)


def expand_answer_variables(loaded: LoadedFile, environ: Mapping[str, str]) -> LoadedFile:
    """``loaded`` with ``${VAR}`` filled in in its answers' content, those of the cases and of
    the setup and teardown steps (itself when there is none); :class:`TestFileError` naming the
    key's line when a variable is not set."""
    model = loaded.model

    def expanded(call: C, *at: str | int) -> C:
        answers = []
        for number, answer in enumerate(call.answers):
            content = answer.content
            if content and _mentions(content):
                key = (*at, "answers", number, "content")
                content = {k: _expand(v, loaded, environ, (*key, k)) for k, v in content.items()}
                answer = answer.model_copy(update={"content": content})
            answers.append(answer)
        if all(a is b for a, b in zip(answers, call.answers, strict=True)):
            return call
        return call.model_copy(update={"answers": answers})

    def steps(of: Case | TestFile, *at: str | int) -> dict[str, list[Step]]:
        return {
            phase: [expanded(step, *at, phase, i) for i, step in enumerate(getattr(of, phase))]
            for phase in ("setup", "teardown")
        }

    cases = [
        expanded(case, "case", index).model_copy(update=steps(case, "case", index))
        for index, case in enumerate(model.case)
    ]
    new = model.model_copy(update={"case": cases, **steps(model)})
    if new == model:
        return loaded
    return dataclasses.replace(loaded, model=new)


def _mentions(value: Any) -> bool:
    if isinstance(value, str):
        return "${" in value
    if isinstance(value, dict):
        return any(_mentions(v) for v in value.values())
    if isinstance(value, list):
        return any(_mentions(v) for v in value)
    return False


def _expand(
    value: Any, loaded: LoadedFile, environ: Mapping[str, str], key: tuple[str | int, ...]
) -> Any:
    if isinstance(value, list):
        return [_expand(v, loaded, environ, key) for v in value]
    if not isinstance(value, str) or "${" not in value:
        return value
    try:
        return expand_variables(value, environ, config_path=loaded.path)
    except ExpansionError as exc:
        line = loaded.line_of(*key[:-1])
        at = f", line {line}" if line is not None else ""
        where = f"Test file {loaded.path}{at}: {format_key_path(key)}"
        raise TestFileError(f"{where}: {exc}.") from None
