"""``-k``: pytest's expression language on case ids, case-insensitive."""

from __future__ import annotations

import pytest

from mcp_tui.errors import UsageError
from mcp_tui.testbench.select import compile_k

IDS = [
    "a.mcptest.toml::Booking a table[2025-11-25]",
    "a.mcptest.toml::Booking a table[2026-07-28]",
    "a.mcptest.toml::decline keeps it[2025-11-25]",
    "b.mcptest.toml::url sign-in[2026-07-28]",
]


def chosen(expression: str) -> list[int]:
    match = compile_k(expression)
    return [i for i, case_id in enumerate(IDS) if match(case_id)]


@pytest.mark.parametrize(
    ("expression", "indexes"),
    [
        ("booking", [0, 1]),
        ("BOOKING", [0, 1]),
        ("booking and 2026", [1]),
        ("booking or url", [0, 1, 3]),
        ("not booking", [2, 3]),
        ("2026 and not url", [1]),
        ("(decline or url) and 2025", [2]),
        ("not (booking or decline)", [3]),
        ("booking and not 2025 or decline", [1, 2]),
    ],
)
def test_k_reads_and_or_not_and_matches_case_insensitively(
    expression: str, indexes: list[int]
) -> None:
    assert chosen(expression) == indexes


@pytest.mark.parametrize(
    ("expression", "why"),
    [
        ("", "needs an expression"),
        ("(booking", "a parenthesis is not closed"),
        ("booking and", "it ends where a name was expected"),
        ("or url", "'or' where a name was expected"),
        ("booking url", "'url' was not expected there"),
        ("booking AND url", "'AND' was not expected there"),  # lower-case words, as pytest
    ],
)
def test_a_bad_k_says_what_is_wrong(expression: str, why: str) -> None:
    with pytest.raises(UsageError, match=why):
        compile_k(expression)
