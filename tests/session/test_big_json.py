"""``session/big_json.py``: large lines parsed in small steps, in a worker thread, ``_meta``
bounded; and the stdio transport handing them there (``stdio_transport.parse_any_line``)."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_tui.session import stdio_transport
from mcp_tui.session.big_json import (
    LARGE_LINE,
    MAX_DEPTH,
    MAX_META_KEYS,
    JsonError,
    parse_large,
)
from mcp_tui.session.stdio_transport import MetaTrimmed, parse_large_line, parse_line

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.sampled_from([None, 2]), st.booleans())
def test_it_reads_what_json_reads(value: Any, indent: int | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    parsed = parse_large(f" {text}\n")
    assert parsed.value == json.loads(text)
    assert parsed.trimmed == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[1,]",
        '{"a" 1}',
        "01",
        "tru",
        '"\x01"',
        "[1] x",
        "NaN",
        '{"a":1,}',
        "-",
        "1.",
        "[1 2]",
    ],
)
def test_what_is_not_json_is_refused(text: str) -> None:
    with pytest.raises(JsonError):
        parse_large(text)


def test_nesting_is_bounded() -> None:
    parse_large("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    with pytest.raises(JsonError, match="nested deeper"):
        parse_large("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


def test_an_oversized_meta_keeps_its_first_keys_and_says_so() -> None:
    keys = MAX_META_KEYS + 500
    meta = {f"k{i}": i for i in range(keys)}
    other = {f"o{i}": i for i in range(keys)}  # not metadata: kept whole
    message = {"params": {"_meta": meta, "data": other, "items": [{"_meta": meta}]}}
    parsed = parse_large(json.dumps(message))
    assert list(parsed.value["params"]["_meta"]) == [f"k{i}" for i in range(MAX_META_KEYS)]
    assert parsed.value["params"]["data"] == other
    assert len(parsed.value["params"]["items"][0]["_meta"]) == MAX_META_KEYS
    assert parsed.trimmed == [("params._meta", keys), ("params.items.0._meta", keys)]


def big_tools_list() -> str:
    tool = {"name": "t", "description": "d" * 2000, "inputSchema": {"type": "object"}}
    tools = [{**tool, "name": f"t{i}"} for i in range(600)]
    text = json.dumps({"jsonrpc": "2.0", "id": 3, "result": {"tools": tools}})
    assert len(text) > LARGE_LINE
    return text


def test_a_large_line_becomes_the_same_message_as_a_small_one() -> None:
    text = big_tools_list()
    small = parse_line(text)
    large = parse_large_line(text)
    assert not isinstance(small, Exception)
    assert len(large) == 1 and not isinstance(large[0], Exception)
    assert large[0].message == small.message


def test_a_large_line_with_an_oversized_meta_reports_the_cut_first() -> None:
    meta = {f"k{i}": "x" * 800 for i in range(MAX_META_KEYS + 400)}
    params = {"level": "info", "data": "big", "_meta": meta}
    text = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": params})
    assert len(text) > LARGE_LINE
    cut, message = parse_large_line(text)
    assert isinstance(cut, MetaTrimmed) and (cut.where, cut.keys) == ("params._meta", 1400)
    assert not isinstance(message, Exception)
    assert len(message.message.params["_meta"]) == MAX_META_KEYS  # type: ignore[union-attr]


def test_large_lines_that_are_not_messages_are_reported_as_such() -> None:
    (bad,) = parse_large_line("[" + "1," * LARGE_LINE + "]")
    assert isinstance(bad, stdio_transport.InvalidLine) and "not JSON" in bad.reason
    (bad,) = parse_large_line(json.dumps({"not": "x" * LARGE_LINE}))
    assert isinstance(bad, stdio_transport.InvalidLine) and "not a JSON-RPC" in bad.reason


@pytest.mark.anyio
async def test_only_large_lines_are_parsed_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: list[int] = []
    original = stdio_transport.parse_large_line

    def spy(text: str) -> list[Any]:
        threads.append(threading.get_ident())
        return original(text)

    monkeypatch.setattr(stdio_transport, "parse_large_line", spy)
    small = await stdio_transport.parse_any_line('{"jsonrpc": "2.0", "id": 1, "result": {}}')
    assert threads == [] and len(small) == 1
    large = await stdio_transport.parse_any_line(big_tools_list())
    assert len(large) == 1 and not isinstance(large[0], Exception)
    assert threads and threads[0] != threading.get_ident(), "parsed on the event loop's thread"
