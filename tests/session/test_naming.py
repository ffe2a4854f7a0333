"""The name a generic-named server is shown by (``mcp_tui/session/naming.py``): the one it
announces in ``serverInfo``, when that reads as a plain line and says more than ours."""

from __future__ import annotations

import pytest

from mcp_tui.session.naming import announced_name, is_generic


@pytest.mark.parametrize("name", ["server", "Server", "main", "index", "__main__", "python3.12"])
def test_generic_names(name: str) -> None:
    assert is_generic(name)


@pytest.mark.parametrize("name", ["weather", "mcp-server-git", "pkg.server", "server-everything"])
def test_names_that_say_which_server(name: str) -> None:
    assert not is_generic(name)


def test_the_announced_name_is_shown() -> None:
    assert announced_name("Weather Demo", "server", ["server", "other"]) == "Weather Demo"
    assert announced_name("  weather \t demo  ", "server", []) == "weather demo"
    assert announced_name("Météo (v2) @acme/tools", "server", []) == "Météo (v2) @acme/tools"


def test_the_announced_name_is_kept_apart_from_other_servers() -> None:
    assert announced_name("weather", "server", ["weather"]) == "weather-2"
    assert announced_name("weather", "server", ["weather", "weather-2"]) == "weather-3"
    # its own key is not another server's name
    assert announced_name("weather", "server", ["server"]) == "weather"


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
    ],
)
def test_names_not_worth_adopting_keep_ours(announced: str | None) -> None:
    assert announced_name(announced, "server", []) is None


def test_a_long_name_is_cut() -> None:
    shown = announced_name("w" * 100, "server", [])
    assert shown is not None and len(shown) == 40 and shown.endswith("…")
