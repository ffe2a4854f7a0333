"""The compiled-validator cache: shared across separately parsed forms, exact keys, bounded."""

from __future__ import annotations

import copy
import json
import threading
from typing import Any

import pytest

from mcp_tui.schema import (
    FieldKind,
    FieldSpec,
    FormSpec,
    compiled,
    complete_with_defaults,
    parse_requested_schema,
    validate_form,
)
from mcp_tui.schema.compiled import ValidatorCache, schema_key

THIRTEEN_FIELDS = "server_everything_trigger_elicitation_request"
ANSWERS: dict[str, Any] = {
    "name": "Ada",
    "email": "ada@example.com",
    "homepage": "https://example.com/ada",
    "birthdate": "1815-12-10",
}


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every schema compiled from now on, with a fresh process cache for this test."""
    seen: list[object] = []
    real = compiled.build_validator

    def counting(schema: object) -> Any:
        seen.append(schema)
        return real(schema)

    monkeypatch.setattr(compiled, "build_validator", counting)
    monkeypatch.setattr(compiled, "VALIDATORS", ValidatorCache())
    return seen


def _wire(schema: dict[str, Any]) -> dict[str, Any]:
    """A new dict, as decoding the next request's JSON would give."""
    decoded: dict[str, Any] = json.loads(json.dumps(schema))
    return decoded


def _bare(schema: dict[str, Any], kind: FieldKind = FieldKind.TEXT) -> FormSpec:
    """A one-field form whose verdict comes from the final jsonschema check alone."""
    return FormSpec(fields=(FieldSpec("a", kind, "a"),), schema=schema)


def test_separately_parsed_forms_share_one_validator(
    builds: list[object], load_schema: Any
) -> None:
    schema = load_schema(THIRTEEN_FIELDS)
    for _ in range(5):  # five elicitation requests with the same requestedSchema
        form = parse_requested_schema(_wire(schema))
        assert validate_form(form, ANSWERS).ok
    assert len(builds) == 1
    assert len(compiled.VALIDATORS) == 1


def test_headless_answers_use_the_same_cache(builds: list[object], load_schema: Any) -> None:
    schema = load_schema(THIRTEEN_FIELDS)
    content = validate_form(parse_requested_schema(_wire(schema)), ANSWERS).content
    assert content is not None
    for _ in range(3):
        assert complete_with_defaults(parse_requested_schema(_wire(schema)), content).ok
    assert len(builds) == 1


def test_schemas_that_differ_never_share_a_validator(builds: list[object]) -> None:
    # In Python True == 1 == 1.0 (and they hash alike), so a key built from Python values would
    # let the first of these answer for the others; their JSON texts differ.
    accepts_true = _bare({"properties": {"a": {"const": True}}}, FieldKind.BOOLEAN)
    wants_one = _bare({"properties": {"a": {"const": 1}}}, FieldKind.BOOLEAN)
    wants_one_float = _bare({"properties": {"a": {"const": 1.0}}}, FieldKind.BOOLEAN)
    assert validate_form(accepts_true, {"a": True}).ok
    assert validate_form(wants_one, {"a": True}).errors == {"a": "Must be exactly 1"}
    assert validate_form(wants_one_float, {"a": True}).errors == {"a": "Must be exactly 1"}
    assert len({schema_key(f.schema) for f in (accepts_true, wants_one, wants_one_float)}) == 3
    consts = [b["properties"]["a"]["const"] for b in builds if isinstance(b, dict)]
    assert [type(c) for c in consts] == [bool, int, float]  # each compiled from its own JSON
    # Patterns are not part of the check, but a schema that differs only by one is still its
    # own entry: the key is the schema as received.
    plain = {"properties": {"a": {"maxLength": 3}}}
    patterned = {"properties": {"a": {"maxLength": 3, "pattern": "^x"}}}
    assert validate_form(_bare(plain), {"a": "long"}).errors
    assert validate_form(_bare(patterned), {"a": "long"}).errors
    assert len(builds) == 5


def test_a_cached_validator_is_not_changed_through_a_callers_dict(
    builds: list[object],
) -> None:
    original: dict[str, Any] = {"properties": {"a": {"enum": ["y"]}}}
    first = _bare(copy.deepcopy(original))
    assert not validate_form(first, {"a": "x"}).ok
    first.schema["properties"]["a"]["enum"].append("x")  # a caller mutates "its" schema
    again = _bare(copy.deepcopy(original))
    assert not validate_form(again, {"a": "x"}).ok  # the shared validator still says no
    assert len(builds) == 1


def test_the_cache_is_bounded_least_recently_used_first(builds: list[object]) -> None:
    cache = ValidatorCache(size=3)
    forms = [_bare({"properties": {"a": {"maxLength": n}}}) for n in range(5)]
    for form in forms:
        cache.validator(form)
    assert len(cache) == 3
    for form in forms[-3:]:  # still cached: a new form with the same schema compiles nothing
        cache.validator(_bare(_wire(form.schema)))
    assert len(builds) == 5
    cache.validator(_bare(_wire(forms[0].schema)))  # evicted: compiled again
    assert len(builds) == 6
    assert len(cache) == 3


def test_the_cache_is_bounded_by_key_size(builds: list[object]) -> None:
    cache = ValidatorCache(size=64, budget=200, largest=120)
    small = [_bare({"properties": {"a": {"maxLength": n}}}) for n in range(10)]
    for form in small:
        cache.validator(form)
    keys = [schema_key(f.schema) or "" for f in small]
    assert 0 < len(cache) < 10
    assert sum(len(k) for k in keys[-len(cache) :]) <= 200
    huge = {"properties": {"a": {"enum": [f"option-{i}" for i in range(20)]}}}
    assert len(schema_key(huge) or "") > 120
    before = len(cache)
    form = _bare(huge)
    assert cache.validator(form) is cache.validator(form)  # the form itself is still memoised
    cache.validator(_bare(_wire(huge)))
    assert len(cache) == before  # never cached: its key is over ``largest``
    assert len(builds) == 10 + 2


def test_a_schema_json_cannot_write_is_still_checked_uncached(builds: list[object]) -> None:
    odd: dict[str, Any] = {"properties": {"a": {"enum": ["y"], "x-tags": {"not", "json"}}}}
    assert schema_key(odd) is None
    assert validate_form(_bare(odd), {"a": "x"}).errors
    assert validate_form(_bare(odd), {"a": "y"}).ok
    assert len(builds) == 2
    assert len(compiled.VALIDATORS) == 0


def test_threads_sharing_a_small_cache_agree() -> None:
    cache = ValidatorCache(size=2)
    schemas = [{"properties": {"a": {"maxLength": n}}} for n in range(6)]
    failures: list[str] = []

    def work(offset: int) -> None:
        for i in range(120):
            n = (i + offset) % len(schemas)
            verdict = cache.validator(_bare(_wire(schemas[n]))).is_valid({"a": "abc"})
            if verdict != (n >= 3):
                failures.append(f"maxLength {n}: {verdict}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(cache) <= 2
