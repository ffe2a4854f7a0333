"""Parsing a large message without freezing the UI: in a worker thread, in small steps, with
``_meta`` bounded.

A JSON parser written in C (``json``, pydantic's, msgspec's) holds the GIL for the whole text: a
14 MB line with 10^6 keys in one ``_meta`` held it for 1.5-3 s, and since the UI runs in the same
process, no key was answered meanwhile, whichever thread parsed. So ``stdio_transport`` hands a
line over :data:`LARGE_LINE` characters to :func:`parse_large` in a worker thread: this parser is
Python, so the interpreter lets the UI's thread run every few milliseconds, and it uses C only for
single strings, which are quick even when long. It is about five times slower than ``json``; only
large lines take it.

It also bounds what the SDK would validate next, on the UI's thread: an object under a ``_meta``
key keeps its first :data:`MAX_META_KEYS` keys (metadata, never more than a handful in practice);
the rest are read and dropped, and the caller is told how many (``ParsedLarge.trimmed``).

Pure Python, no SDK: tested against ``json.loads`` directly.
"""

from __future__ import annotations

import json.decoder
import re
from collections.abc import Callable
from json.decoder import JSONDecodeError
from typing import Any

from msgspec import Struct

#: Lines longer than this (characters) are parsed here, in a worker thread.
LARGE_LINE = 1 << 20
#: Keys kept of one ``_meta`` object; the rest are dropped (and counted).
MAX_META_KEYS = 1000
#: Nesting deeper than this is refused (pydantic's parser refuses deeper JSON too).
MAX_DEPTH = 200

#: The C scanner of one JSON string (``json``'s own): (text, index after the opening quote,
#: strict) -> (the string, index after the closing quote).
scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS = {"t": ("true", True), "f": ("false", False), "n": ("null", None)}


class JsonError(ValueError):
    """The text is not JSON (or nests deeper than :data:`MAX_DEPTH`)."""


class ParsedLarge(Struct):
    value: Any
    #: ``(where, keys it had)`` for each ``_meta`` object cut to :data:`MAX_META_KEYS` keys;
    #: ``where`` is the path of keys, e.g. ``params._meta``.
    trimmed: list[tuple[str, int]]


def parse_large(text: str) -> ParsedLarge:
    """``text`` as a Python value (as ``json.loads`` gives it), ``_meta`` objects bounded."""
    parser = _Parser(text)
    try:
        value = parser.value(parser.skip(0), 0, ())
    except IndexError:
        raise JsonError("the text ends in the middle of a value") from None
    except JSONDecodeError as exc:  # from scanstring: a bad string
        raise JsonError(exc.msg + f" at character {exc.pos}") from None
    end = parser.skip(parser.at)
    if end != len(text):
        raise JsonError(f"extra data at character {end}")
    return ParsedLarge(value, parser.trimmed)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.trimmed: list[tuple[str, int]] = []

    def skip(self, at: int) -> int:
        match = _WHITESPACE.match(self.text, at)
        assert match is not None  # the pattern matches the empty string
        return match.end()

    def value(self, at: int, depth: int, path: tuple[str, ...]) -> Any:
        """The value starting at ``at`` (after whitespace); ``self.at`` is left just after it."""
        char = self.text[at]
        if char == '"':
            string, self.at = scanstring(self.text, at + 1, True)
            return string
        if char == "{":
            return self.object(at + 1, depth + 1, path)
        if char == "[":
            return self.array(at + 1, depth + 1, path)
        if char in _LITERALS:
            word, literal = _LITERALS[char]
            if self.text.startswith(word, at):
                self.at = at + len(word)
                return literal
        number = _NUMBER.match(self.text, at)
        if number is None:
            raise JsonError(f"no JSON value at character {at}")
        self.at = number.end()
        if number.group(1) or number.group(2):
            return float(number.group())
        return int(number.group())

    def object(self, at: int, depth: int, path: tuple[str, ...]) -> dict[str, Any]:
        if depth > MAX_DEPTH:
            raise JsonError(f"nested deeper than {MAX_DEPTH} levels")
        text = self.text
        result: dict[str, Any] = {}
        at = self.skip(at)
        if text[at] == "}":
            self.at = at + 1
            return result
        is_meta = bool(path) and path[-1] == "_meta"
        seen = 0
        while True:
            if text[at] != '"':
                raise JsonError(f"expected a key in double quotes at character {at}")
            key, at = scanstring(text, at + 1, True)
            at = self.skip(at)
            if text[at] != ":":
                raise JsonError(f"expected ':' at character {at}")
            value = self.value(self.skip(at + 1), depth, (*path, key))
            seen += 1
            if not is_meta or len(result) < MAX_META_KEYS or key in result:
                result[key] = value
            at = self.skip(self.at)
            if text[at] == "}":
                break
            if text[at] != ",":
                raise JsonError(f"expected ',' or '}}' at character {at}")
            at = self.skip(at + 1)
        self.at = at + 1
        if is_meta and seen > len(result):
            self.trimmed.append((".".join(path), seen))
        return result

    def array(self, at: int, depth: int, path: tuple[str, ...]) -> list[Any]:
        if depth > MAX_DEPTH:
            raise JsonError(f"nested deeper than {MAX_DEPTH} levels")
        text = self.text
        result: list[Any] = []
        at = self.skip(at)
        if text[at] == "]":
            self.at = at + 1
            return result
        index = 0
        while True:
            result.append(self.value(at, depth, (*path, str(index))))
            index += 1
            at = self.skip(self.at)
            if text[at] == "]":
                break
            if text[at] != ",":
                raise JsonError(f"expected ',' or ']' at character {at}")
            at = self.skip(at + 1)
        self.at = at + 1
        return result
