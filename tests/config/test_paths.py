"""Config file precedence (``--config`` > ``MCP_TUI_CONFIG`` > platform dir) and text helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_tui.config import paths
from mcp_tui.config.text import (
    ExpansionError,
    expand_variables,
    format_key_path,
    json_key_lines,
    strip_jsonc,
    toml_key_lines,
)


def test_command_line_wins_over_environment() -> None:
    loc = paths.locate_config("given.toml", {"MCP_TUI_CONFIG": "env.toml"})
    assert loc.path == Path("given.toml") and loc.source is paths.ConfigSource.COMMAND_LINE
    assert loc.explicit and "from --config" in loc.describe()


def test_environment_wins_over_default() -> None:
    loc = paths.locate_config(None, {"MCP_TUI_CONFIG": "~/env.toml"})
    assert loc.path == Path("~/env.toml").expanduser()
    assert loc.source is paths.ConfigSource.ENVIRONMENT and loc.explicit
    assert "MCP_TUI_CONFIG" in loc.describe()


@pytest.mark.parametrize("environ", [{}, {"MCP_TUI_CONFIG": ""}, {"MCP_TUI_CONFIG": "  "}])
def test_default_location_when_nothing_is_named(environ: dict[str, str]) -> None:
    loc = paths.locate_config(None, environ)
    assert loc.source is paths.ConfigSource.DEFAULT and not loc.explicit
    assert loc.path == paths.config_dir() / "config.toml"
    assert loc.path.parent.name == "mcp-tui"


def test_platform_directories_are_per_app() -> None:
    for directory in (paths.config_dir(), paths.log_dir(), paths.data_dir()):
        assert "mcp-tui" in directory.parts


def test_default_stderr_log_name_is_file_system_safe() -> None:
    log = paths.default_stderr_log("../evil/name with spaces")
    assert log.parent == paths.log_dir()
    assert log.name == "_evil_name_with_spaces.stderr.log"


def test_strip_jsonc_keeps_offsets_and_strings() -> None:
    text = '{\n  "a": "http://x//y", // note\n  /* multi\n line */ "b": [1, 2,],\n}'
    clean = strip_jsonc(text)
    assert len(clean) == len(text) and clean.count("\n") == text.count("\n")
    import json

    assert json.loads(clean) == {"a": "http://x//y", "b": [1, 2]}


def test_json_key_lines() -> None:
    lines = json_key_lines('{\n "a": {\n  "b": [\n   1,\n   {"c": 2}\n  ]\n }\n}')
    assert lines[("a",)] == 2 and lines[("a", "b")] == 3
    assert lines[("a", "b", 0)] == 4 and lines[("a", "b", 1, "c")] == 5


def test_toml_key_lines() -> None:
    text = '[a]\nx = 1\ny = [\n  "[not.a.header]",\n]\nz.w = 2\n[[t]]\nk = 1\n[[t]]\nk = 2\n'
    lines = toml_key_lines(text)
    assert lines[("a",)] == 1 and lines[("a", "x")] == 2 and lines[("a", "y")] == 3
    assert ("not", "a", "header") not in lines
    assert lines[("a", "z", "w")] == 6
    assert lines[("t", 0, "k")] == 8 and lines[("t", 1, "k")] == 10


def test_format_key_path() -> None:
    assert format_key_path(("servers", "my db", "args", 1)) == 'servers."my db".args[1]'
    assert format_key_path(()) == "(top level)"


def test_expand_variables() -> None:
    env = {"A": "1"}
    assert expand_variables("${A}-${B:-two}-${env:A}-$A", env) == "1-two-1-$A"
    assert expand_variables("${B:-}", env) == ""
    with pytest.raises(ExpansionError, match="B is not set"):
        expand_variables("${B}", env)
    with pytest.raises(ExpansionError, match="not a variable mcp-tui knows"):
        expand_variables("${1bad}", env)
    with pytest.raises(ExpansionError, match="asks VS Code to prompt"):
        expand_variables("${input:x}", env)
