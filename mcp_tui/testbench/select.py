"""``-k EXPR``: which cases run, in pytest's words.

An expression of names joined by ``and``, ``or``, ``not`` and parentheses; a name matches a case
when it is a substring (case-insensitive) of the case's id, ``FILE::NAME[ERA]`` — so ``-k
booking``, ``-k "decline and not url"`` and ``-k 2026`` all do what they would in pytest.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mcp_tui.errors import UsageError

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")

Matcher = Callable[[str], bool]


def compile_k(expression: str) -> Matcher:
    """A predicate on case ids; :class:`UsageError` for an expression that does not parse."""
    tokens = _TOKEN.findall(expression)
    if not tokens:
        raise UsageError("-k needs an expression: names, and, or, not, parentheses.")
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        token: str = tokens[pos]
        pos += 1
        return token

    def bad(why: str) -> UsageError:
        return UsageError(f"-k {expression!r}: {why}.")

    def or_expr() -> Matcher:
        left = and_expr()
        while peek() == "or":
            take()
            right = and_expr()
            left = (lambda a, b: lambda s: a(s) or b(s))(left, right)
        return left

    def and_expr() -> Matcher:
        left = not_expr()
        while peek() == "and":
            take()
            right = not_expr()
            left = (lambda a, b: lambda s: a(s) and b(s))(left, right)
        return left

    def not_expr() -> Matcher:
        if peek() == "not":
            take()
            inner = not_expr()
            return lambda s: not inner(s)
        return atom()

    def atom() -> Matcher:
        token = peek()
        if token is None:
            raise bad("it ends where a name was expected")
        if token == "(":
            take()
            inner = or_expr()
            if peek() != ")":
                raise bad("a parenthesis is not closed")
            take()
            return inner
        if token in (")", "and", "or"):
            raise bad(f"{token!r} where a name was expected")
        word = take().lower()
        return lambda s: word in s.lower()

    matcher = or_expr()
    if pos != len(tokens):
        raise bad(f"{tokens[pos]!r} was not expected there")
    return matcher
