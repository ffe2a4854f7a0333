"""A Draft 2020-12 validator whose ``enum``/``oneOf``/``anyOf`` are fast on big choice lists.

jsonschema checks ``enum`` by comparing the answer with every member, and ``oneOf``/``anyOf`` by
building a validator for every subschema: with 10,000 options that is ~100 ms per answer for a
titled select and more for a multi-select. The keywords here give the *same* verdicts with a set
lookup in the one case where that is provably equivalent: a string answer against string members,
or against subschemas that hold only ``const`` plus annotations (``title``, ``description``,
``$comment``), which is exactly the shape of titled options. In JSON a string equals only an
identical string, so set membership is equality. Every other case, and every failure (so that the
error objects are jsonschema's own), goes to jsonschema's original keyword function.

jsonschema is imported only when :func:`validator_class` is first called.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

_ANNOTATIONS = frozenset({"const", "title", "description", "$comment"})
_CACHE_SIZE = 512
_strings: dict[int, tuple[object, frozenset[str]]] = {}
_consts: dict[int, tuple[object, Counter[str] | None]] = {}


def _remember(cache: dict[int, Any], key: object, value: Any) -> Any:
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[id(key)] = (key, value)
    return value


def string_members(enums: list[Any]) -> frozenset[str]:
    """The string members of an ``enum`` list, computed once per list object."""
    hit = _strings.get(id(enums))
    if hit is not None and hit[0] is enums:
        return hit[1]
    members = frozenset(e for e in enums if isinstance(e, str))
    result: frozenset[str] = _remember(_strings, enums, members)
    return result


def const_counts(subschemas: list[Any]) -> Counter[str] | None:
    """How many const-only subschemas hold each string, or ``None`` if any is not const-only."""
    hit = _consts.get(id(subschemas))
    if hit is not None and hit[0] is subschemas:
        return hit[1]
    counts: Counter[str] | None = Counter()
    for sub in subschemas:
        if not isinstance(sub, dict) or "const" not in sub or not sub.keys() <= _ANNOTATIONS:
            counts = None
            break
        if isinstance(sub["const"], str) and counts is not None:
            counts[sub["const"]] += 1
    result: Counter[str] | None = _remember(_consts, subschemas, counts)
    return result


@cache
def validator_class() -> Any:
    """``Draft202012Validator`` extended with the fast keywords (built once)."""
    from jsonschema import Draft202012Validator, _keywords, validators

    # The stubs type these keyword functions as returning None; they are generators.
    original: Any = _keywords
    extend: Any = validators.extend

    def enum(validator: Any, enums: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if (
            isinstance(instance, str)
            and isinstance(enums, list)
            and instance in string_members(enums)
        ):
            return
        yield from original.enum(validator, enums, instance, schema)

    def one_of(validator: Any, subschemas: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if isinstance(instance, str) and isinstance(subschemas, list):
            counts = const_counts(subschemas)
            if counts is not None and counts[instance] == 1:
                return
        yield from original.oneOf(validator, subschemas, instance, schema)

    def any_of(validator: Any, subschemas: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if isinstance(instance, str) and isinstance(subschemas, list):
            counts = const_counts(subschemas)
            if counts is not None and counts[instance] >= 1:
                return
        yield from original.anyOf(validator, subschemas, instance, schema)

    return extend(Draft202012Validator, {"enum": enum, "oneOf": one_of, "anyOf": any_of})
