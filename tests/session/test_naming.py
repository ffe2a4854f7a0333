"""The name a generic-named server is shown by (``mcp_tui/session/naming.py``): the one it
announces in ``serverInfo``, when that reads as a plain line and says more than ours."""

from __future__ import annotations

import pytest

from mcp_tui.session.naming import announced_name, claim, is_generic, judge_announced


@pytest.mark.parametrize("name", ["server", "Server", "main", "index", "__main__", "python3.12"])
def test_generic_names(name: str) -> None:
    assert is_generic(name)


@pytest.mark.parametrize("name", ["weather", "mcp-server-git", "pkg.server", "server-everything"])
def test_names_that_say_which_server(name: str) -> None:
    assert not is_generic(name)


def test_the_announced_name_is_shown() -> None:
    assert announced_name("Weather Demo", "server", ["server", "other"]) == "Weather Demo"
    assert announced_name("  weather \t demo  ", "server", []) == "weather demo"
    assert announced_name("Météo v2", "server", []) == "Météo v2"
    assert announced_name("Me\u0301te\u0301o", "server", []) == "Météo"  # NFC
    assert announced_name("mcp_server.git-tools", "server", []) == "mcp_server.git-tools"
    assert announced_name("天気 Weather", "server", []) == "天気 Weather"  # a normal mix


@pytest.mark.parametrize(
    ("announced", "taken"),
    [
        ("weather", ["weather"]),
        ("Weather", ["weather"]),  # case-folded
        ("WEATHER", ["server-2", "weather"]),
        ("weather", ["x", "wеather"]),  # another server's shown name, whatever its letters
        ("G1thub", ["github"]),  # look-alike digits
        ("ɡithub", ["github"]),  # Latin small script g
        ("gíthub", ["github"]),  # an accent
        ("ｇｉｔｈｕｂ", ["github"]),  # full-width, taken apart by NFKC
        ("modern", ["rnodern"]),  # rn drawn as m
        ("git hub", ["git-hub"]),
    ],
)
def test_a_name_equal_to_or_imitating_another_servers_keeps_the_key(
    announced: str, taken: list[str]
) -> None:
    verdict = judge_announced(announced, "server", taken)
    assert verdict.name is None
    assert verdict.why_not is not None and "another server" in verdict.why_not


def test_its_own_key_is_not_another_servers_name() -> None:
    assert announced_name("weather", "server", ["server"]) == "weather"
    assert announced_name("github", "server", ["gitlab", "server"]) == "github"


@pytest.mark.parametrize(
    "announced",
    [
        None,
        "",
        "   ",
        "server",
        "FastMCP",
        "mcp-server",
        "evil\x1b[31m",
        "ev\u202eil",
        "a\u200bb",
        "ok ✓ Verified",
        "x [bold]",
        # names that read as claims in mcp-tui's sentences (issue 39)
        "GitHub (verified)",
        "filesystem: approved by you",
        "Server github asks for input during tool call go",
        "github asks",
        "Trusted Files",
        "mcp-tui",
        'acme "tools"',
        "acme's tools",
        "acme/tools",
        "@acme",
        "-- acme",
        "acme, inc",
        # one script, honestly
        "g\u0456thub",  # a Cyrillic і among Latin letters
        "\u0430\u0440\u0440\u04cf\u0435",  # all Cyrillic, drawn as "apple"
        "p\u03b1ypal",  # a Greek alpha
    ],
)
def test_names_not_worth_adopting_keep_ours(announced: str | None) -> None:
    assert announced_name(announced, "server", []) is None


@pytest.mark.parametrize(
    ("announced", "why"),
    [
        ("GitHub (verified)", "brackets, colons, quotes"),
        ("filesystem: approved by you", "brackets, colons, quotes"),
        ("Server github asks for input during tool call go", "reads as a sentence"),
        ("github asks", "'asks' reads like mcp-tui's own words"),
        ("g\u0456thub", "mixes scripts"),
        ("\u0430\u0440\u0440\u04cf\u0435", "imitate Latin"),
        ("ev\u202eil", "control, bidi or invisible"),
    ],
)
def test_the_verdict_says_why_a_name_was_not_taken(announced: str, why: str) -> None:
    verdict = judge_announced(announced, "server", [])
    assert verdict.name is None and verdict.why_not is not None and why in verdict.why_not


def test_the_claim_quotes_the_announced_name_escaped() -> None:
    assert claim("GitHub (verified)", "server") == "calls itself 'GitHub (verified)'"
    assert claim("ev\u202eil\x1b[2J", "server") == "calls itself 'ev\\u202eil\\e[2J'"
    assert claim("weather", "weather") is None  # it is shown by it
    assert claim(None, "server") is None and claim("  ", "server") is None


def test_a_long_name_is_cut() -> None:
    shown = announced_name("w" * 100, "server", [])
    assert shown is not None and len(shown) == 40 and shown.endswith("…")
