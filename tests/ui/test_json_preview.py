"""``ui/json_preview.py``: the start of a value's JSON, encoded only as far as it is shown (the
log panel's data, the traffic view's size column and detail pane). ``json.dumps`` encoded a log
message's 10^6-key data whole, in C, on the UI's event loop, to show 2,000 characters of it."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_tui.ui.json_preview import json_length, json_preview
from mcp_tui.ui.widgets.session.log_panel import log_data_text
from mcp_tui.ui.widgets.session.traffic_view import MEASURED_CHARS, _size

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES, st.integers(min_value=0, max_value=200), st.sampled_from([None, 2]))
def test_the_preview_is_the_start_of_json_dumps(value: Any, limit: int, indent: int | None) -> None:
    full = json.dumps(value, ensure_ascii=False, default=str, indent=indent)
    shown, cut = json_preview(value, limit=limit, indent=indent)
    assert shown == full[:limit]
    assert cut == (len(full) > limit)
    flat = len(json.dumps(value, ensure_ascii=False, default=str))
    assert json_length(value, cap=limit) == (flat if flat <= limit else limit + 1)


class CountingList(list[int]):
    """A list that counts the items read from it."""

    read = 0

    def __iter__(self) -> Any:
        for item in super().__iter__():
            CountingList.read += 1
            yield item


def test_only_what_is_shown_is_encoded() -> None:
    huge = CountingList(range(1_000_000))
    shown, cut = json_preview({"data": huge}, limit=100)
    assert cut and len(shown) == 100
    assert CountingList.read < 100, f"{CountingList.read} items encoded to show 100 characters"
    CountingList.read = 0
    assert json_length([huge], cap=1000) == 1001
    assert CountingList.read < 1000


def test_what_json_cannot_hold_is_shown_as_repr() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert json_preview(loop, limit=50) == ("[[...]]", False)
    assert json_length(loop, cap=50) is None
    assert json_preview({"when": object}, limit=500)[0].startswith('{"when": "<class')


def test_log_data_is_shown_whole_when_short_and_cut_when_long() -> None:
    assert log_data_text({"a": [1, "é"]}) == '{"a": [1, "é"]}'
    assert log_data_text("plain text") == "plain text"
    long = log_data_text({f"k{i}": i for i in range(100_000)})
    assert len(long) == 2001 and long.endswith("…") and long.startswith('{"k0": 0, "k1": 1')


def test_a_message_over_the_measured_size_says_so() -> None:
    assert _size(MEASURED_CHARS + 1) == ">256 K"
    assert _size(2048) == "2.0 K"
