"""Masking what a run took from the environment, wherever the bench prints or writes a report.

A test file says ``${API_TOKEN}`` where a secret goes (an answer's content, a header, a server's
``env``); the run fills it in from the environment (a CI secret), and from then on the value is
the run's to keep out of sight: a failure report, a diff, JUnit, ``--json``, the pytest report,
``check --run`` and the watch output all show ``***`` for it, as it is or inside a longer string,
in what mcp-tui sent and in whatever the server echoes back (a result, a later request's
message). What is masked is decided by where a value came from (the expansion step keeps every
value it read, :class:`~mcp_tui.config.text.TrackedEnviron`), never by a field's name: an answer
``note = "n-${API_TOKEN}"`` is masked as surely as ``api_token = "${API_TOKEN}"``.

One rule keeps reports readable: a value shorter than :data:`MIN_LENGTH` characters, blank, or a
JSON word (``true``, ``false``, ``null``, ``none``) is not masked. Masking ``1`` or ``true`` would
blank every such character in a report, and no secret is that short. ``--log`` (the wire, written
on purpose) keeps raw values.

Every sink routes through one :class:`Redactor`: :meth:`Redactor.value` over a run's results
(``CaseResult``, ``Observed``, ``Failure``, any JSON), :meth:`Redactor.text` over a line already
written. A value is also found JSON-escaped (a transcript prints answers as JSON), as
control-character escapes (:func:`~mcp_tui.untrusted.visible`) and URL-encoded; a multi-line
value line by line.

Pure: the standard library.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, TextIO, TypeVar
from urllib.parse import quote, quote_plus

from mcp_tui.untrusted import visible

#: What a masked value is replaced by.
MASK = "***"
#: Values shorter than this are not masked (see the module's docstring).
MIN_LENGTH = 4
#: Words too common in a report to mask (``DEBUG=true`` is no secret).
_PLAIN = frozenset({"true", "false", "null", "none"})
#: Fields of the run's records that hold what the test file's author wrote (a key path, the
#: case's plan), not what a server sent: kept as they are, so a report still finds its line.
_AUTHORED = frozenset({"key", "plan"})

T = TypeVar("T")


def maskable(value: str) -> bool:
    """Whether :class:`Redactor` masks ``value`` (long enough, not a plain word)."""
    stripped = value.strip()
    return len(stripped) >= MIN_LENGTH and stripped.lower() not in _PLAIN


def _spellings(value: str) -> set[str]:
    """``value`` as it is and as a report may print it (JSON, escaped, URL-encoded), and each of
    its lines when it has several."""
    found: set[str] = set()
    parts = [value, *value.splitlines()] if ("\n" in value or "\r" in value) else [value]
    for part in parts:
        if not maskable(part):
            continue
        found.add(part)
        found.add(json.dumps(part, ensure_ascii=True)[1:-1])
        found.add(json.dumps(part, ensure_ascii=False)[1:-1])
        found.add(visible(part, limit=None, keep_newlines=False))
        found.add(visible(part, limit=None, keep_newlines=True))
        found.add(quote(part, safe=""))
        found.add(quote_plus(part, safe=""))
    return {s for s in found if maskable(s)}


class Redactor:
    """Masks a set of values (those a run took from the environment) in text and in records."""

    def __init__(self, values: Iterable[str] = ()) -> None:
        self.values: frozenset[str] = frozenset(v for v in values if maskable(v))
        spellings = sorted({s for v in self.values for s in _spellings(v)}, key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, spellings))) if spellings else None

    @classmethod
    def union(cls, redactors: Iterable[Redactor | Iterable[str]]) -> Redactor:
        """One redactor for the values of all of them (a run over several files)."""
        values: set[str] = set()
        for one in redactors:
            values |= one.values if isinstance(one, Redactor) else set(one)
        return cls(values)

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, text: str) -> str:
        """``text`` with every masked value replaced by :data:`MASK`."""
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(MASK, text)

    def finds(self, value: object) -> bool:
        """Whether a masked value occurs in ``value`` (text, JSON, a record)."""
        return self._pattern is not None and self.value(value) != value

    def value(self, value: T) -> T:
        """``value`` with every masked value replaced: strings (object keys too), numbers whose
        digits hold one (as the string :data:`MASK`), lists, and the fields of dataclasses (the
        run's records), but the :data:`_AUTHORED` ones. Anything else is returned as it is."""
        if self._pattern is None:
            return value
        return self._value(value)  # type: ignore[no-any-return]

    def _value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int | float):
            return value if self.text(str(value)) == str(value) else MASK
        if isinstance(value, Mapping):
            return {self._value(k): self._value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._value(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self._value(v) for v in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {}
            for f in dataclasses.fields(value):
                if f.name in _AUTHORED or not f.init:
                    continue
                old = getattr(value, f.name)
                new = self._value(old)
                if new is not old and new != old:
                    changes[f.name] = new
            return dataclasses.replace(value, **changes) if changes else value
        return value


#: A redactor that masks nothing (no value came from the environment).
NOTHING = Redactor()


class RedactingWriter(io.StringIO):
    """A text stream that masks each line before it reaches ``target`` (the messages a run
    prints as it goes: a refused form's message, a server that cannot be reached)."""

    def __init__(self, target: TextIO, redactor: Redactor) -> None:
        super().__init__()
        self._target = target
        self._redactor = redactor
        self._pending = ""

    def write(self, text: str) -> int:
        self._pending += text
        if "\n" in self._pending:
            lines, _, self._pending = self._pending.rpartition("\n")
            self._target.write(self._redactor.text(lines + "\n"))
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self._target.write(self._redactor.text(self._pending))
            self._pending = ""
        self._target.flush()

    def isatty(self) -> bool:
        return self._target.isatty()
