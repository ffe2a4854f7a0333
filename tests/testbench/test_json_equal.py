"""One JSON equality at every depth: a boolean is never a number, ``1`` is ``1.0``, objects are
unordered and arrays ordered; ``skip`` leaves the values at given pointers out."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_tui.testbench.json_equal import escape_token, json_equal

SAME = [
    (1, 1.0),
    ({"a": 1, "b": [1, 2]}, {"b": [1.0, 2], "a": 1.0}),
    ([{"x": True}], [{"x": True}]),
    (None, None),
    ("", ""),
    ({}, {}),
    ([], ()),
]
DIFFERENT = [
    (True, 1),
    (False, 0),
    (1, True),
    ({"ok": 1}, {"ok": True}),
    ([0, 1], [False, True]),
    ({"deep": [{"x": 0}]}, {"deep": [{"x": False}]}),
    ([1, 2], [2, 1]),
    ({"a": 1}, {"a": 1, "b": 2}),
    ({"a": 1, "b": 2}, {"a": 1}),
    ("1", 1),
    (None, 0),
    (None, False),
    (None, ""),
    ({}, []),
    ([1], [1, 1]),
    ({"a": None}, {}),
    (1, 2),
    (True, False),
    ("a", "b"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_the_same_json_value(a: Any, b: Any) -> None:
    assert json_equal(a, b) and json_equal(b, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different_json_values(a: Any, b: Any) -> None:
    assert not json_equal(a, b) and not json_equal(b, a)


def test_skip_leaves_the_values_at_its_pointers_out() -> None:
    seen = {"id": "3f9c", "title": "milk", "tags": ["a", "x-1"], "a/b": {"~": 1}}
    want = {"title": "milk", "tags": ["a", "x-0"], "a/b": {"~": 2}}
    assert json_equal(want, seen, skip={"/id", "/tags/1", "/a~1b/~0"})
    assert not json_equal(want, seen, skip={"/id", "/tags/1"})
    assert not json_equal(want, seen, skip={"/tags/1", "/a~1b/~0"})  # /id is in one side only
    # an array element skipped must still be there: the array's length is compared
    assert not json_equal({"tags": ["a"]}, seen, skip={"/id", "/tags/1", "/a~1b/~0"})
    assert not json_equal({**want, "title": "tea"}, seen, skip={"/id", "/tags/1", "/a~1b/~0"})


def test_pointer_tokens_escape_tilde_before_slash() -> None:
    assert escape_token("a/b~c") == "a~1b~0c"
    assert escape_token("~1") == "~01"


def test_values_that_are_not_json_fall_back_to_their_own_equality() -> None:
    """A TOML date in a test file is no JSON value: equal only to the same date (never to the
    string a server sends)."""
    from datetime import date

    assert json_equal(date(2026, 5, 1), date(2026, 5, 1))
    assert not json_equal(date(2026, 5, 1), date(2026, 5, 2))
    assert not json_equal(date(2026, 5, 1), "2026-05-01")
