"""``check --baseline``'s engine: each change rule, a baseline and a live server that trigger it,
and a live server that does not; the file's shape (stable, sorted, reviewable).

The listings are data (the JSON a server sends, in a :class:`Listing`), turned into the
baseline's shape by the same function the command uses, so a rule that stops firing, or fires on
a change it should not name, fails here by its id.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_tui.check import Listing
from mcp_tui.check.baseline import BaselineError, dumps, loads, snapshot
from mcp_tui.check.change_rules import CHANGE_RULES
from mcp_tui.check.changes import Change, compare_servers

LEGACY, MODERN = "2025-11-25", "2026-07-28"
Q = {"type": "string", "description": "the query"}


def schema(props: dict[str, Any] | None = None, *required: str, **root: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": {"q": Q} if props is None else props}
    if required:
        out["required"] = list(required)
    return {**out, **root}


def tool(name: str = "search", input_schema: dict[str, Any] | None = None, **extra: Any) -> Any:
    return {
        "name": name,
        "description": "Finds things.",
        "inputSchema": schema() if input_schema is None else input_schema,
        **extra,
    }


WEATHER = schema({"temperature": {"type": "number"}, "humidity": {"type": "number"}}, "temperature")
FORM = schema(
    {
        "size": {"type": "integer", "minimum": 1},
        "sort": {"type": "string", "oneOf": [{"const": "a"}, {"const": "b"}]},
    },
    "size",
)
CALLED = [{"name": "book", "ok": True}]


def listing(era: str = LEGACY, **kw: Any) -> Listing:
    kw.setdefault("capabilities", {"tools": {}, "prompts": {}, "resources": {}})
    kw.setdefault("tools", [tool()])
    kw.setdefault("prompts", [])
    kw.setdefault("resources", [])
    kw.setdefault("templates", [])
    return Listing("srv", era, **kw)


def with_schema(input_schema: dict[str, Any]) -> Listing:
    return listing(tools=[tool(input_schema=input_schema)])


def with_output(output: dict[str, Any] | None) -> Listing:
    extra = {"outputSchema": output} if output is not None else {}
    return listing(tools=[tool("weather", **extra)])


def with_annotations(**annotations: Any) -> Listing:
    return listing(tools=[tool(annotations=annotations)])


def with_form(form: dict[str, Any], message: str = "How many?") -> Listing:
    asked = {"mode": "form", "message": message, "requestedSchema": form, "_mcp_tui_call": "book"}
    return listing(calls=CALLED, elicitations=[asked])


def prompt(*arguments: dict[str, Any], name: str = "draft") -> Listing:
    return listing(prompts=[{"name": name, "arguments": list(arguments)}])


def changes(old: list[Listing], new: list[Listing], **kw: Any) -> list[Change]:
    base = loads(dumps(snapshot(old)), "baseline.json")
    return compare_servers(base, snapshot(new)["servers"], **kw)


def rules(old: list[Listing], new: list[Listing]) -> set[str]:
    return {c.rule for c in changes(old, new)}


TEMPLATE = {"uriTemplate": "file:///{path}", "name": "file"}
DOC = {"uri": "file:///a.md", "name": "a.md"}
SORT3 = schema({"sort": {"type": "string", "enum": ["asc", "desc", "random"]}})

# (rule, baseline, a live server that triggers it, one that does not)
CASES: list[tuple[str, list[Listing], list[Listing], list[Listing]]] = [
    (
        "B101",
        [listing()],
        [listing(tools=[tool("find")])],
        [listing(tools=[tool(), tool("find")])],
    ),
    ("B102", [prompt()], [listing()], [prompt({"name": "topic"})]),
    ("B103", [listing(templates=[TEMPLATE])], [listing()], [listing(templates=[TEMPLATE])]),
    (
        "B104",
        [listing(capabilities={"tools": {"listChanged": True}})],
        [listing(capabilities={"tools": {}})],
        [listing(capabilities={"tools": {"listChanged": True}, "logging": {}})],
    ),
    (
        "B105",
        [listing(), listing(MODERN)],
        [listing()],
        [listing(), listing(MODERN)],
    ),
    (
        "B201",
        [listing()],
        [with_schema(schema({"q": Q, "limit": {"type": "integer"}}, "limit"))],
        [with_schema(schema({"q": Q, "limit": {"type": "integer"}}))],
    ),
    (
        "B202",
        [with_schema(schema({"q": Q, "limit": {"type": "integer"}}, "q"))],
        [with_schema(schema({"q": Q, "limit": {"type": "integer"}}, "q", "limit"))],
        [with_schema(schema({"q": Q, "limit": {"type": "integer"}}))],
    ),
    (
        "B203",
        [with_schema(schema({"q": Q, "sort": {"type": "string"}}))],
        [with_schema(schema({"q": Q}))],
        [with_schema(schema({"q": Q, "sort": {"type": "string"}, "page": {"type": "integer"}}))],
    ),
    (
        "B204",
        [with_schema(schema({"limit": {"type": "number"}}))],
        [with_schema(schema({"limit": {"type": "string"}}))],
        [with_schema(schema({"limit": {"type": ["number", "null"]}}))],
    ),
    (
        "B205",
        [with_schema(SORT3)],
        [with_schema(schema({"sort": {"type": "string", "enum": ["asc", "desc"]}}))],
        [with_schema(schema({"sort": {"type": "string", "enum": ["asc", "desc", "random", "x"]}}))],
    ),
    (
        "B206",
        [with_schema(schema({"q": {"type": "string", "maxLength": 200}}))],
        [with_schema(schema({"q": {"type": "string", "maxLength": 100}}))],
        [with_schema(schema({"q": {"type": "string", "maxLength": 300}}))],
    ),
    (
        "B207",
        [with_schema(schema({"when": {"type": "string"}}))],
        [with_schema(schema({"when": {"type": "string", "format": "date"}}))],
        [with_schema(schema({"when": {"type": "string", "description": "a day"}}))],
    ),
    (
        "B208",
        [with_schema(schema())],
        [with_schema(schema(additionalProperties=False))],
        [with_schema(schema(additionalProperties=True))],
    ),
    ("B301", [with_output(WEATHER)], [with_output(None)], [with_output(WEATHER)]),
    (
        "B302",
        [with_output(WEATHER)],
        [with_output(schema({"temperature": {"type": "number"}}, "temperature"))],
        [with_output({**WEATHER, "properties": {**WEATHER["properties"], "wind": {}}})],
    ),
    (
        "B303",
        [with_output(WEATHER)],
        [with_output({**WEATHER, "required": []})],
        [with_output({**WEATHER, "required": ["humidity", "temperature"]})],
    ),
    (
        "B304",
        [with_output(WEATHER)],
        [
            with_output(
                schema(
                    {"temperature": {"type": ["number", "null"]}, "humidity": {"type": "number"}},
                    "temperature",
                )
            )
        ],
        [
            with_output(
                schema(
                    {"temperature": {"type": "integer"}, "humidity": {"type": "number"}},
                    "temperature",
                )
            )
        ],
    ),
    (
        "B401",
        [with_annotations(readOnlyHint=True)],
        [with_annotations(destructiveHint=True)],
        [with_annotations(readOnlyHint=True, idempotentHint=True)],
    ),
    (
        "B402",
        [listing(tools=[tool(execution={"taskSupport": "optional"})])],
        [listing(tools=[tool(execution={"taskSupport": "required"})])],
        [listing(tools=[tool(execution={"taskSupport": "forbidden"})])],
    ),
    ("B501", [listing()], [listing(tools=[tool(), tool("find")])], [listing()]),
    ("B502", [listing()], [prompt()], [listing()]),
    ("B503", [listing()], [listing(templates=[TEMPLATE])], [listing()]),
    ("B504", [listing(resources=[DOC])], [listing()], [listing(resources=[DOC])]),
    (
        "B505",
        [listing()],
        [listing(capabilities={"tools": {"listChanged": True}, "prompts": {}, "resources": {}})],
        [listing()],
    ),
    ("B506", [listing()], [listing(), listing(MODERN)], [listing()]),
    (
        "B507",
        [listing()],
        [with_schema(schema({"q": Q, "limit": {"type": "integer", "default": 10}}))],
        [with_schema(schema({"q": Q, "limit": {"type": "integer"}}, "limit"))],
    ),
    (
        "B508",
        [with_schema(schema({"q": Q}, "q"))],
        [with_schema(schema({"q": Q}))],
        [with_schema(schema({"q": Q}, "q"))],
    ),
    (
        "B509",
        [with_schema(schema({"q": {"type": "string", "maxLength": 100}}))],
        [with_schema(schema({"q": {"type": "string", "maxLength": 200}}))],
        [with_schema(schema({"q": {"type": "string", "maxLength": 50}}))],
    ),
    (
        "B510",
        [with_output(None)],
        [with_output(WEATHER)],
        [with_output(None)],
    ),
    (
        "B511",
        [listing()],
        [listing(tools=[tool(description="Finds things, fast.")])],
        [listing(tools=[tool(description="Finds things.")])],
    ),
    (
        "B512",
        [with_annotations()],
        [with_annotations(readOnlyHint=True)],
        [with_annotations()],
    ),
    (
        "B513",
        [with_form(FORM)],
        [listing(calls=CALLED)],
        [listing()],  # the call was not made this time: its forms are not compared
    ),
    ("B514", [listing("2025-06-18")], [listing()], [listing("2025-06-18")]),
]


def test_every_change_rule_has_a_case() -> None:
    assert sorted(CHANGE_RULES) == sorted(rule for rule, *_ in CASES)


@pytest.mark.parametrize(("rule", "old", "bad", "good"), CASES, ids=[c[0] for c in CASES])
def test_rule_fires_on_its_change_only(
    rule: str, old: list[Listing], bad: list[Listing], good: list[Listing]
) -> None:
    assert rule in rules(old, bad)
    assert rule not in rules(old, good)
    assert changes(old, old) == []


def test_each_rule_reports_at_its_level() -> None:
    breaking = {r for r in CHANGE_RULES if CHANGE_RULES[r].level == "breaking"}
    assert breaking == {r for r in CHANGE_RULES if r < "B500"}
    for r in CHANGE_RULES.values():
        assert r.name and r.title and r.why and r.example
        assert bool(r.instead) == (r.level == "breaking"), r.id


def test_a_rename_is_a_removal_and_an_addition_said_so() -> None:
    found = changes([listing()], [listing(tools=[tool("find_items")])])
    assert [(c.rule, c.where) for c in found] == [
        ("B101", "tool search"),
        ("B501", "tool find_items"),
    ]
    assert "renamed to find_items?" in found[0].message
    assert "a removal and an addition" in found[0].message


def test_a_change_on_both_eras_is_one_line_naming_both() -> None:
    old = [listing(), listing(MODERN)]
    new = [listing(e, tools=[tool(input_schema=schema({"q": Q}, "q"))]) for e in (LEGACY, MODERN)]
    found = changes(old, new)
    assert [(c.rule, c.pointer, c.eras) for c in found] == [
        ("B202", "/inputSchema/properties/q", (LEGACY, MODERN))
    ]


def test_elicitation_field_made_required_and_enum_narrowed() -> None:
    narrowed = schema(
        {
            "size": {"type": "integer", "minimum": 1},
            "sort": {"type": "string", "oneOf": [{"const": "a"}]},
            "note": {"type": "string"},
        },
        "size",
        "note",
    )
    found = changes([with_form(FORM)], [with_form(narrowed, message="How many now?")])
    got = {(c.rule, c.where, c.pointer) for c in found}
    assert got == {
        ("B201", "elicitation in book #1", "/requestedSchema/properties/note"),
        ("B205", "elicitation in book #1", "/requestedSchema/properties/sort"),
        ("B511", "elicitation in book #1", "/message"),
    }
    assert all(c.level == "breaking" for c in found if c.rule != "B511")


def test_prompt_arguments() -> None:
    old = [prompt({"name": "topic", "required": True}, {"name": "tone"})]
    new = [prompt({"name": "topic", "required": True}, {"name": "tone", "required": True})]
    assert rules(old, new) == {"B202"}
    added = [
        prompt(
            {"name": "topic", "required": True}, {"name": "tone"}, {"name": "x", "required": True}
        )
    ]
    assert rules(old, added) == {"B201"}
    assert rules(old, [prompt({"name": "topic", "required": True})]) == {"B203"}


def test_nested_and_referenced_schemas_are_followed() -> None:
    defs = {"$defs": {"Address": schema({"city": {"type": "string"}})}}
    old = schema({"to": {"$ref": "#/$defs/Address"}}, **defs)
    new = schema(
        {"to": {"$ref": "#/$defs/Address"}},
        **{"$defs": {"Address": schema({"city": {"type": "string"}}, "city")}},
    )
    found = changes([with_schema(old)], [with_schema(new)])
    assert [(c.rule, c.pointer) for c in found] == [
        ("B202", "/inputSchema/properties/to/properties/city")
    ]


def test_a_recursive_schema_ends() -> None:
    tree = schema({"child": {"$ref": "#"}, "name": {"type": "string"}})
    deeper = schema({"child": {"$ref": "#"}, "name": {"type": "integer"}})
    found = changes([with_schema(tree)], [with_schema(deeper)])
    assert {c.rule for c in found} == {"B204"}


def test_a_failed_listing_is_not_compared() -> None:
    failed = listing(tools=None, errors={"tools": "boom"})
    assert rules([listing()], [failed]) == set()


def test_an_era_outside_the_run_is_not_compared() -> None:
    assert changes([listing(), listing(MODERN)], [listing()], checked_eras=[LEGACY]) == []


def test_one_server_on_each_side_is_the_same_whatever_its_name() -> None:
    old = [Listing("python server.py", LEGACY, tools=[tool()])]
    new = [Listing("python /ci/server.py", LEGACY, tools=[tool()])]
    assert changes(old, new) == []


def test_ignore_takes_change_ids() -> None:
    assert changes([listing()], [listing(tools=[tool("find")])], ignore=["b101", "B501"]) == []


# ---- the file -----------------------------------------------------------------------------------


def test_the_file_is_stable_sorted_and_ascii() -> None:
    a = listing(
        tools=[tool("zeta", schema({"b": Q, "a": Q}, "b", "a")), tool("alpha", description="é")]
    )
    b = listing(
        tools=[tool("alpha", description="é"), tool("zeta", schema({"a": Q, "b": Q}, "a", "b"))]
    )
    text = dumps(snapshot([a]))
    assert text == dumps(snapshot([b]))
    assert text.isascii() and text.endswith("}\n")
    assert text.index('"alpha"') < text.index('"zeta"')
    data = json.loads(text)
    assert data["mcp-tui-baseline"] == 1
    assert data["servers"]["srv"][LEGACY]["tools"]["zeta"]["inputSchema"]["required"] == ["a", "b"]


def test_the_file_keeps_the_contract_not_the_deploy() -> None:
    t = tool(annotations={"readOnlyHint": True}, _meta={"build": "1234"}, icons=[{"src": "x"}])
    kept = snapshot([listing(tools=[t])])["servers"]["srv"][LEGACY]["tools"]["search"]
    assert sorted(kept) == ["annotations", "description", "inputSchema"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{", "not JSON"),
        ("[]", "not an mcp-tui baseline"),
        ('{"mcp-tui-baseline": 2, "servers": {}}', "format 2"),
        ('{"mcp-tui-baseline": 1, "servers": []}', '"servers" must map'),
        (
            '{"mcp-tui-baseline": 1, "servers": {"s": {"2025-11-25": {"tools": ["a"]}}}}',
            '"s" / "2025-11-25": "tools" must map each name to an object',
        ),
        (
            '{"mcp-tui-baseline": 1, "servers": {"s": {"2025-11-25": {"calls": "book"}}}}',
            '"calls" must be a list of strings',
        ),
    ],
)
def test_a_bad_file_says_what_is_wrong(text: str, said: str) -> None:
    with pytest.raises(BaselineError, match=said) as caught:
        loads(text, "mcp-baseline.json")
    assert str(caught.value).startswith("mcp-baseline.json: ")


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)
_TOOL = st.fixed_dictionaries(
    {"name": st.sampled_from(["a", "b"])},
    optional={
        k: _JSON for k in ("inputSchema", "outputSchema", "annotations", "execution", "title")
    },
)
_PROMPT = st.fixed_dictionaries(
    {"name": st.sampled_from(["p", "q"])}, optional={"arguments": st.lists(_JSON, max_size=3)}
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_TOOL, max_size=3),
    st.lists(_TOOL, max_size=3),
    st.lists(_PROMPT, max_size=2),
    st.lists(_PROMPT, max_size=2),
    st.dictionaries(st.text(max_size=4), _JSON, max_size=3),
)
def test_any_shape_a_server_sends_is_compared_never_a_crash(
    old_tools: list[Any],
    new_tools: list[Any],
    old_prompts: list[Any],
    new_prompts: list[Any],
    caps: Any,
) -> None:
    old = [listing(tools=old_tools, prompts=old_prompts, capabilities=caps)]
    new = [listing(tools=new_tools, prompts=new_prompts)]
    for change in changes(old, new):
        assert change.rule in CHANGE_RULES
