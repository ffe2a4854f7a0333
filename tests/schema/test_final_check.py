"""The final jsonschema check: original schema, compiled once, never fetches, never runs ``re``."""

from __future__ import annotations

import re
from typing import Any

import jsonschema
import pytest
import referencing

from mcp_tui.schema import (
    FieldKind,
    FieldSpec,
    FormSpec,
    compiled,
    parse_requested_schema,
    validate_form,
)
from mcp_tui.schema.compiled import check_copy


class PythonReUsed(BaseException):
    """Raised when Python ``re`` is asked to compile a server's pattern (a BaseException, so
    that no ``except Exception`` on the way can turn it into a quiet "refused" or "no match")."""


#: The patterns of the test's server schema: Python's backtracking ``re`` must never see them.
EVIL, REFUSED = SERVER_PATTERNS = ("^(a+)+$", r"^(?=x)y")  # catastrophic; lookahead (RE2 refuses)


@pytest.fixture
def no_python_re(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any compilation of a server pattern by Python ``re`` fails the test at once.

    ``re._compile`` is the one door every ``re.compile/search/match/...`` goes through (the cache
    is behind it), so this catches ``re`` reached from anywhere: jsonschema's ``pattern`` keyword
    or mcp-tui's own code, and not only the ``re`` one module imported.
    """
    real = re._compile  # type: ignore[attr-defined]

    def guarded(pattern: Any, flags: Any) -> Any:
        if pattern in SERVER_PATTERNS:
            raise PythonReUsed(f"Python re.compile({pattern!r}) was reached")
        return real(pattern, flags)

    monkeypatch.setattr(re, "_compile", guarded)


def test_check_copy_drops_patterns_and_ids_only() -> None:
    schema: dict[str, Any] = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": 5,
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "pattern": "^(a+)+$", "minLength": 1},
            "tags": {"type": "array", "items": {"enum": ["a"], "pattern": "x"}},
        },
        "required": ["pattern"],
    }
    assert check_copy(schema) == {
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "minLength": 1},
            "tags": {"type": "array", "items": {"enum": ["a"]}},
        },
        "required": ["pattern"],
    }
    assert schema["properties"]["pattern"]["pattern"] == "^(a+)+$"  # the original is untouched


@pytest.mark.usefixtures("no_python_re")
# Backstop for a way round the guard: ``re`` checks signals while matching, so the alarm fails this
# test alone (and the run goes on) instead of the suite-wide limit ending the run.
@pytest.mark.timeout(20, method="signal")
def test_patterns_never_reach_python_re() -> None:
    form = parse_requested_schema(
        {
            "type": "object",
            "properties": {
                "evil": {"type": "string", "pattern": EVIL},
                "refused": {"type": "string", "pattern": REFUSED},
            },
        }
    )
    attack = "a" * 40 + "!"
    assert validate_form(form, {"evil": attack}).errors == {
        "evil": "Must match the pattern ^(a+)+$"
    }
    result = validate_form(form, {"evil": "aaaa", "refused": "anything"})
    assert result.content == {"evil": "aaaa", "refused": "anything"}


def test_validator_is_compiled_once_per_form(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Any] = []
    real = compiled.build_validator

    def counting(schema: object) -> Any:
        built.append(real(schema))
        return built[-1]

    monkeypatch.setattr(compiled, "build_validator", counting)
    monkeypatch.setattr(compiled, "VALIDATORS", compiled.ValidatorCache())
    form = parse_requested_schema({"type": "object", "properties": {"a": {"type": "integer"}}})
    for text in ("1", "2", "3", "x"):
        validate_form(form, {"a": text})
    assert len(built) == 1
    # Draft 2020-12 semantics, and an empty registry: nothing but the schema itself resolves.
    assert built[0].META_SCHEMA == jsonschema.Draft202012Validator.META_SCHEMA
    assert isinstance(built[0]._registry, referencing.Registry) and len(built[0]._registry) == 0
    other = parse_requested_schema({"type": "object", "properties": {"a": {"type": "string"}}})
    validate_form(other, {"a": "1"})
    assert len(built) == 2  # another schema, another validator (sharing: test_validator_cache)


def _bare(schema: dict[str, Any]) -> FormSpec:
    """A form whose schema the parser would have refused, to test the check's own defences."""
    return FormSpec(fields=(FieldSpec("a", FieldKind.TEXT, "a"),), schema=schema)


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        (
            {"type": "object", "properties": {"a": {"$ref": "https://example.invalid/s.json"}}},
            "The server's schema could not be checked (it refers to another schema, which is "
            "never fetched)",
        ),
        (
            {"$ref": "#"},
            "The server's schema could not be checked (it refers to itself without end)",
        ),
        (
            {"type": "object", "minProperties": 3},
            "Rejected by the server's schema: {'a': 'no'} does not have enough properties",
        ),
        ({"properties": {"a": {"const": "yes"}}}, 'Must be exactly "yes"'),
        (
            {"properties": {"a": {"maxLength": 1}}},
            "Rejected by the server's schema: 'no' is too long",
        ),
    ],
)
def test_jsonschema_failures_become_field_messages(schema: dict[str, Any], message: str) -> None:
    assert validate_form(_bare(schema), {"a": "no"}).errors == {"a": message}


def test_jsonschema_messages_are_translated_for_the_field() -> None:
    form = FormSpec(
        fields=(FieldSpec("a", FieldKind.TEXT, "a"), FieldSpec("n", FieldKind.INTEGER, "n")),
        schema={
            "type": "object",
            "properties": {
                "a": {"type": "string", "const": "yes"},
                "n": {"type": "integer", "minimum": 1},
            },
        },
    )
    assert validate_form(form, {"a": "no", "n": "3"}).errors == {"a": 'Must be exactly "yes"'}


def test_format_is_not_asserted_by_jsonschema() -> None:
    # Our format rules already ran; the check must not reject (or crash on) formats it knows
    # differently, such as "uri" with no rfc3987 package installed.
    form = parse_requested_schema(
        {"type": "object", "properties": {"u": {"type": "string", "format": "uri"}}}
    )
    assert validate_form(form, {"u": "urn:isbn:0451450523"}).ok


FAST_CASES: list[tuple[dict[str, Any], object]] = [
    ({"enum": ["a", "b", 1]}, "a"),
    ({"enum": ["a", "b", 1]}, "c"),
    ({"enum": ["a", "b", 1]}, 1),
    ({"enum": ["a", "b", 1]}, True),
    ({"oneOf": [{"const": "a", "title": "A"}, {"const": "b"}]}, "a"),
    ({"oneOf": [{"const": "a", "title": "A"}, {"const": "a"}]}, "a"),  # two match: invalid
    ({"oneOf": [{"const": "a"}, {"const": 1}]}, "c"),
    ({"oneOf": [{"const": "a"}, {"type": "string"}]}, "a"),  # not const-only: original path
    ({"anyOf": [{"const": "a"}, {"const": "a"}]}, "a"),
    ({"anyOf": [{"const": "a", "description": "x"}]}, "b"),
    ({"items": {"anyOf": [{"const": "x"}, {"const": "y"}]}}, ["y", "x"]),
    ({"items": {"enum": ["x", "y"]}}, ["y", "z"]),
]


@pytest.mark.parametrize(("schema", "instance"), FAST_CASES)
def test_fast_choice_keywords_agree_with_jsonschema(
    schema: dict[str, Any], instance: object
) -> None:
    plain = jsonschema.Draft202012Validator(schema, registry=referencing.Registry())
    fast = compiled.build_validator(schema)
    assert fast.is_valid(instance) == plain.is_valid(instance)
    assert [e.validator for e in fast.iter_errors(instance)] == [
        e.validator for e in plain.iter_errors(instance)
    ]
