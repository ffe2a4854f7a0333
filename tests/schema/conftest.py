"""Fixtures shared by the schema engine tests: captured schemas and an independent oracle."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing

FIXTURES = Path(__file__).parent / "fixtures"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))
    return data


def _assert_valid(content: object, schema: dict[str, Any]) -> None:
    """``content`` satisfies the ORIGINAL schema (Draft 2020-12, nothing fetched).

    This oracle runs patterns with Python's ``re``: only schemas with harmless patterns reach it.
    """
    validator = jsonschema.Draft202012Validator(schema, registry=referencing.Registry())
    errors = [e.message for e in validator.iter_errors(content)]
    assert not errors, errors


@pytest.fixture
def load_schema() -> Callable[[str], dict[str, Any]]:
    """Load a captured real-world schema from ``fixtures/`` by file stem."""
    return _load


@pytest.fixture
def oracle() -> Callable[[object, dict[str, Any]], None]:
    return _assert_valid


@pytest.fixture
def local_tz(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Set the process's local time zone (``TZ``) for one test, and restore it after."""

    def use(zone: str) -> None:
        monkeypatch.setenv("TZ", zone)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()
