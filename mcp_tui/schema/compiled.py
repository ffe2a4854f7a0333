"""The compiled jsonschema validators behind the final check, and the cache that shares them.

:func:`check_copy` is the schema the final check uses (see ``validate``'s docstring for why
patterns, ``$schema``, ids and anchors are removed); :func:`build_validator` compiles it with an
empty ``referencing.Registry()``; :data:`VALIDATORS` shares one compiled validator between every
form whose schema has the same JSON text, because each elicitation request parses a new
:class:`~mcp_tui.schema.fields.FormSpec`. jsonschema is imported only when the first validator is
built.
"""

from __future__ import annotations

import json
from typing import Any, Final

from mcp_tui.schema.fields import FormSpec
from mcp_tui.schema.keywords import DEFINITIONS, IN_LIST, IN_NAMES, IN_ONE
from mcp_tui.schema.lru import Lru

_STRIPPED = frozenset(
    {
        "pattern",
        "patternProperties",
        "$schema",
        "$id",
        "$anchor",
        "$dynamicAnchor",
        "$recursiveAnchor",
    }
)
#: Every place a subschema can be, definitions included: a pattern inside one is stripped too.
_NAMED: Final = IN_NAMES | DEFINITIONS
_MAX_DEPTH = 32


def check_copy(schema: object, depth: int = 0) -> object:
    """The schema the final check uses: ``schema`` without patterns, ``$schema``, ids, anchors.

    Only dicts on the way to a subschema are copied (shallowly); everything else is shared.
    Subschemas nested deeper than 32 levels (which the parser never accepts) become ``{}``.
    """
    if not isinstance(schema, dict):
        return schema
    if depth > _MAX_DEPTH:
        return {}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _STRIPPED:
            continue
        if key in _NAMED and isinstance(value, dict):
            out[key] = {k: check_copy(v, depth + 1) for k, v in value.items()}
        elif key in IN_LIST and isinstance(value, list):
            out[key] = [check_copy(v, depth + 1) for v in value]
        elif key in IN_ONE:
            out[key] = check_copy(value, depth + 1)
        else:
            out[key] = value
    return out


def build_validator(schema: object) -> Any:
    """A Draft 2020-12 validator (with fast choice keywords) that can never fetch anything."""
    from referencing import Registry

    from mcp_tui.schema.fastcheck import validator_class

    return validator_class()(schema, registry=Registry())


class ValidatorCache:
    """Compiled validators shared by every form whose schema has the same JSON text.

    Each elicitation request is parsed into a new :class:`FormSpec`, so a cache keyed by the form
    object never hits across requests, and compiling plus first use costs ~0.3-0.8 ms for a
    13-field form (several ms for 10,000 options). The key is the schema's compact JSON text
    (``json.dumps`` with no key sorting, so keyword order, and with it which message jsonschema
    reports first, is kept). In Python's ``json``, ``1``, ``1.0`` and ``true`` are all spelled
    differently, so schemas that validate differently never share a key; and the validator is
    built from ``json.loads(key)``, not from the caller's dict, so its verdicts are a function of
    the key alone (a non-JSON schema, e.g. a tuple for a list, is checked as the JSON it would be on
    the wire) and later changes to a caller's dict cannot reach a cached validator. The original
    schema is the key rather than :func:`check_copy` of it because the copy is a pure function of
    it and costs more than the ``json.dumps`` (5.8 ms against 4.9 ms for a 10,000-option
    ``oneOf``). A schema ``json`` cannot write (a cycle, a non-JSON value, absurd depth) is compiled
    every time, uncached.

    Bounded twice: at most ``size`` entries (least recently used goes first) and ``budget``
    characters of keys in all; one key longer than ``largest`` is never cached (the compiled copy
    of a schema is held as Python objects, several times its JSON size). The 10,000-option
    ``oneOf`` of ``benchmarks/bench_schema.py`` is ~0.5 M characters and is still worth caching: its
    key costs less than rebuilding. A short identity memo in front skips even the ``json.dumps``
    when the same form is checked again (every submit of an open 200-field form). Both are
    :class:`~mcp_tui.schema.lru.Lru` maps, whose locks keep the bookkeeping consistent if a worker
    thread validates while the event loop does; compiling happens outside them (two threads may
    both compile on a miss, which is harmless: the later one is kept).
    """

    def __init__(self, size: int = 64, budget: int = 4_000_000, largest: int = 1_000_000) -> None:
        self.size = size
        self.budget = budget
        self.largest = largest
        self._by_key: Lru[str, Any] = Lru(size, budget=budget, weigh=len)
        self._by_form: Lru[int, tuple[FormSpec, Any]] = Lru(_FORM_MEMO_SIZE)

    def __len__(self) -> int:
        return len(self._by_key)

    def clear(self) -> None:
        """Forget every compiled validator (tests; a long session never needs it)."""
        self._by_key.clear()
        self._by_form.clear()

    def validator(self, form: FormSpec) -> Any:
        """The compiled validator for ``form``'s schema, compiled at most once per distinct JSON."""
        hit = self._by_form.get(id(form))
        if hit is not None and hit[0] is form:
            return hit[1]
        key = schema_key(form.schema)
        if key is not None and len(key) > self.largest:
            key = None
        validator = None if key is None else self._by_key.get(key)
        if validator is None:
            schema = None if key is None else _read(key)
            if key is None or schema is None:  # not JSON both ways: compiled, never shared
                return self._remember(form, build_validator(check_copy(form.schema)))
            validator = build_validator(check_copy(schema))
            self._by_key.put(key, validator)
        return self._remember(form, validator)

    def _remember(self, form: FormSpec, validator: Any) -> Any:
        self._by_form.put(id(form), (form, validator))
        return validator


_FORM_MEMO_SIZE = 8


def _read(key: str) -> object:
    """The schema a key spells (a fresh copy), or ``None`` if ``json`` cannot read it back.

    A key that reads back as JSON ``null`` also gives ``None``: it is compiled uncached, like
    any schema that is not a JSON object (and the parser never accepts one).
    """
    try:
        return json.loads(key)
    except (ValueError, RecursionError):
        return None


def schema_key(schema: object) -> str | None:
    """The cache key for ``schema``: its compact JSON text, or ``None`` if ``json`` cannot write it.

    ``allow_nan`` stays on: ``NaN`` and ``Infinity`` are written and read back as themselves.
    """
    try:
        return _KEY_ENCODER.encode(schema)
    except (TypeError, ValueError, RecursionError):
        return None


#: ``json.dumps(schema, separators=(",", ":"))`` builds this encoder on every call; the key of
#: every elicitation request is written with one built once (the same text).
_KEY_ENCODER: Final = json.JSONEncoder(separators=(",", ":"))


#: The process-wide cache that ``final_check`` (so ``validate_form`` and
#: ``complete_with_defaults``) compiles through.
VALIDATORS: Final = ValidatorCache()
