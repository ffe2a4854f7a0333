"""Each kind of expectation, seen holding and seen failing, with the diff a person reads."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.testbench.compare import check, diff_text, resolve_pointer
from mcp_tui.testbench.model import Expect
from mcp_tui.testbench.observed import Observed, SeenElicitation, SeenSampling

SCHEMA = {"type": "object", "properties": {"confirm": {"type": "boolean", "default": False}}}
SEEN = Observed(
    outcome="ok",
    text="Booked a table for 4\non 2026-12-24 at 19:30",
    structured={"total": 3, "issues": [{"number": 108, "labels": ["bug", "forms"]}], "ok": True},
    has_structured=True,
    elicitations=(
        SeenElicitation(
            "form", "Step 1: when?", SCHEMA, action="accept", content={"confirm": True}
        ),
        SeenElicitation("url", "Connect", None, url="https://example.com/connect", action="accept"),
    ),
    sampling=(SeenSampling("Summarise this", "Be brief", 100, "accept", "Short."),),
    sent=("tools/call", "notifications/cancelled"),
    seconds=0.5,
)


def _expect(**keys: Any) -> Expect:
    return Expect.model_validate(keys)


# Each row: an expectation that holds on SEEN, the same kind failing, and text its diff shows.
KINDS = [
    (
        {"outcome": "ok"},
        {"outcome": "tool_error"},
        ["the call ended ok, not tool_error", "expected: tool_error", "  ok: Booked"],
    ),
    (
        {"text": SEEN.text},
        {"text": "Booked a table for 2\non 2026-12-24 at 19:30"},
        ["--- expected", "+++ got", "-Booked a table for 2", "+Booked a table for 4"],
    ),
    (
        {"text_contains": ["Booked", "19:30"]},
        {"text_contains": ["Booked", "20:00"]},
        ["expected: 20:00", "got:", "  on 2026-12-24 at 19:30"],
    ),
    ({"text_regex": r"for \d+"}, {"text_regex": r"for \d+ people"}, [r"expected: for \d+ people"]),
    (
        {"structured": SEEN.structured},
        {"structured": {**SEEN.structured, "total": 4}},
        ['-  "total": 4', '+  "total": 3'],
    ),
    (
        {"pointers": {"/issues/0/labels/1": "forms", "/ok": True}},
        {"pointers": {"/issues/0/number": 109}},
        ["expected: 109", "got: 108"],
    ),
    ({"pointers": {"/total": 3}}, {"pointers": {"/issues/3": 1}}, ["got: (nothing there)"]),
    (
        {"elicitation_count": 2},
        {"elicitation_count": 3},
        ["expected: 3", "2 request(s):", '#1 form "Step 1: when?" -> accept'],
    ),
    (
        {
            "elicitations": [
                {"mode": "form", "message_regex": "^Step 1", "schema": SCHEMA, "action": "accept"},
                {"mode": "url", "url_regex": "example\\.com"},
            ]
        },
        {"elicitations": [{"schema": {**SCHEMA, "required": ["confirm"]}}]},
        ['-  "required": [', '-    "confirm"'],
    ),
    (
        {"elicitations": [{"message": "Step 1: when?"}]},
        {"elicitations": [{}, {}, {"mode": "form"}]},
        ["no elicitation request #3"],
    ),
    (
        {
            "sampling_count": 1,
            "sampling": [
                {
                    "message_regex": "Summar",
                    "system_prompt_regex": "brief",
                    "max_tokens": 100,
                    "action": "accept",
                }
            ],
        },
        {"sampling": [{"max_tokens": 50}]},
        ["expected: 50", "got: 100"],
    ),
    (
        {"sent": ["notifications/cancelled"], "not_sent": ["ping"]},
        {"not_sent": ["notifications/cancelled"]},
        ["expected: no notifications/cancelled", "got: 1 x notifications/cancelled"],
    ),
    ({"sent": ["tools/call"]}, {"sent": ["ping"]}, ["sent: tools/call, notifications/cancelled"]),
    ({"within": 2}, {"within": 0.1}, ["expected: 0.1", "got: 0.5"]),
]


@pytest.mark.parametrize(("holds", "fails", "shown"), KINDS)
def test_each_expectation_holds_and_fails_with_a_diff(
    holds: dict[str, Any], fails: dict[str, Any], shown: list[str]
) -> None:
    assert check(_expect(**holds), SEEN) == []
    failures = check(_expect(**fails), SEEN)
    assert len(failures) == 1, failures
    lines = diff_text(failures[0].expected, failures[0].got, diffable=failures[0].diffable)
    text = "\n".join([failures[0].summary, *lines])
    for part in shown:
        assert part in text, (part, text)


def test_errors_and_their_codes() -> None:
    seen = Observed(outcome="error", error="-32042 URL elicitation required", error_code=-32042)
    assert check(_expect(error_code=-32042, error_regex="URL"), seen) == []
    [failure] = check(_expect(error_code=-32602), seen)
    assert failure.key == ("error_code",) and (failure.expected, failure.got) == (-32602, -32042)
    [failure] = check(_expect(outcome="ok"), seen)
    assert failure.got == "-32042 URL elicitation required"


def test_a_tool_error_is_matched_by_error_regex_on_its_text() -> None:
    seen = Observed(outcome="tool_error", text="No such project: nope")
    assert check(_expect(outcome="tool_error", error_regex="No such project"), seen) == []


def test_every_difference_is_listed_not_only_the_first() -> None:
    failures = check(_expect(text="x", text_regex="y", elicitation_count=0, within=0.1), SEEN)
    assert [f.key for f in failures] == [
        ("text",),
        ("text_regex",),
        ("elicitation_count",),
        ("within",),
    ]


def test_json_pointers_follow_rfc_6901() -> None:
    doc = {"a/b": {"m~n": [10, 20]}, "": 1}
    assert resolve_pointer(doc, "/a~1b/m~0n/1") == 20
    assert resolve_pointer(doc, "/") == 1
    assert resolve_pointer(doc, "") is doc
    missing = resolve_pointer(doc, "/a~1b/m~0n/01")
    assert missing is resolve_pointer(doc, "/nope")


def test_json_equality_keeps_booleans_apart_from_numbers() -> None:
    seen = Observed(outcome="ok", structured={"n": 1, "f": 1.0}, has_structured=True)
    assert check(_expect(pointers={"/n": 1.0, "/f": 1}), seen) == []
    assert len(check(_expect(pointers={"/n": True}), seen)) == 1


def test_a_missing_structured_content_is_said_so() -> None:
    [failure] = check(_expect(structured={"a": 1}), Observed(outcome="ok", text="hi"))
    assert failure.got == "(no structuredContent)"


def test_every_snapshot_compares_as_json_at_every_depth() -> None:
    """``{ ok = 1, flags = [0, 1] }`` is not ``{"ok": true, "flags": [false, true]}``: not as a
    ``structured`` snapshot, not as a pointer's container value, not in a requestedSchema."""
    seen = Observed(
        outcome="ok",
        structured={"ok": True, "flags": [False, True], "n": 2},
        has_structured=True,
        elicitations=(
            SeenElicitation(
                "form", "m", {"type": "object", "properties": {"a": {"default": True}}}
            ),
        ),
    )
    wrong_structured = {"ok": 1, "flags": [0, 1], "n": 2}
    [failure] = check(_expect(structured=wrong_structured), seen)
    assert failure.key == ("structured",)
    [failure] = check(_expect(pointers={"/flags": [0, 1]}), seen)
    assert failure.key == ("pointers", "/flags")
    wrong_schema = {"type": "object", "properties": {"a": {"default": 1}}}
    [failure] = check(_expect(elicitations=[{"schema": wrong_schema}]), seen)
    assert failure.key == ("elicitations", 0, "schema")
    # and 1 is 1.0 everywhere, key order ignored
    assert check(_expect(structured={"n": 2.0, "flags": [False, True], "ok": True}), seen) == []
    assert check(_expect(pointers={"": {"n": 2.0, "flags": [False, True], "ok": True}}), seen) == []


@pytest.mark.parametrize("count", [0, 2])
def test_request_counts_are_exact_more_fails_as_fewer_does(count: int) -> None:
    """SEEN made 1 sampling and 2 elicitation requests: any other count fails."""
    [failure] = check(_expect(sampling_count=count), SEEN)
    assert failure.key == ("sampling_count",)
    assert (failure.expected, failure.got) == (count, 1)
    [failure] = check(_expect(elicitation_count=count + 1 if count else 1), SEEN)
    assert failure.key == ("elicitation_count",)
    assert check(_expect(sampling_count=1, elicitation_count=2), SEEN) == []


def test_json_pointer_decodes_tilde_one_before_tilde_zero() -> None:
    """RFC 6901: ``~01`` is the name ``~1`` (not ``/``); decoding ``~0`` first would read it so."""
    doc = {"~1": "tilde-one", "/": "slash", "~": "tilde"}
    assert resolve_pointer(doc, "/~01") == "tilde-one"
    assert resolve_pointer(doc, "/~1") == "slash"
    assert resolve_pointer(doc, "/~0") == "tilde"


# ---- behaviours the mutation exercise found no test for ---------------------------------------


def test_a_pointer_one_past_the_end_of_an_array_is_nothing_there() -> None:
    assert resolve_pointer({"a": [1, 2]}, "/a/2") is resolve_pointer({}, "/nope")
    [failure] = check(_expect(pointers={"/issues/1": 1}), SEEN)  # SEEN has one issue
    assert failure.got == "(nothing there)"


def test_more_requests_expected_than_came_says_so_without_an_error() -> None:
    [failure] = check(_expect(sampling=[{}, {"action": "accept"}]), SEEN)
    assert failure.key == ("sampling", 1) and failure.got == "1 request(s)"
    [failure] = check(_expect(elicitations=[{}, {}, {}]), SEEN)
    assert failure.key == ("elicitations", 2)


def test_a_call_that_takes_exactly_its_budget_is_within_it() -> None:
    assert check(_expect(within=0.5), SEEN) == []


def test_what_is_missing_is_named() -> None:
    [failure] = check(_expect(error_regex="boom"), Observed(outcome="ok", text="fine"))
    assert failure.got == "(no error)"
    [failure] = check(_expect(elicitations=[{"url_regex": "example"}]), SEEN)
    assert failure.got == "(no URL)"  # the first request is a form
    no_prompt = Observed(outcome="ok", sampling=(SeenSampling("m"),))
    [failure] = check(_expect(sampling=[{"system_prompt_regex": "x"}]), no_prompt)
    assert failure.got == "(none)"
    refused = Observed(outcome="answer_refused", answer_problem="party_size: not an integer")
    [failure] = check(_expect(outcome="ok"), refused)
    assert failure.got == "answer_refused: party_size: not an integer"


LONG = "line one of a long answer\n" + "x" * 200


@pytest.mark.parametrize(
    ("expect", "seen"),
    [
        ({"text_regex": "^nope"}, Observed(outcome="ok", text=LONG)),
        ({"text_contains": "nope"}, Observed(outcome="ok", text=LONG)),
        ({"outcome": "error", "error_regex": "^nope"}, Observed(outcome="error", error=LONG)),
        (
            {"elicitations": [{"message_regex": "^nope"}]},
            Observed(outcome="ok", elicitations=(SeenElicitation("form", LONG, {}),)),
        ),
        (
            {"elicitations": [{"url_regex": "^nope"}]},
            Observed(
                outcome="ok",
                elicitations=(SeenElicitation("url", "m", None, url="https://x/" + "a" * 200),),
            ),
        ),
        (
            {"sampling": [{"message_regex": "^nope"}]},
            Observed(outcome="ok", sampling=(SeenSampling(LONG),)),
        ),
        (
            {"sampling": [{"system_prompt_regex": "^nope"}]},
            Observed(outcome="ok", sampling=(SeenSampling("m", LONG),)),
        ),
        ({"elicitations": [{}, {}, {}]}, SEEN),
        ({"pointers": {"/nope": {"big": "y" * 200}}}, SEEN),
    ],
)
def test_a_statement_and_a_long_value_are_shown_side_by_side_not_diffed(
    expect: dict[str, Any], seen: Observed
) -> None:
    """A regex (or a count, a missing value) against a long text is not a diff of the two."""
    [failure] = check(_expect(**expect), seen)
    lines = diff_text(failure.expected, failure.got, diffable=failure.diffable)
    assert lines[0].startswith("expected: ") and not any(line == "--- expected" for line in lines)
    assert lines[1].strip().startswith("got:")


def test_json_is_shown_with_sorted_keys_and_its_own_characters() -> None:
    """Key order is no difference (objects are unordered), so a diff never shows one; and a
    value's non-ASCII text is shown as it is, not as escapes."""
    lines = diff_text({"b": 1, "a": "café", "c": [1, 2, 3]}, {"c": [1, 2, 3], "a": "café", "b": 2})
    assert '-  "b": 1,' in lines and '+  "b": 2,' in lines
    assert not any('"a"' in line and line[0] in "+-" for line in lines)
    assert '   "a": "café",' in lines
