"""Values that change on every run, found in a snapshot before it is written.

A call recorded on a todo server snapshots the new item's id (``Added "milk" (#3)``); the replay
makes ``#4`` and fails, whatever the server does right. The recorder ("Save as a test",
``--record``) and ``mcp-tui test --update`` look for such values and write a matcher instead of
the literal: a ``text_regex`` (a request's ``message_regex``) holding the rest of the text
exactly, and ``pointers_regex`` for the values of ``structured`` that change. A comment in the
file says so, and a person can always write the literal back.

What counts, kept narrow so a snapshot is loosened only where a run really changes it:

- an id right after ``#`` (``#3``, ``issue #108``): digits, matched as ``[0-9]+``; in
  ``structured``, a whole number that the text shows after ``#``;
- a UUID (``3f2b...-...``), any case;
- an ISO 8601 timestamp with a time of day (``2026-05-01T12:00:00Z``, Python's
  ``2026-05-01 12:00:00.123456``); a date alone is data, not a clock;
- the server's own request ids: the string id a request to mcp-tui came with (a JSON-RPC id, or
  a 2026-07-28 ``inputRequests`` key), when it holds digits, matched with its digits free.

Pure: the standard library.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcp_tui.testbench.json_equal import escape_token
from mcp_tui.testbench.observed import Observed

_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_TIMESTAMP = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}"
    r"(\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?"
)
#: (what it is, how it is found, the regex written in its place: shorter than the finder's, to
#: be read in a test file, and no less exact around it).
_KINDS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("a UUID", re.compile(rf"(?<![0-9A-Za-z-]){_UUID}(?![0-9A-Za-z-])"), "[0-9a-fA-F-]{36}"),
    (
        "a timestamp",
        re.compile(rf"(?<![0-9]){_TIMESTAMP}(?![0-9])"),
        "[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.]+(Z|[+-][0-9:]+)?",
    ),
    ("an id after #", re.compile(r"(?<=#)[0-9]+(?![0-9A-Za-z])"), "[0-9]+"),
)
#: Characters that mean something in a regex (no verbose mode: space and ``#`` are literal).
_SPECIAL = re.compile(r"([\\.^$*+?{}\[\]|()])")


@dataclass(frozen=True)
class Loosened:
    """A regex for a value that changes per run, and what changes in it."""

    regex: str
    kinds: tuple[str, ...]

    def says(self) -> str:
        """``an id after # changes`` / ``a UUID and a timestamp change``."""
        kinds = list(dict.fromkeys(self.kinds))
        return " and ".join(kinds) + (" changes" if len(kinds) == 1 else " change")


def escape(text: str) -> str:
    """``text`` as a regex that matches exactly it; readable (only the special characters)."""
    return _SPECIAL.sub(r"\\\1", text)


def request_id_patterns(ids: Iterable[object]) -> list[tuple[str, re.Pattern[str], str]]:
    """The server's own request ids that hold digits, each with a regex that frees them."""
    out: list[tuple[str, re.Pattern[str], str]] = []
    for key in dict.fromkeys(i for i in ids if isinstance(i, str)):
        if len(key) < 3 or not any(c.isdigit() for c in key):
            continue
        shape = "".join(
            "[0-9]+" if part.isdigit() else escape(part)
            for part in re.split(r"([0-9]+)", key)
            if part
        )
        found = re.compile(rf"(?<![0-9A-Za-z]){re.escape(key)}(?![0-9A-Za-z])")
        out.append(("a request id", found, shape))
    return out


def text_regex(text: str, request_ids: Sequence[object] = ()) -> Loosened | None:
    """An anchored regex for ``text`` with its per-run values free, or ``None`` when it holds
    none (the literal is the snapshot then)."""
    kinds = [*_KINDS, *request_id_patterns(request_ids)]
    spans: list[tuple[int, int, str, str]] = []
    for name, found, written in kinds:
        spans += [(m.start(), m.end(), written, name) for m in found.finditer(text)]
    if not spans:
        return None
    spans.sort(key=lambda s: (s[0], -s[1]))
    parts, kept, at = ["^"], [], 0
    for start, end, written, name in spans:
        if start < at:
            continue  # inside one taken already (a UUID's digits after a #)
        parts += [escape(text[at:start]), written]
        kept.append(name)
        at = end
    parts += [escape(text[at:]), "$"]
    return Loosened("".join(parts), tuple(kept))


def hash_ids(text: str) -> set[str]:
    """The ids right after ``#`` in ``text``."""
    return {m.group() for m in _KINDS[2][1].finditer(text)}


def structured_regexes(
    value: Any, text: str = "", request_ids: Sequence[object] = ()
) -> dict[str, Loosened]:
    """JSON Pointer -> regex for each value of ``structured`` that changes per run: a string
    holding one (as :func:`text_regex`), a whole number the text shows after ``#``."""
    ids = hash_ids(text)
    out: dict[str, Loosened] = {}

    def walk(node: Any, at: str) -> None:
        if isinstance(node, Mapping):
            for key, item in node.items():
                walk(item, f"{at}/{escape_token(str(key))}")
        elif isinstance(node, list | tuple):
            for i, item in enumerate(node):
                walk(item, f"{at}/{i}")
        elif not at:
            return  # the root is the snapshot itself, never one of its values
        elif isinstance(node, str):
            found = text_regex(node, request_ids)
            if found is not None:
                out[at] = found
        elif isinstance(node, int) and not isinstance(node, bool) and str(node) in ids:
            out[at] = Loosened("^[0-9]+$", ("an id after #",))

    walk(value, "")
    return out


def as_text(value: Any) -> str | None:
    """What ``pointers_regex`` searches in a value: a string as it is, a number, ``true``,
    ``false`` or ``null`` as JSON writes it; ``None`` for an object or array."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping | list | tuple):
        return None
    return json.dumps(value)


#: A key path under a ``[[case]]`` (``("expect", "text_regex")``) -> the comment written there.
Comments = dict[tuple[str | int, ...], str]


def request_ids(seen: Observed) -> list[object]:
    """The ids of the requests the server made during the call."""
    keys: list[object] = [r.request_key for r in seen.elicitations]
    return keys + [r.request_key for r in seen.sampling]


def loosen(expect: dict[str, Any], seen: Observed) -> Comments:
    """Replace, in a recorded ``expect`` table, each snapshot that changes per run with its
    matcher (in place, keeping the key order); the comments that say so."""
    ids = request_ids(seen)
    comments: Comments = {}
    text = expect.get("text")
    if isinstance(text, str):
        found = text_regex(text, ids)
        if found is not None:
            _rename(expect, "text", "text_regex", found.regex)
            comments[("expect", "text_regex")] = (
                f'a regex: {found.says()} per run (text = "..." checks it exactly)'
            )
    if "structured" in expect:
        pointers = structured_regexes(expect["structured"], seen.text, ids)
        if pointers:
            expect["pointers_regex"] = {p: m.regex for p, m in pointers.items()}
            kinds = Loosened("", tuple(k for m in pointers.values() for k in m.kinds)).says()
            comments[("expect", "pointers_regex")] = (
                f"{kinds} per run: these values are matched here, not by structured"
            )
    for key in ("elicitations", "sampling"):
        for i, request in enumerate(expect.get(key) or []):
            message = request.get("message")
            found = text_regex(message, ids) if isinstance(message, str) else None
            if found is not None:
                _rename(request, "message", "message_regex", found.regex)
                comments[("expect", key, i, "message_regex")] = (
                    f'a regex: {found.says()} per run (message = "..." checks it exactly)'
                )
    return comments


def _rename(table: dict[str, Any], old: str, new: str, value: Any) -> None:
    items = [(new, value) if k == old else (k, v) for k, v in table.items()]
    table.clear()
    table.update(items)
