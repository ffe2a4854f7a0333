"""Schemas captured from the frameworks themselves, read as forms and answered.

Captured (issue 16) by running the generators, not written by hand:
``sdk16_pydantic_profile`` is pydantic 2.14's ``model_json_schema()`` (what ``mcp`` 1.30.0's
``ctx.elicit(schema=Model)`` sends) for a model with ``Optional[str]``, an ``Enum`` class (plain
and Optional), an ``IntEnum``, ``list[str]``, ``Optional[date]``, an email and bounds;
``sdk16_fastmcp4_ticket`` is FastMCP 4.1.6's ``get_elicitation_schema`` for a dataclass with an
``IntEnum``, a ``Literal`` and a list of literals (FastMCP itself refuses Optional and free lists);
``sdk16_zod4_profile`` is zod 4.6.7's ``z.toJSONSchema(..., {io: "input"})`` and
``sdk16_zod3_profile`` zod 3.25.76 with zod-to-json-schema 3.25.2, both for the same object
(``.nullable()``, ``.email()``, ``.datetime()``, ``.int()``, a union of number literals, a nullable
enum, ``z.array(z.string())``, ``z.literal``). Each answer is checked by an independent oracle
against the schema as captured.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcp_tui.schema import (
    FieldKind,
    complete_with_defaults,
    constraint_text,
    parse_requested_schema,
    validate_form,
)
from mcp_tui.schema.fields import NULL, RawValue

Loader = Callable[[str], dict[str, Any]]
Oracle = Callable[[object, dict[str, Any]], None]

K = FieldKind
CASES: list[tuple[str, dict[str, tuple[FieldKind, bool]], dict[str, RawValue], dict[str, Any]]] = [
    (
        "sdk16_pydantic_profile",
        {
            "name": (K.TEXT, False),
            "nickname": (K.TEXT, True),
            "color": (K.SELECT, False),
            "favourite": (K.SELECT, True),
            "priority": (K.SELECT, False),
            "tags": (K.LIST, False),
            "birthday": (K.TEXT, True),
            "email": (K.TEXT, False),
            "age": (K.INTEGER, True),
            "subscribe": (K.BOOLEAN, False),
        },
        {"name": "Ada", "favourite": "blue", "priority": "3", "tags": ["x", "y"], "age": NULL},
        {
            "name": "Ada",
            "color": "green",
            "favourite": "blue",
            "priority": 3,
            "tags": ["x", "y"],
            "age": None,
            "subscribe": True,
        },
    ),
    (
        "sdk16_fastmcp4_ticket",
        {
            "title": (K.TEXT, False),
            "priority": (K.SELECT, False),
            "kind": (K.SELECT, False),
            "assignee": (K.TEXT, False),
            "labels": (K.MULTI_SELECT, False),
            "estimate": (K.NUMBER, False),
        },
        {"title": "Crash", "labels": ["api"]},
        {
            "title": "Crash",
            "priority": 2,
            "kind": "bug",
            "assignee": "",
            "labels": ["api"],
            "estimate": 1.5,
        },
    ),
    *[
        (
            name,
            {
                "name": (K.TEXT, False),
                "nickname": (K.TEXT, True),
                "email": (K.TEXT, False),
                "when": (K.TEXT, False),
                "count": (K.INTEGER, False),
                "priority": (K.SELECT, False),
                "color": (K.SELECT, True),
                "tags": (K.LIST, False),
                "version": (K.CONST, False),
            },
            {
                "name": "Ada",
                "email": "ada@example.com",
                "when": "2026-01-31T09:00+01:00",
                "count": "7",
                "color": NULL,
                "tags": ["a", "", "b"],
            },
            {
                "name": "Ada",
                "email": "ada@example.com",
                # zod 4 writes a pattern that accepts only Z: the same instant in UTC is sent.
                # zod-to-json-schema writes no pattern, so the offset typed is kept (zod 3's own
                # check would still want Z: a limit of what its schema says, see the README).
                "when": "2026-01-31T08:00:00Z"
                if name == "sdk16_zod4_profile"
                else ("2026-01-31T09:00:00+01:00"),
                "count": 7,
                "priority": 2,
                "color": None,
                "tags": ["a", "b"],
                "version": "v1",
            },
        )
        for name in ("sdk16_zod4_profile", "sdk16_zod3_profile")
    ],
]


@pytest.mark.parametrize(("name", "kinds", "raws", "sent"), CASES, ids=[c[0] for c in CASES])
def test_captured_schema_becomes_a_form_and_its_answer_passes(
    load_schema: Loader,
    oracle: Oracle,
    name: str,
    kinds: dict[str, tuple[FieldKind, bool]],
    raws: dict[str, RawValue],
    sent: dict[str, Any],
) -> None:
    schema = load_schema(name)
    form = parse_requested_schema(schema)
    assert {f.name: (f.kind, f.nullable) for f in form.fields} == kinds
    result = validate_form(form, raws)
    assert result.errors == {}
    assert result.content == sent
    for key, value in sent.items():
        assert type(result.content[key]) is type(value), key  # 3 not "3", 2 not 2.0
    oracle(result.content, schema)
    headless = complete_with_defaults(form, {k: v for k, v in sent.items()})
    assert headless.content == sent


def test_no_captured_hint_shows_a_generated_regex_or_a_huge_bound(load_schema: Loader) -> None:
    for name in ("sdk16_zod4_profile", "sdk16_zod3_profile"):
        form = parse_requested_schema(load_schema(name))
        for f in form.fields:
            assert "matching" not in constraint_text(f) and "9007199254740991" not in (
                constraint_text(f)
            ), (name, f.name)
    zod4 = parse_requested_schema(load_schema("sdk16_zod4_profile"))
    assert "9007199254740991" in constraint_text(zod4.field_named("count"), full=True)
