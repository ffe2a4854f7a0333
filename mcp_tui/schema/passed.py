"""Answers a compiled validator has already passed, so the same answer is not checked again.

A headless run answering the same form again and again (``--elicit accept-defaults``, an answers
file replayed in CI) sends the same ``content`` every time, and jsonschema's check of it is the
largest part of mcp-tui's own work on such a request (~8 µs for one text field, ~6 µs more per
field). A validator's verdict is a pure function of the instance, so a pass seen once is a pass
again: :data:`PASSED` remembers the last passes per validator object. Failures are never
remembered (their messages are rebuilt each time, and they are rare).

The key is exact, not merely equal: each value is keyed with its type (``1``, ``1.0`` and
``true`` are equal in Python but not in JSON Schema), floats by their bits (``float.hex``, so
``-0.0`` and ``0.0`` never share a key), and only plain JSON scalars and flat lists of them are
keyed at all — a ``str`` subclass, a tuple, a nested object or a long answer is simply checked
every time. Entries hold their validator, so its ``id`` cannot be reused while remembered.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Final

from mcp_tui.schema.lru import Lru

#: Answers with more characters of text than this are checked every time (bounds the memory).
MAX_KEY_CHARS = 10_000
#: Longest list value that is keyed.
MAX_LIST_ITEMS = 256


def _scalar_key(value: object) -> tuple[tuple[Any, ...], int] | None:
    """``((type, value), size)`` for a plain JSON scalar (size: its text, or its int's bytes)."""
    kind = type(value)
    if kind is str:
        return (str, value), len(value)  # type: ignore[arg-type]
    if kind is bool or value is None:
        return (kind, value), 0
    if kind is int:
        return (int, value), value.bit_length() >> 3  # type: ignore[attr-defined]
    if kind is float:
        return (float, value.hex()), 0  # type: ignore[attr-defined]
    return None


def answer_key(content: Mapping[str, object]) -> tuple[Hashable, ...] | None:
    """An exact, hashable key for ``content``, or ``None`` when it is not worth keying."""
    parts: list[Hashable] = []
    chars = 0
    for name, value in content.items():
        if type(name) is not str:
            return None
        chars += len(name)
        if type(value) is list:
            if len(value) > MAX_LIST_ITEMS:
                return None
            items = []
            for item in value:
                keyed = _scalar_key(item)
                if keyed is None:
                    return None
                items.append(keyed[0])
                chars += keyed[1]
            parts.append((name, list, tuple(items)))
        else:
            keyed = _scalar_key(value)
            if keyed is None:
                return None
            parts.append((name, keyed[0]))
            chars += keyed[1]
        if chars > MAX_KEY_CHARS:
            return None
    return tuple(parts)


class PassMemo:
    """The last ``size`` (validator, answer) pairs that passed."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._passed: Lru[tuple[int, Hashable], Any] = Lru(size)

    def __len__(self) -> int:
        return len(self._passed)

    def clear(self) -> None:
        self._passed.clear()

    def passed(self, validator: Any, key: Hashable) -> bool:
        """Whether ``validator`` already passed the answer keyed ``key``."""
        return self._passed.get((id(validator), key)) is validator

    def remember(self, validator: Any, key: Hashable) -> None:
        """``validator`` passed the answer keyed ``key``."""
        self._passed.put((id(validator), key), validator)


#: The process-wide memo of the final check (``validate.final_check``).
PASSED: Final = PassMemo()
