"""The JSON files other clients use: ``mcpServers`` (Claude Desktop, Cursor, Claude Code) and
``servers`` (VS Code), with their extra keys noted rather than refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mcp_tui.config.load import load_config
from mcp_tui.config.servers import HttpTarget, StdioTarget
from tests.config import config_kit
from tests.config.config_kit import error_of


def write(tmp_path: Path, text: str, name: str = "mcp.json") -> Path:
    return config_kit.write(tmp_path, text, name)


CLAUDE_DESKTOP = {
    "globalShortcut": "",
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
            "env": {"DEBUG": "1"},
        },
        "weather": {"command": "uv", "args": ["run", "weather.py"], "cwd": "servers"},
    },
}


def test_claude_desktop_file(tmp_path: Path) -> None:
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps(CLAUDE_DESKTOP, indent=2), encoding="utf-8")
    config = load_config(path, {})
    assert config.format == "mcpServers"
    assert config.notes == (), "unrelated top-level keys are not worth a note"
    fs, weather = config.servers["filesystem"], config.servers["weather"]
    assert fs.target == StdioTarget(
        "npx", ("-y", "@modelcontextprotocol/server-filesystem", "/tmp"), {"DEBUG": "1"}
    )
    assert isinstance(weather.target, StdioTarget)
    assert weather.target.cwd == str(tmp_path.resolve() / "servers")
    assert (fs.mode, fs.elicitation) == ("auto", "ask")


def test_claude_code_and_cursor_remote_entries(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        {
          "mcpServers": {
            "api": {"type": "http", "url": "https://api.example.com/mcp",
                    "headers": {"Authorization": "Bearer ${API_TOKEN}"}},
            "old": {"type": "sse", "url": "https://old.example.com/sse"},
            "guess": {"url": "http://127.0.0.1:8000/sse"},
            "plain": {"url": "http://127.0.0.1:8000/mcp"},
            "surf": {"serverUrl": "http://127.0.0.1:9000/mcp"},
            "cline": {"command": "node", "args": ["x.js"], "disabled": true,
                      "autoApprove": ["a"]}
          }
        }
        """,
        name=".mcp.json",
    )
    config = load_config(path, {"API_TOKEN": "abc"})
    targets = {name: spec.target for name, spec in config.servers.items()}
    assert targets["api"] == HttpTarget(
        "https://api.example.com/mcp", "streamable-http", {"Authorization": "Bearer abc"}
    )
    assert targets["old"] == HttpTarget("https://old.example.com/sse", "sse")
    assert targets["guess"] == HttpTarget("http://127.0.0.1:8000/sse", "sse")
    assert targets["plain"] == HttpTarget("http://127.0.0.1:8000/mcp")
    assert targets["surf"] == HttpTarget("http://127.0.0.1:9000/mcp")
    assert config.disabled == {"cline"}
    assert "cline" not in [s.name for s in config.default_servers()]
    notes = " | ".join(config.notes)
    assert "mcpServers.guess: no type given and the URL ends in /sse" in notes
    assert "mcpServers.cline.autoApprove: ignored (not used by mcp-tui)" in notes


VSCODE = """
// VS Code's mcp.json is JSON with comments and trailing commas.
{
  "inputs": [
    {"type": "promptString", "id": "token", "description": "API token", "password": true},
  ],
  "servers": {
    "github": {
      "type": "http",
      "url": "https://api.githubcopilot.com/mcp/", // a URL with // inside a string
      "headers": {"Authorization": "Bearer ${env:GH_TOKEN}"},
    },
    "local": {
      "type": "stdio",
      "command": "python",
      "args": ["${workspaceFolder}/server.py"],
      "env": {"MODE": "dev"},
      "envFile": "${workspaceFolder}/.env",
      /* block comment */
    },
  },
}
"""


def test_vscode_file_with_comments(tmp_path: Path) -> None:
    folder = tmp_path / "project" / ".vscode"
    folder.mkdir(parents=True)
    path = write(folder, VSCODE)
    config = load_config(path, {"GH_TOKEN": "gh"})
    assert config.format == "vscode"
    gh, local = config.servers["github"], config.servers["local"]
    assert gh.target == HttpTarget(
        "https://api.githubcopilot.com/mcp/", headers={"Authorization": "Bearer gh"}
    )
    assert isinstance(local.target, StdioTarget)
    assert local.target.args == (f"{(tmp_path / 'project').resolve()}/server.py",)
    notes = " | ".join(config.notes)
    assert "inputs: ignored" in notes
    assert "servers.local.envFile: ignored (mcp-tui does not read env files" in notes


def test_vscode_settings_json_shape(tmp_path: Path) -> None:
    path = write(tmp_path, '{"mcp": {"servers": {"s": {"command": "x"}}}}', name="settings.json")
    assert list(load_config(path, {}).servers) == ["s"]


def test_vscode_input_variable_is_a_clear_error(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        {"servers": {
          "s": {"type": "http", "url": "https://h/mcp",
                "headers": {"X-Key": "${input:token}"}}
        }}
        """,
    )
    message = error_of(path)
    assert re.search(r"line 3: servers\.s\.headers\.X-Key: \$\{input:token\} asks VS Code", message)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"mcpServers": {"a": {"command": "x", "args": "y"}}}', r"line 1: mcpServers\.a\.args"),
        (
            '{\n "mcpServers": {\n  "a": {\n   "command": "x",\n   "args": ["ok", 2]\n  }\n }\n}',
            r"line 5: mcpServers\.a\.args\[1\]: Input should be a valid string \(got 2\)",
        ),
        (
            '{\n "servers": {\n  "a": {\n   "type": "websocket",\n   "url": "ws://h"\n  }\n }\n}',
            r"line 4: servers\.a\.type: unknown server type 'websocket'",
        ),
        (
            '{\n "servers": {\n  "a": {\n   "type": "http",\n   "url": "file:///etc"\n  }\n }\n}',
            r"line 5: servers\.a\.url: 'file:///etc' is not an http:// or https:// URL",
        ),
        (
            '{\n "mcpServers": {\n  "a": {\n   "command": "x",\n   "disabled": "no"\n  }\n }\n}',
            r"line 5: mcpServers\.a\.disabled: Input should be a valid boolean",
        ),
        (
            '{"mcpServers": {"a": {"args": ["x"]}}}',
            r"line 1: mcpServers\.a: needs exactly one of `command`",
        ),
        ('{"mcpServers": {"a": ["x"]}}', r"mcpServers\.a: must be an object"),
        (
            '{\n  "mcpServers": {\n    "a": {"type": "stdio", "url": "http://h"}\n  }\n}',
            r'line 3: mcpServers\.a: a "stdio" server needs `command`',
        ),
        ('{"tools": {}}', r'expected an object with "mcpServers"'),
        ("[1, 2]", r'expected an object with "mcpServers"'),
        ('{\n  "mcpServers": {\n    "a": {"command": "x",}\n  ', r"not valid JSON: .* line 4"),
    ],
)
def test_bad_json_names_key_and_line(tmp_path: Path, text: str, expected: str) -> None:
    message = error_of(write(tmp_path, text))
    assert message.startswith(f"Config file {tmp_path / 'mcp.json'}")
    assert re.search(expected, message), message


def test_json_chosen_by_content_without_json_extension(tmp_path: Path) -> None:
    path = write(tmp_path, '{"mcpServers": {"a": {"command": "x"}}}', name="servers.conf")
    assert load_config(path, {}).format == "mcpServers"
