"""The start of a value's JSON, computed only as far as it is shown.

``json.dumps`` encodes the whole value in C before anything is cut: a log message whose ``data``
held 10^6 keys spent seconds of the UI's event loop to show 2,000 characters of it. Python's own
encoder (``JSONEncoder.iterencode``, which ``json.dumps`` skips for speed) yields the text in
small pieces, so stopping after the part shown costs only that part.
"""

from __future__ import annotations

import json
from typing import Any


def json_preview(value: Any, *, limit: int, indent: int | None = None) -> tuple[str, bool]:
    """The first ``limit`` characters of ``json.dumps(value, ensure_ascii=False, default=str,
    indent=indent)``, and whether there was more. A value JSON cannot hold gives its ``repr``."""
    encoder = json.JSONEncoder(ensure_ascii=False, default=str, indent=indent)
    pieces: list[str] = []
    length = 0
    try:
        for piece in encoder.iterencode(value):
            pieces.append(piece)
            length += len(piece)
            if length > limit:
                return "".join(pieces)[:limit], True
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
        return text[:limit], len(text) > limit
    return "".join(pieces), False


def json_length(value: Any, *, cap: int) -> int | None:
    """``len(json.dumps(value, ensure_ascii=False, default=str))``, or ``cap + 1`` when it is
    over ``cap`` (only that much is encoded); ``None`` when the value is not JSON."""
    encoder = json.JSONEncoder(ensure_ascii=False, default=str)
    total = 0
    try:
        for piece in encoder.iterencode(value):
            total += len(piece)
            if total > cap:
                return cap + 1
    except (TypeError, ValueError, RecursionError):
        return None
    return total
