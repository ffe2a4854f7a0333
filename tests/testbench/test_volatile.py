"""Values that change per run become regexes with the rest of the snapshot exact; nothing else
is loosened."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mcp_tui.testbench.compare import check
from mcp_tui.testbench.model import Expect
from mcp_tui.testbench.observed import Observed, SeenElicitation, SeenSampling
from mcp_tui.testbench.volatile import escape, loosen, structured_regexes, text_regex

UUID = "3f2b8c1e-9d4a-4e6b-8a1f-0c2d3e4f5a6b"


@pytest.mark.parametrize(
    ("text", "again", "kinds"),
    [
        ('Added "milk" (#3)', 'Added "milk" (#4711)', ("an id after #",)),
        (f"token {UUID}.", "token 00000000-0000-4000-8000-00000000ABCD.", ("a UUID",)),
        ("at 2026-05-01T12:00:03Z", "at 2027-11-30T01:02:03.456+02:00", ("a timestamp",)),
        ("at 2026-05-01 12:00:03.123456", "at 2026-05-02 00:00:00.000001", ("a timestamp",)),
        (
            f"#1 {UUID} 2026-05-01T12:00:03Z",
            "#22 ffffffff-ffff-ffff-ffff-ffffffffffff 2031-01-01T00:00:00Z",
            ("an id after #", "a UUID", "a timestamp"),
        ),
        ("line one (#3)\nline (two) [3] * + ? $", "line one (#9)\nline (two) [3] * + ? $", None),
    ],
)
def test_a_value_that_changes_per_run_is_a_regex_and_the_rest_exact(
    text: str, again: str, kinds: tuple[str, ...] | None
) -> None:
    found = text_regex(text)
    assert found is not None
    if kinds is not None:
        assert found.kinds == kinds
    assert re.search(found.regex, text) and re.search(found.regex, again)
    assert not re.search(found.regex, text.replace(text[:4], "XXXX", 1))
    assert not re.search(found.regex, "x" + text) and not re.search(found.regex, text + "x")


@pytest.mark.parametrize(
    "text",
    [
        "Booked a table for 4 on 2026-12-24 at 19:30",  # a date, a time of day: the data
        "Issue 108 has 3 labels",
        "#hashtag and C# and #",
        "3f2b8c1e9d4a4e6b8a1f0c2d3e4f5a6b",  # hex without dashes: not a UUID
        "",
    ],
)
def test_nothing_else_is_loosened(text: str) -> None:
    assert text_regex(text) is None


def test_the_server_s_own_request_ids_with_digits() -> None:
    found = text_regex("Answer req-17 first (elicit_3a9)", ["req-17", "elicit_3a9", 4, "confirm"])
    assert found is not None and found.kinds == ("a request id", "a request id")
    assert re.search(found.regex, "Answer req-18 first (elicit_3a10)")
    assert not re.search(found.regex, "Answer rex-18 first (elicit_3a10)")
    assert text_regex("Answer confirm first", ["confirm"]) is None  # a name, no counter
    assert text_regex("Answer 4 first", [4]) is None  # a JSON-RPC number is any number


def test_escape_writes_only_what_a_regex_reads_specially() -> None:
    assert escape('a "b" #c (d).') == r'a "b" #c \(d\)\.'
    assert re.fullmatch(escape(r"\^$.|?*+()[]{}"), r"\^$.|?*+()[]{}")


def test_structured_values_that_change_per_run() -> None:
    value = {
        "id": 3,
        "n": 3,
        "title": "milk (#3)",
        "uid": UUID,
        "created": "2026-05-01T12:00:03Z",
        "tags": [{"at": "2026-05-01T12:00:03Z"}],
        "a/b": UUID,
        "done": False,
        "count": 7,
    }
    found = structured_regexes(value, text='Added "milk" (#3)')
    assert sorted(found) == ["/a~1b", "/created", "/id", "/n", "/tags/0/at", "/title", "/uid"]
    assert found["/id"].regex == "^[0-9]+$"
    assert structured_regexes(value | {"id": 4, "n": 4}, text="no ids").keys() == {
        "/a~1b",
        "/created",
        "/tags/0/at",
        "/title",
        "/uid",
    }
    assert structured_regexes(UUID) == {}  # the root is the snapshot itself


SEEN = Observed(
    outcome="ok",
    text='Added "milk" (#3)',
    structured={"id": 3, "title": "milk", "uid": UUID},
    has_structured=True,
    elicitations=(SeenElicitation("form", "Confirm req-7?", {}, request_key="req-7"),),
    sampling=(SeenSampling("Summarise #3", request_key=9),),
)


def test_loosen_writes_matchers_in_place_with_their_comments() -> None:
    expect: dict[str, Any] = {
        "outcome": "ok",
        "text": SEEN.text,
        "structured": SEEN.structured,
        "elicitation_count": 1,
        "elicitations": [{"mode": "form", "message": "Confirm req-7?", "action": "cancel"}],
        "sampling": [{"message": "Summarise #3", "action": "decline"}],
    }
    comments = loosen(expect, SEEN)
    assert list(expect) == [
        "outcome",
        "text_regex",
        "structured",
        "elicitation_count",
        "elicitations",
        "sampling",
        "pointers_regex",
    ]
    assert expect["text_regex"] == r'^Added "milk" \(#[0-9]+\)$'
    assert expect["structured"] == SEEN.structured  # kept as it came, for a person to read
    assert set(expect["pointers_regex"]) == {"/id", "/uid"}
    assert list(expect["elicitations"][0]) == ["mode", "message_regex", "action"]
    assert expect["sampling"][0]["message_regex"] == "^Summarise #[0-9]+$"
    assert comments[("expect", "text_regex")].startswith("a regex: an id after # changes per run")
    assert "a UUID change per run" in comments[("expect", "pointers_regex")]
    assert ("expect", "elicitations", 0, "message_regex") in comments
    # and the case passes against another run's ids, fails on another title
    case = Expect.model_validate(expect)
    again = Observed(
        outcome="ok",
        text='Added "milk" (#4)',
        structured={"id": 4, "title": "milk", "uid": "00000000-0000-4000-8000-000000000000"},
        has_structured=True,
        elicitations=(SeenElicitation("form", "Confirm req-8?", {}, action="cancel"),),
        sampling=(SeenSampling("Summarise #4", action="decline"),),
    )
    assert check(case, again) == []
    tea = Observed(**{**again.__dict__, "structured": {**again.structured, "title": "tea"}})
    assert [f.key for f in check(case, tea)] == [("structured",)]


def test_nothing_changes_nothing_is_loosened() -> None:
    expect: dict[str, Any] = {"outcome": "ok", "text": "Kept it", "structured": {"n": 3}}
    assert loosen(expect, Observed(outcome="ok", text="Kept it")) == {}
    assert expect == {"outcome": "ok", "text": "Kept it", "structured": {"n": 3}}


@pytest.mark.parametrize(
    ("value", "regex", "summary"),
    [
        ({"id": "x-1"}, "^x-[0-9]+$", None),
        ({"id": 12}, "^[0-9]+$", None),
        ({"id": True}, "^true$", None),
        ({"id": None}, "^null$", None),
        ({"id": "y-1"}, "^x-[0-9]+$", "the value at /id does not match the regex"),
        ({"id": [1]}, ".", "the value at /id is an object or array, not one value"),
        ({}, ".", "structuredContent has nothing at /id"),
    ],
)
def test_pointers_regex_searches_one_value(
    value: dict[str, Any], regex: str, summary: str | None
) -> None:
    seen = Observed(outcome="ok", structured={**value, "k": 1}, has_structured=True)
    expect = Expect.model_validate({"pointers_regex": {"/id": regex}, "structured": {"k": 1}})
    failures = check(expect, seen)
    assert [f.summary for f in failures] == ([summary] if summary else [])
    if summary:
        assert failures[0].key == ("pointers_regex", "/id")


@pytest.mark.parametrize(
    ("pointers", "why"),
    [
        ({"id": "x"}, "is not a JSON Pointer"),
        ({"/a~2": "x"}, "~ is written ~0"),
        ({"": "x"}, "the whole structuredContent"),
        ({"/id": "("}, "/id: not a valid regular expression"),
    ],
)
def test_a_bad_pointers_regex_is_refused(pointers: dict[str, str], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Expect.model_validate({"pointers_regex": pointers})
