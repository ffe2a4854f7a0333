"""The final check's memo of passed answers: exact keys, same verdicts as a fresh check, bounded."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from mcp_tui.schema import compiled, complete_with_defaults, parse_requested_schema
from mcp_tui.schema import passed as passed_module
from mcp_tui.schema.fields import FormSpec
from mcp_tui.schema.passed import MAX_KEY_CHARS, PassMemo, answer_key
from mcp_tui.schema.validate import final_check


@pytest.fixture
def memo(monkeypatch: pytest.MonkeyPatch) -> Iterator[PassMemo]:
    """A fresh process memo (and validator cache) for one test."""
    fresh = PassMemo()
    monkeypatch.setattr(passed_module, "PASSED", fresh)
    monkeypatch.setattr("mcp_tui.schema.validate.PASSED", fresh)
    monkeypatch.setattr(compiled, "VALIDATORS", compiled.ValidatorCache())
    yield fresh


def _form(properties: dict[str, Any], required: list[str] | None = None) -> FormSpec:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return parse_requested_schema(schema)


def _fresh(memo: PassMemo, form: FormSpec, content: dict[str, Any]) -> dict[str, str]:
    """The verdict with nothing remembered."""
    memo.clear()
    return final_check(form, content)


# ---- the key ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (1, True),
        (1, 1.0),
        (0, False),
        (0.0, -0.0),
        ("1", 1),
        ([1], [True]),
        (["a", "b"], ["b", "a"]),
        (None, "None"),
    ],
)
def test_equal_python_values_of_different_json_get_different_keys(a: Any, b: Any) -> None:
    assert answer_key({"x": a}) != answer_key({"x": b})


def test_only_plain_json_scalars_and_flat_lists_are_keyed() -> None:
    class Text(str):
        pass

    assert answer_key({"x": "a", "n": 2, "f": 0.5, "b": True, "z": None, "l": ["a"]}) is not None
    assert answer_key({"x": Text("a")}) is None
    assert answer_key({"x": ("a",)}) is None
    assert answer_key({"x": {"nested": 1}}) is None
    assert answer_key({"x": [["nested"]]}) is None
    assert answer_key({1: "a"}) is None  # type: ignore[dict-item]
    assert answer_key({"x": "a" * (MAX_KEY_CHARS + 1)}) is None
    assert answer_key({"x": ["a" * 100] * 101}) is None


def test_the_same_answer_gets_the_same_key() -> None:
    assert answer_key({"x": "a", "n": 1}) == answer_key({"x": "a", "n": 1})
    nan = answer_key({"x": math.nan})
    assert nan is not None and hash(nan) == hash(answer_key({"x": float("nan")}))


# ---- verdicts -----------------------------------------------------------------------------------


def test_a_pass_is_remembered_and_a_failure_never_is(memo: PassMemo) -> None:
    form = _form({"n": {"type": "integer", "maximum": 5}})
    assert final_check(form, {"n": 3}) == {}
    assert len(memo) == 1
    assert final_check(form, {"n": 3}) == {}
    assert len(memo) == 1
    failed = final_check(form, {"n": 9})
    assert failed and set(failed) == {"n"}
    assert final_check(form, {"n": 9}) == failed
    assert len(memo) == 1


def test_a_remembered_pass_does_not_pass_an_equal_value_of_another_json_type(
    memo: PassMemo,
) -> None:
    # jsonschema: ``true`` is not an integer, though ``True == 1`` in Python.
    form = _form({"n": {"type": "integer", "maximum": 2}})
    assert final_check(form, {"n": 1}) == {}
    assert final_check(form, {"n": True}) != {}
    assert final_check(form, {"n": True}) == _fresh(memo, form, {"n": True})


def test_different_schemas_never_share_a_pass(memo: PassMemo) -> None:
    loose = _form({"s": {"type": "string"}})
    strict = _form({"s": {"type": "string", "maxLength": 2}})
    assert final_check(loose, {"s": "long"}) == {}
    assert final_check(strict, {"s": "long"}) != {}
    assert final_check(loose, {"s": "long"}) == {}
    assert len(memo) == 1


def test_forms_parsed_apart_from_one_schema_share_the_pass(memo: PassMemo) -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string"}}}
    first, second = parse_requested_schema(schema), parse_requested_schema(schema)
    assert first is not second
    assert final_check(first, {"s": "x"}) == {}
    assert final_check(second, {"s": "x"}) == {}
    assert len(memo) == 1


def test_memo_gives_the_verdicts_of_a_fresh_check(memo: PassMemo) -> None:
    form = _form(
        {
            "n": {"type": "number", "minimum": 0, "multipleOf": 0.5},
            "i": {"type": "integer", "exclusiveMaximum": 10},
            "tags": {
                "type": "array",
                "items": {"type": "string", "enum": ["a", "b", "c"]},
                "uniqueItems": True,
            },
            "ok": {"type": "boolean"},
        },
        required=["i"],
    )
    answers: list[dict[str, Any]] = [
        {"n": 1.5, "i": 3, "tags": ["a"], "ok": True},
        {"n": -0.0, "i": 0},
        {"n": 0.0, "i": 0},
        {"n": 1.25, "i": 3},
        {"i": 10},
        {"i": 3.0},
        {"i": True},
        {"i": 3, "tags": ["a", "a"]},
        {"i": 3, "tags": ["d"]},
        {"i": 3, "ok": 1},
        {"n": 1.5, "i": 3, "tags": ["a"], "ok": True},
    ]
    fresh = [_fresh(memo, form, answer) for answer in answers]
    memo.clear()
    for _round in range(2):
        assert [final_check(form, answer) for answer in answers] == fresh
    assert len(memo) == sum(1 for verdict in fresh if not verdict) - 1  # one answer twice


def test_memo_is_bounded() -> None:
    memo = PassMemo(size=3)
    validator = object()
    for i in range(10):
        memo.remember(validator, (("x", (int, i)),))
    assert len(memo) == 3
    assert memo.passed(validator, (("x", (int, 9)),))
    assert not memo.passed(validator, (("x", (int, 0)),))
    assert not memo.passed(object(), (("x", (int, 9)),))


def test_headless_defaults_answer_is_checked_once_then_remembered(
    memo: PassMemo, monkeypatch: pytest.MonkeyPatch
) -> None:
    form = _form({"name": {"type": "string", "default": "Ada", "minLength": 1}})
    checks: list[object] = []
    validator = compiled.VALIDATORS.validator(form)
    real = validator.iter_errors

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(validator, name)

        def iter_errors(self, instance: object) -> Any:
            checks.append(instance)
            return real(instance)

    counting = Counting()
    monkeypatch.setattr(compiled.VALIDATORS, "validator", lambda _form: counting)
    for _ in range(5):
        result = complete_with_defaults(form, {})
        assert result.ok and result.content == {"name": "Ada"}
    assert checks == [{"name": "Ada"}]
    assert complete_with_defaults(form, {"name": "Bob"}).ok  # a new answer is checked
    assert checks == [{"name": "Ada"}, {"name": "Bob"}]
