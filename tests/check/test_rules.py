"""Each check of ``mcp-tui check``: a listing that triggers it, and one that does not.

The listings are the JSON real servers send (pydantic's ``anyOf`` with null, FastMCP's integer
enum, zod's patterns, dotted tool names), so a check that stops firing, or starts firing on a
clean server, fails here by its id.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.check import RULES, Listing, run_checks
from mcp_tui.check.catalog import template_problem
from mcp_tui.check.report import unknown_ids

OBJ = {"type": "object", "properties": {"q": {"type": "string", "description": "the query"}}}


def tool(name: str = "search", **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "title": "Search",
        "description": "Finds things.",
        "inputSchema": OBJ,
        **extra,
    }


def form(properties: dict[str, Any], **root: Any) -> dict[str, Any]:
    return {
        "message": "m",
        "requestedSchema": {"type": "object", "properties": properties, **root},
        "_mcp_tui_call": "book",
    }


def listing(era: str = "2025-11-25", **kw: Any) -> Listing:
    kw.setdefault("capabilities", {"tools": {}, "prompts": {}, "resources": {}})
    return Listing("srv", era, **kw)


def found(rule: str, *listings: Listing) -> list[Any]:
    return [f for f in run_checks(list(listings)).findings if f.rule == rule]


# (rule, a listing that triggers it, one that does not)
CASES: list[tuple[str, Listing, Listing]] = [
    ("T101", listing(tools=[tool("search things")]), listing(tools=[tool("search.things")])),
    ("T102", listing(tools=[tool("search.things")]), listing(tools=[tool("search_things")])),
    ("T103", listing(tools=[tool(), tool()]), listing(tools=[tool(), tool("other")])),
    (
        "T104",
        listing(tools=[tool(inputSchema={"type": "string"})]),
        listing(
            tools=[
                tool(
                    inputSchema={
                        "type": "object",
                        "$schema": "http://json-schema.org/draft-07/schema#",
                    }
                )
            ]
        ),
    ),
    (
        "T105",
        listing(tools=[tool(outputSchema={"type": "object", "properties": {"n": {"type": 3}}})]),
        listing(
            tools=[tool(outputSchema={"type": "object", "properties": {"n": {"type": "integer"}}})]
        ),
    ),
    ("T201", listing(tools=[tool(description="  ")]), listing(tools=[tool()])),
    (
        "T202",
        listing(tools=[tool(title=None)]),
        listing(tools=[tool(title=None, annotations={"title": "S"})]),
    ),
    (
        "T203",
        listing(
            tools=[tool(inputSchema={"type": "object", "properties": {"q": {"type": "string"}}})]
        ),
        listing(tools=[tool()]),
    ),
    ("T301", listing(tools=[tool()]), listing(tools=[])),
    (
        "P101",
        listing(prompts=[{"name": "p", "arguments": [{"name": "a", "required": True}]}]),
        listing(
            prompts=[
                {"name": "p", "arguments": [{"name": "a", "description": "d", "required": True}]}
            ]
        ),
    ),
    (
        "P102",
        listing(prompts=[{"name": "p", "arguments": [{"name": "a", "description": "d"}]}]),
        listing(
            prompts=[
                {"name": "p", "arguments": [{"name": "a", "description": "d", "required": False}]}
            ]
        ),
    ),
    (
        "P103",
        listing(prompts=[{"name": "p"}, {"name": "p"}]),
        listing(prompts=[{"name": "p"}, {"name": "q"}]),
    ),
    (
        "R101",
        listing(resources=[{"uri": "notes/a b.txt", "name": "a"}]),
        listing(resources=[{"uri": "file:///notes/a%20b.txt", "name": "a"}]),
    ),
    (
        "R102",
        listing(templates=[{"uriTemplate": "users://{id", "name": "u"}]),
        listing(templates=[{"uriTemplate": "users://{id}/posts{?page,limit}", "name": "u"}]),
    ),
    (
        "R103",
        listing(resources=[{"uri": "file:///a", "name": "a", "mimeType": "text"}]),
        listing(
            resources=[{"uri": "file:///a", "name": "a", "mimeType": "text/plain; charset=utf-8"}]
        ),
    ),
    (
        "C101",
        listing(capabilities={}, tools=[tool()]),
        listing(capabilities={"tools": {}}, tools=[tool()]),
    ),
    (
        "C102",
        listing(capabilities={"tools": {}}, notifications=["notifications/tools/list_changed"]),
        listing(
            capabilities={"tools": {"listChanged": True}},
            notifications=["notifications/tools/list_changed", "notifications/message"],
        ),
    ),
    (
        "E101",
        listing(elicitations=[form({"name": {"type": "string", "pattern": "^[a-z]+$"}})]),
        listing(elicitations=[form({"name": {"type": "string", "maxLength": 20}})]),
    ),
    (
        "E102",
        listing(
            elicitations=[
                form({"nick": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}})
            ]
        ),
        listing(elicitations=[form({"nick": {"type": "string"}})]),
    ),
    (
        "E103",
        listing(
            elicitations=[form({"c": {"type": "string", "enum": ["a", "b"], "enumNames": ["A"]}})]
        ),
        listing(
            elicitations=[
                form({"c": {"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]}})
            ]
        ),
    ),
    (
        "E104",
        listing(elicitations=[form({"n": {"type": "integer", "minimum": 1, "default": 0}})]),
        listing(elicitations=[form({"n": {"type": "integer", "minimum": 1, "default": 1}})]),
    ),
    (
        "E105",
        listing(elicitations=[form({"h": {"type": "string", "format": "hostname"}})]),
        listing(elicitations=[form({"h": {"type": "string", "format": "email"}})]),
    ),
    (
        "E106",
        listing(elicitations=[form({"a": {"type": "string"}}, required=["b"])]),
        listing(elicitations=[form({"a": {"type": "string"}}, required=["a"])]),
    ),
    (
        "E107",
        listing(elicitations=[form({"c": {"type": "string", "enum": ["a"], "enumNames": ["A"]}})]),
        listing(
            elicitations=[form({"c": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]}})]
        ),
    ),
]


def fuzzed(kind: str) -> Listing:
    failure = {"tool": "lookup", "kind": kind, "arguments": {"word": ""}, "detail": "d", "calls": 3}
    return listing(tools=[tool("lookup")], fuzz=[failure])


CASES += [
    (rule_id, fuzzed(kind), listing(tools=[tool("lookup")]))
    for rule_id, kind in (
        ("F101", "crash"),
        ("F102", "hang"),
        ("F103", "protocol-error"),
        ("F104", "accepted-invalid"),
    )
]


APP_FORM = {**form({"a": {"type": "string"}}), "_meta": {"ui": {"resourceUri": "ui://shop/form"}}}


def without_elicitation(**kw: Any) -> Listing:
    return listing(elicitation_advertised=False, tools=[tool("ask")], **kw)


def called(outcome: str, error: str | None = None) -> dict[str, Any]:
    return {"name": "ask", "ok": outcome == "ok", "outcome": outcome, "error": error}


CASES += [
    (
        "X102",
        listing("2026-07-28", incomplete=[{"method": "tools/list", "missing": ["cacheScope"]}]),
        listing("2026-07-28"),
    ),
    ("E108", listing(elicitations=[APP_FORM]), listing(elicitations=[form({"a": {}})])),
    # a form sent to a client that never advertised elicitation
    (
        "E109",
        without_elicitation(
            calls=[called("error", "-32600 (invalid request): Elicitation not supported")],
            elicitations=[{**form({"a": {"type": "string"}}), "_mcp_tui_call": "ask"}],
        ),
        without_elicitation(calls=[called("tool_error", "This tool needs a client with forms.")]),
    ),
    # a hang, and a failure that says nothing
    (
        "E109",
        without_elicitation(calls=[called("timeout", "no answer within 10 s")]),
        without_elicitation(calls=[called("ok")]),
    ),
    (
        "E109",
        without_elicitation(calls=[called("tool_error", "NoneType has no attribute 'data'")]),
        # the same failure, with a client that advertised elicitation: not this rule's business
        listing(tools=[tool("ask")], calls=[called("tool_error", "NoneType has no attribute")]),
    ),
]


def test_a_tool_not_listed_to_a_client_without_forms_is_right() -> None:
    hidden = without_elicitation(calls=[{**called("tool_error", "not found"), "name": "elicit"}])
    assert not found("E109", hidden)


def test_every_check_has_a_case() -> None:
    across = {"T302", "X101", "X103"}  # tested below with several listings
    assert {c[0] for c in CASES} | across == set(RULES)


@pytest.mark.parametrize(("rule", "bad", "good"), CASES, ids=[c[0] for c in CASES])
def test_a_check_fires_on_its_case_and_not_on_the_clean_one(
    rule: str, bad: Listing, good: Listing
) -> None:
    hits = found(rule, bad)
    assert hits, f"{rule} did not fire"
    assert all(h.message and h.where and h.eras == (bad.era,) for h in hits)
    assert not found(rule, good), f"{rule} fired on a clean listing"


def test_t302_tool_names_shared_by_two_servers_of_a_config() -> None:
    a = Listing("a", "2025-11-25", tools=[tool("search")])
    b = Listing("b", "2025-11-25", tools=[tool("search"), tool("fetch")])
    hits = found("T302", a, b)
    assert sorted(h.server for h in hits) == ["a", "b"]
    assert not found("T302", a, Listing("b", "2025-11-25", tools=[tool("fetch")]))


def test_x101_a_call_that_passes_on_one_era_and_fails_on_the_other_names_the_reason() -> None:
    old = listing(
        "2025-11-25", calls=[{"name": "sign_up", "ok": True, "error": None, "needs_era": None}]
    )
    new = listing(
        "2026-07-28",
        calls=[
            {"name": "sign_up", "ok": False, "error": "no back-channel", "needs_era": "2025-11-25"}
        ],
    )
    (hit,) = found("X101", old, new)
    assert hit.eras == ("2026-07-28",)
    assert "server-initiated request" in hit.message and "input_required" in hit.fix
    both_pass = listing(
        "2026-07-28", calls=[{"name": "sign_up", "ok": True, "error": None, "needs_era": None}]
    )
    assert not found("X101", old, both_pass)


def test_x103_a_case_that_fails_on_every_era_is_reported() -> None:
    """X101 needs one era where the call passes; a case failing on both was silent."""
    failing = {"name": "sign_up", "ok": False, "error": "boom", "needs_era": None}
    old = listing("2025-11-25", calls=[failing])
    new = listing("2026-07-28", calls=[{**failing, "error": "no back-channel"}])
    (hit,) = found("X103", old, new)
    assert hit.where == "call sign_up" and hit.eras == ("2025-11-25", "2026-07-28")
    assert "2025-11-25: boom" in hit.message and "2026-07-28: no back-channel" in hit.message
    assert not found("X101", old, new)
    passing = listing("2026-07-28", calls=[{**failing, "ok": True, "error": None}])
    assert not found("X103", old, passing)
    assert not found("X103", old)  # one era only: nothing to compare


def test_the_integer_enum_pydantic_sends_is_a_warning_not_an_error() -> None:
    """FastMCP's IntEnum passes the TypeScript SDK's check as a plain number: the choices are lost,
    the request is not refused."""
    (hit,) = found("E102", listing(elicitations=[form({"p": {"type": "integer", "enum": [1, 2]}})]))
    assert hit.severity == "warning" and "choices are lost" in hit.message
    (ref,) = found(
        "E102",
        listing(
            elicitations=[
                form(
                    {"c": {"$ref": "#/$defs/C"}},
                    **{"$defs": {"C": {"type": "string", "enum": ["r"]}}},
                )
            ]
        ),
    )
    assert ref.severity == "error" and "reject the whole request" in ref.message
    assert "mcp-tui renders it" in ref.message


def test_2025_06_18_has_no_defaults_but_on_booleans_and_no_multi_select() -> None:
    seen = listing(
        "2025-06-18",
        elicitations=[
            form(
                {
                    "name": {"type": "string", "default": "x"},
                    "ok": {"type": "boolean", "default": True},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}},
                }
            )
        ],
    )
    assert [f.pointer for f in found("E101", seen)] == ["/requestedSchema/properties/name/default"]
    assert [f.pointer for f in found("E102", seen)] == ["/requestedSchema/properties/tags"]
    assert not found("E102", listing("2025-11-25", elicitations=seen.elicitations))


def test_a_finding_seen_on_two_eras_is_one_finding_naming_both() -> None:
    report = run_checks(
        [listing("2025-11-25", tools=[tool("a.b")]), listing("2026-07-28", tools=[tool("a.b")])]
    )
    (hit,) = [f for f in report.findings if f.rule == "T102"]
    assert hit.eras == ("2025-11-25", "2026-07-28")


def test_ignore_switches_a_check_off_and_unknown_ids_are_named() -> None:
    bad = listing(tools=[tool("a.b")])
    assert not [f for f in run_checks([bad], ignore=["t102"]).findings if f.rule == "T102"]
    assert unknown_ids(["T102", "T999", "x1"]) == ["T999", "X1"]


def test_exit_codes_and_the_json_shape() -> None:
    report = run_checks([listing(tools=[tool("a.b")])])  # T102: a warning
    assert report.exit_code(strict=False) == 0 and report.exit_code(strict=True) == 1
    data = report.as_json()
    assert data["version"] == 1 and data["counts"]["warning"] >= 1
    assert set(data["findings"][0]) == {
        "rule",
        "severity",
        "server",
        "where",
        "pointer",
        "message",
        "fix",
        "eras",
    }
    assert run_checks([listing(tools=[tool(), tool()])]).exit_code(strict=False) == 1


def test_server_strings_in_the_report_are_escaped() -> None:
    evil = "x\x1b]0;TITLE\x07y"
    report = run_checks([listing(tools=[tool(evil), tool(evil)])])
    text = report.text()
    assert "\x1b" not in text and "\x07" not in text


@pytest.mark.parametrize(
    ("template", "ok"),
    [
        ("file:///{path}", True),
        ("users://{id}/posts{?page,limit}", True),
        ("repo://{+path}{#frag}", True),
        ("x://{var:3}{list*}", True),
        ("x://{a b}", False),
        ("x://{id}}", False),
        ("x://{", False),
        ("x://{=bad}", False),
        ("x://a b/{id}", False),
    ],
)
def test_rfc_6570_templates(template: str, ok: bool) -> None:
    assert (template_problem(template) is None) is ok
