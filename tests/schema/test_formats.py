"""Number text, date-time offsets and RE2 patterns: the decisions documented in ``formats``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mcp_tui.schema import with_local_offset
from mcp_tui.schema.fields import TextFormat
from mcp_tui.schema.formats import (
    check_format,
    compile_pattern,
    number_to_text,
    parse_number_text,
    pattern_matches,
)

# POSIX TZ rules need no zoneinfo files, so these work on any machine.
PARIS = "CET-1CEST,M3.5.0,M10.5.0/3"
ST_JOHNS = "NST+3:30NDT,M3.2.0,M11.1.0"


@pytest.mark.parametrize(
    ("zone", "typed", "message"),
    [
        (PARIS, "2026-01-31T09:00", "2026-01-31T09:00:00+01:00"),
        (PARIS, "2026-07-01T09:00:00", "2026-07-01T09:00:00+02:00"),
        (ST_JOHNS, "2026-01-31T09:00:00.5", "2026-01-31T09:00:00.5-03:30"),
        ("UTC0", "2026-01-31 09:00", "2026-01-31T09:00:00+00:00"),
    ],
)
def test_date_time_without_offset_is_refused_showing_the_local_completion(
    local_tz: Callable[[str], None], zone: str, typed: str, message: str
) -> None:
    local_tz(zone)
    assert check_format(TextFormat.DATE_TIME, typed) == (
        None,
        f"Add a time zone, e.g. {message} (your local time)",
    )
    assert with_local_offset(typed) == message


@pytest.mark.parametrize(
    "typed", ["2026-01-31T09:00Z", "tomorrow", "2026-02-30T09:00", "2026-01-31T24:00"]
)
def test_with_local_offset_only_completes_a_real_local_time(typed: str) -> None:
    assert with_local_offset(typed) is None


@pytest.mark.parametrize(
    ("text", "integer", "value"),
    [
        (" 42 ", True, 42),
        ("4.0", True, 4),
        ("1e3", True, 1000),
        ("1E+3", True, 1000),
        ("-0", True, 0),
        ("-0.0", True, 0),
        ("5.", True, 5),
        ("1e300", True, 10**300),
        ("1e301", True, None),
        ("1.5e1", True, 15),
        ("0.1e1", True, 1),
        ("4.5", True, None),
        ("30", False, 30),
        ("30.0", False, 30.0),
        ("1e3", False, 1000.0),
        ("-0", False, 0),
        ("2.5E-3", False, 0.0025),
        ("", False, None),
        ("+", False, None),
        (".", False, None),
        ("1e", False, None),
        ("--1", False, None),
        ("nan", False, None),
        ("NaN", True, None),
        ("-inf", False, None),
        ("1 000", False, None),
        ("١٢", False, None),
        ("１２", False, None),
    ],
)
def test_number_text(text: str, integer: bool, value: int | float | None) -> None:
    got = parse_number_text(text, integer=integer)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("value", [30, 95.5, 30.0, 3.14, 0.1, 1e21, 1e-7, -2, 10**20, 2.5e-300])
def test_number_defaults_render_as_text_that_reads_back_exactly(value: int | float) -> None:
    text = number_to_text(value)
    back = parse_number_text(text, integer=False)
    assert back == value and type(back) is type(value)
    assert number_to_text(30) == "30" and number_to_text(95.5) == "95.5"


def test_patterns_run_in_re2_only() -> None:
    program, why = compile_pattern("^(a+)+$")
    assert program is not None and why is None
    # Linear time: this input makes Python's re backtrack for longer than the universe exists.
    assert pattern_matches("^(a+)+$", "a" * 100_000 + "!") is False
    assert pattern_matches("^(a+)+$", "a" * 100_000) is True
    assert compile_pattern(r"(a)\1")[0] is None
    assert compile_pattern(r"(?<=a)b")[0] is None
    assert compile_pattern("[")[0] is None


def test_re2_errors_stay_off_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    compile_pattern.cache_clear()
    assert compile_pattern(r"(x)\1(?!y)")[0] is None
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""
