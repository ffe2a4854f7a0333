"""JSON equality, the one rule every comparison of the bench uses.

Python's ``==`` is not JSON's: ``True == 1`` and ``False == 0`` hold in Python (``bool`` is an
``int``), so a snapshot ``{ ok = 1, flags = [0, 1] }`` would pass against
``{"ok": true, "flags": [false, true]}``, at any depth. JSON has one number type, so ``1`` and
``1.0`` are the same value; objects are unordered (key order is ignored), arrays are ordered.
A test file's expectations (TOML or JSON) and what a server sent are both plain JSON values
here, so the rule is applied recursively and nothing else is.

``skip``: JSON Pointers (RFC 6901, as written in a test file) whose values are not compared
(a snapshot's values that change per run, matched by a regex instead: ``pointers_regex``). An
object member named there may be missing on either side; an array element named there must
still exist on both (the array's length is part of the snapshot).

Pure: the standard library.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any


def json_equal(a: Any, b: Any, *, skip: Collection[str] = ()) -> bool:
    """``a`` and ``b`` are the same JSON value (bool never equals a number, ``1 == 1.0``)."""
    return _equal(a, b, "", frozenset(skip))


def _equal(a: Any, b: Any, at: str, skip: frozenset[str]) -> bool:
    if at and at in skip:
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in {*a, *b}:
            here = f"{at}/{escape_token(str(key))}"
            if here in skip:
                continue
            if key not in a or key not in b or not _equal(a[key], b[key], here, skip):
                return False
        return True
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(
            _equal(x, y, f"{at}/{i}", skip) for i, (x, y) in enumerate(zip(a, b, strict=True))
        )
    if isinstance(a, Mapping | list | tuple) or isinstance(b, Mapping | list | tuple):
        return False
    return bool(a == b)


def escape_token(token: str) -> str:
    """A member name as a JSON Pointer token: ``~`` is ``~0``, ``/`` is ``~1`` (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")
