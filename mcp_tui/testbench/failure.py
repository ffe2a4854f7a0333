"""One expectation of a case that did not hold: the record every check and report shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Failure:
    """One expectation that did not hold."""

    #: The key path under the case's ``expect`` (``("text_regex",)``, ``("pointers", "/total")``).
    key: tuple[str | int, ...]
    #: What it says in one line: "the result's text does not match the regex".
    summary: str
    expected: Any = None
    got: Any = None
    #: Compare as text/JSON for the diff; ``False``: show the two values only.
    diffable: bool = True
    #: A snapshot (``text``, ``structured``, a request's ``schema``) with a value that came:
    #: ``--update`` can write ``got`` in its place. Every other expectation is a statement.
    snapshot: bool = False
