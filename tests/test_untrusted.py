"""The untrusted-text helper: nothing a server sends reaches the terminal as a control character."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_tui.untrusted import inert, is_unsafe_char, json_text, one_line, visible


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("plain text", "plain text"),
        ("title\x1b]0;pwned\x07", "title\\e]0;pwned\\x07"),  # OSC 0 window title
        ("\x1b]52;c;ZXZpbA==\x07", "\\e]52;c;ZXZpbA==\\x07"),  # OSC 52 clipboard write
        (  # OSC 8 hyperlink
            "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
            "\\e]8;;https://evil.example\\e\\click\\e]8;;\\e\\",
        ),
        ("\x1b[2J\x1b[H", "\\e[2J\\e[H"),  # CSI clear screen
        ("\x9b31m red", "\\x9b31m red"),  # C1 CSI
        ("\x85next", "\\x85next"),  # C1 NEL
        ("abc\u202etxt.exe", "abc\\u202etxt.exe"),  # bidi override
        ("pay\u200bpal", "pay\\u200bpal"),  # zero-width space
        ("\ufeffbom", "\\ufeffbom"),
        ("a\u2066b\u2069", "a\\u2066b\\u2069"),  # bidi isolates
        ("line\u2028sep", "line\\u2028sep"),
        ("del\x7f", "del\\x7f"),
        ("nul\x00", "nul\\x00"),
        ("two\nlines\tand tab", "two\nlines\tand tab"),
        ("cr\r", "cr\\r"),
        ("[b]not markup[/]", "[b]not markup[/]"),  # markup is the widget's concern: kept literal
        ("café ñ 日本語 emoji 🎉", "café ñ 日本語 emoji 🎉"),
        ("pay\u00adpal", "pay\\xadpal"),  # soft hyphen: "paypal" or "pay-pal" by terminal
    ],
)
def test_visible_makes_controls_visible(raw: str, shown: str) -> None:
    assert visible(raw) == shown


def test_one_line_also_escapes_newlines_and_tabs() -> None:
    assert one_line("a\nb\tc") == "a\\nb\\tc"


def test_long_text_is_cut_with_a_count() -> None:
    assert visible("x" * 40, limit=4) == "xxxx… [36 more characters]"
    assert visible("x" * 4, limit=4) == "xxxx"


def test_text_is_never_cut_for_a_note_longer_than_the_cut() -> None:
    """server-everything's "trigger-url-elicitation" once showed as "trigger-url-elic… [7 more
    characters]": longer than the name itself. The whole text is shown instead when the note
    would be as long as what it replaces (so the result is never longer than with the note)."""
    name = "mcp-server-everything › trigger-url-elicitation"  # 47 characters
    assert one_line(name, limit=40) == name
    assert visible("x" * 26, limit=4) == "x" * 26  # "… [22 more characters]" is 22 long
    assert visible("x" * 27, limit=4) == "xxxx… [23 more characters]"
    for size in range(1, 200):  # never longer than the cut text with its note
        text = "y" * size
        cut = max(0, size - 10)
        assert len(visible(text, limit=10)) <= 10 + len(f"… [{cut:,} more characters]")
    assert visible("x" * 5000, limit=None) == "x" * 5000


def test_non_strings_are_shown_through_str() -> None:
    assert visible(42) == "42"
    assert visible(None) == "None"
    assert visible({"k": "\x1b"}) == "{'k': '\\x1b'}"


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=200))
def test_no_unsafe_character_survives(text: str) -> None:
    for out in (visible(text, limit=None), one_line(text, limit=None)):
        assert not any(is_unsafe_char(ch) for ch in out if ch not in "\n\t")
    assert "\n" not in one_line(text, limit=None)


@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=200), st.booleans())
def test_ascii_fast_path_matches_the_general_rule(text: str, keep: bool) -> None:
    # The same text with one non-ASCII character forces the per-character path.
    assert visible(text + "é", limit=None, keep_newlines=keep) == (
        visible(text, limit=None, keep_newlines=keep) + "é"
    )


def _reference(text: str, keep_newlines: bool) -> str:
    """The per-character definition ``visible`` must match exactly (its fast paths included)."""
    from mcp_tui.untrusted import _escape

    return "".join(
        ch if (keep_newlines and ch in "\n\t") or not is_unsafe_char(ch) else _escape(ord(ch))
        for ch in text
    )


@given(
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=120),
    st.booleans(),
)
def test_fast_paths_equal_the_per_character_rule(text: str, keep: bool) -> None:
    assert visible(text, limit=None, keep_newlines=keep) == _reference(text, keep)


@given(
    st.lists(
        st.one_of(
            st.integers(0, 0x10FFFF),  # anywhere, astral planes included
            st.sampled_from([0x0, 0x9, 0xA, 0x1F, 0x7F, 0x9F, 0xA0, 0xAD, 0x2028, 0xFFFF]),
            st.sampled_from([0x10000, 0x1F389, 0xE0001, 0xEFFFF, 0xF0000, 0x10FFFF]),
        ),
        max_size=40,
    ),
    st.booleans(),
)
def test_boundary_code_points_equal_the_per_character_rule(codes: list[int], keep: bool) -> None:
    text = "é" + "".join(map(chr, codes))  # never ASCII-only: the regex path
    assert visible(text, limit=None, keep_newlines=keep) == _reference(text, keep)


def test_the_generated_table_is_exactly_the_rule_for_every_code_point() -> None:
    import unicodedata

    from mcp_tui.untrusted import table as untrusted_table
    from mcp_tui.untrusted import unsafe_ranges
    from mcp_tui.untrusted.generate import render_table

    # If this fails after a Python upgrade, regenerate: python -m mcp_tui.untrusted.generate
    assert unicodedata.unidata_version == untrusted_table.UNIDATA_VERSION
    ranges = unsafe_ranges()
    assert (0x00, 0x1F) in ranges and (0x7F, 0x9F) in ranges
    assert render_table() == Path(untrusted_table.__file__).read_text(encoding="utf-8")
    # Every code point through the regex path, in one string per plane.
    for plane in range(17):
        codes = range(plane * 0x10000, (plane + 1) * 0x10000)
        text = "".join(map(chr, codes))
        assert visible(text, limit=None, keep_newlines=False) == _reference(text, False), plane


# --- inert: one visible character for each unsafe one ---------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("x\x1b]0;TITLE\x07y", "x␛]0;TITLE␇y"),  # C0: the control pictures
        ("one\ntwo\r\n\tthree", "one␊two␍␊␉three"),
        ("del\x7f nul\x00", "del␡ nul␀"),
        ("\x9b2J \x85", "\ufffd2J \ufffd"),  # C1: no picture of their own
        ("abc\u202etxt.exe", "abc\ufffdtxt.exe"),
        ("pay\u00adpal \u200b\ufeff", "pay\ufffdpal \ufffd\ufffd"),
        ("\U000e0001tag \ue000", "\ufffdtag \ufffd"),
        ("café 日本語 🎉 [b]x[/]", "café 日本語 🎉 [b]x[/]"),
    ],
)
def test_inert_shows_one_visible_character_for_each_unsafe_one(raw: str, shown: str) -> None:
    assert inert(raw) == shown


def test_inert_keeps_what_it_is_told_to() -> None:
    assert inert("a\tb\nc", keep="\t") == "a\tb␊c"
    assert inert("é\tb\nc", keep="\t") == "é\tb␊c"


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=200))
def test_inert_is_as_long_as_the_text_and_leaves_nothing_unsafe(text: str) -> None:
    shown = inert(text)
    assert len(shown) == len(text)
    assert not any(is_unsafe_char(ch) for ch in shown)
    assert all(a == b for a, b in zip(text, shown, strict=True) if not is_unsafe_char(a))


@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=200))
def test_inert_ascii_fast_path_matches_the_general_rule(text: str) -> None:
    assert inert(text + "é") == inert(text) + "é"
    assert inert(text + "é", keep="\t") == inert(text, keep="\t") + "é"


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(st.characters(), max_size=30),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
        max_leaves=12,
    ),
    st.sampled_from([None, 2]),
)
def test_json_text_is_inert_and_parses_back_to_the_value(value: object, indent: int | None) -> None:
    text = json_text(value, indent=indent)
    assert json.loads(text) == value
    assert not any(is_unsafe_char(ch) for ch in text if ch != "\n")


def test_json_text_escapes_what_json_writes_raw() -> None:
    text = json_text({"v": "a\x9bb\x7fc\u202ed\x85e\u2028f\U000e0001g é"})
    assert text == '{"v": "a\\u009bb\\u007fc\\u202ed\\u0085e\\u2028f\\udb40\\udc01g é"}'
