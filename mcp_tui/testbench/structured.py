"""The expectations on a result's ``structuredContent``: the ``structured`` snapshot, the values
at JSON Pointers (``pointers``) and the regexes searched in values that change per run
(``pointers_regex``, which ``structured`` is then compared without).

Every value is compared with :func:`~mcp_tui.testbench.json_equal.json_equal`, never Python's
``==`` (``True == 1``).
"""

from __future__ import annotations

import re
from typing import Any

from mcp_tui.testbench.failure import Failure
from mcp_tui.testbench.json_equal import json_equal
from mcp_tui.testbench.model import Expect
from mcp_tui.testbench.observed import Observed
from mcp_tui.testbench.volatile import as_text

_MISSING = object()


def check_structured(expect: Expect, seen: Observed) -> list[Failure]:
    out: list[Failure] = []
    free = expect.pointers_regex or {}
    if expect.has_structured and (
        not seen.has_structured or not json_equal(seen.structured, expect.structured, skip=free)
    ):
        got = seen.structured if seen.has_structured else "(no structuredContent)"
        out.append(
            Failure(
                ("structured",),
                "structuredContent differs" if seen.has_structured else "no structuredContent came",
                expect.structured,
                got,
                snapshot=seen.has_structured,
            )
        )
    for pointer, wanted in (expect.pointers or {}).items():
        found = resolve_pointer(seen.structured, pointer) if seen.has_structured else _MISSING
        if found is _MISSING:
            out.append(
                Failure(
                    ("pointers", pointer),
                    f"structuredContent has nothing at {pointer}",
                    wanted,
                    "(nothing there)",
                    diffable=False,
                )
            )
        elif not json_equal(found, wanted):
            out.append(
                Failure(
                    ("pointers", pointer), f"structuredContent differs at {pointer}", wanted, found
                )
            )
    for pointer, regex in free.items():
        found = resolve_pointer(seen.structured, pointer) if seen.has_structured else _MISSING
        key = ("pointers_regex", pointer)
        if found is _MISSING:
            out.append(
                Failure(
                    key,
                    f"structuredContent has nothing at {pointer}",
                    regex,
                    "(nothing there)",
                    diffable=False,
                )
            )
            continue
        value = as_text(found)
        if value is None or not re.search(regex, value):
            out.append(
                Failure(
                    key,
                    f"the value at {pointer} does not match the regex"
                    if value is not None
                    else f"the value at {pointer} is an object or array, not one value",
                    regex,
                    found,
                    diffable=False,
                )
            )
    return out


def resolve_pointer(doc: Any, pointer: str) -> Any:
    """RFC 6901: the value at ``pointer`` in ``doc``, or a sentinel when there is none."""
    if pointer == "":
        return doc
    node = doc
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            if part not in node:
                return _MISSING
            node = node[part]
        elif isinstance(node, list):
            if not part.isdigit() or (len(part) > 1 and part.startswith("0")):
                return _MISSING
            index = int(part)
            if index >= len(node):
                return _MISSING
            node = node[index]
        else:
            return _MISSING
    return node
