"""Time the schema engine on big forms: ``python benchmarks/bench_schema.py [runs]``.

Cases: a 13-field form (the ``everything`` server's), a 200-field form of every kind, and a
10,000-option select (untitled ``enum``, titled ``oneOf``, and a multi-select). For each: parse
alone; parse + validation of a new form with the compiled-validator cache emptied first (the first
request with this schema: compiles the jsonschema validator); parse + validation of a new form
from freshly decoded JSON (every later request with the same schema: the validator is shared,
found by the schema's JSON text); a validation of an already validated form; and a headless
``complete_with_defaults``. Prints the median of several runs with min–max, in ms.
jsonschema is imported before timing, so its one-off import cost (~75 ms) is not in any row.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jsonschema  # noqa: F401 - imported up front so no row pays for it

from mcp_tui.schema import (
    FormSpec,
    RawValue,
    compiled,
    complete_with_defaults,
    initial_values,
    parse_requested_schema,
    validate_form,
)

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "schema" / "fixtures"


def thirteen_fields() -> tuple[dict[str, Any], dict[str, RawValue]]:
    """The ``everything`` server's elicitation form (13 fields, every kind), with valid answers."""
    fixture = FIXTURES / "server_everything_trigger_elicitation_request.json"
    schema: dict[str, Any] = json.loads(fixture.read_text("utf-8"))
    answers: dict[str, RawValue] = {
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "homepage": "https://example.com/ada",
        "birthdate": "1815-12-10",
    }
    return schema, answers


def two_hundred_fields() -> tuple[dict[str, Any], dict[str, RawValue]]:
    """200 fields cycling through every kind, half of them required, with valid answers."""
    makers: list[tuple[dict[str, Any], RawValue]] = [
        ({"type": "string", "minLength": 2, "maxLength": 40}, "Ada Lovelace"),
        ({"type": "string", "format": "email"}, "ada@example.com"),
        ({"type": "string", "format": "uri"}, "https://example.com/ada"),
        ({"type": "string", "format": "date"}, "1815-12-10"),
        ({"type": "string", "format": "date-time"}, "2026-01-31T09:00:00+01:00"),
        ({"type": "string", "pattern": "^[A-Za-z ]+$"}, "Ada"),
        ({"type": "integer", "minimum": 1, "maximum": 100, "default": 30}, "42"),
        ({"type": "number", "minimum": 0, "maximum": 1}, "0.25"),
        ({"type": "boolean", "default": True}, False),
        ({"type": "string", "enum": ["red", "green", "blue"], "default": "green"}, "blue"),
        (
            {
                "type": "string",
                "oneOf": [{"const": f"v{i}", "title": f"Value {i}"} for i in range(5)],
            },
            "v3",
        ),
        (
            {
                "type": "array",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "enum": ["a", "b", "c", "d"]},
            },
            ["b", "a"],
        ),
    ]
    properties: dict[str, Any] = {}
    answers: dict[str, RawValue] = {}
    for i in range(200):
        prop, answer = makers[i % len(makers)]
        properties[f"field_{i:03d}"] = {**prop, "title": f"Field {i}"}
        answers[f"field_{i:03d}"] = answer
    schema = {
        "type": "object",
        "properties": properties,
        "required": [name for i, name in enumerate(properties) if i % 2 == 0],
    }
    return schema, answers


def big_select(shape: str) -> tuple[dict[str, Any], dict[str, RawValue]]:
    values = [f"option-{i:05d}" for i in range(10_000)]
    prop: dict[str, Any]
    answer: RawValue
    if shape == "enum":
        prop, answer = {"type": "string", "enum": values, "default": values[0]}, values[-1]
    elif shape == "oneOf":
        prop = {
            "type": "string",
            "oneOf": [{"const": v, "title": v.upper()} for v in values],
            "default": values[0],
        }
        answer = values[-1]
    else:
        prop = {
            "type": "array",
            "maxItems": 50,
            "items": {"type": "string", "enum": values},
            "default": values[:50],
        }
        answer = values[-50:]
    return {"type": "object", "properties": {"choice": prop}, "required": ["choice"]}, {
        "choice": answer
    }


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), min(samples), max(samples)


def rows(label: str, schema: dict[str, Any], answers: dict[str, RawValue], runs: int) -> None:
    form = parse_requested_schema(schema)
    assert validate_form(form, answers).ok, validate_form(form, answers).errors
    content = validate_form(form, answers).content or {}

    wire = json.dumps(schema)

    def parse_and_validate() -> None:
        fresh: FormSpec = parse_requested_schema(json.loads(wire))
        result = validate_form(fresh, answers)
        assert result.ok

    def cold() -> None:
        compiled.VALIDATORS.clear()
        parse_and_validate()

    cases: list[tuple[str, Callable[[], object]]] = [
        ("parse", lambda: parse_requested_schema(schema)),
        ("parse + validate, first of schema", cold),
        ("parse + validate, schema seen", parse_and_validate),
        ("validate the same form again", lambda: validate_form(form, answers)),
        ("validate untouched defaults", lambda: validate_form(form, initial_values(form))),
        ("complete_with_defaults", lambda: complete_with_defaults(form, content)),
    ]
    for name, fn in cases:
        median, low, high = timed(fn, runs)
        print(f"| {label:<26} | {name:<34} | {median:9.2f} | {low:8.2f} – {high:8.2f} |")


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    print(f"Python {sys.version.split()[0]}, median of {runs} runs, times in ms\n")
    print(f"| {'schema':<26} | {'step':<34} | {'median':>9} | {'min – max':>19} |")
    print(f"|{'-' * 28}|{'-' * 36}|{'-' * 11}|{'-' * 21}|")
    rows("13 fields (everything)", *thirteen_fields(), runs)
    rows("200 fields (every kind)", *two_hundred_fields(), runs)
    rows("10,000-option enum", *big_select("enum"), runs)
    rows("10,000-option oneOf", *big_select("oneOf"), runs)
    rows("10,000-option multi (50)", *big_select("multi"), runs)


if __name__ == "__main__":
    main()
