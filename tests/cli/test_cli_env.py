"""The environment policy on the command line: ``--env KEY=VALUE``, servers after ``--`` inheriting
the caller's environment, config servers the safe default unless ``inherit_env``/``inheritEnv``."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from mcp_tui.cli import main as cli
from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget

PY = sys.executable
RAW_SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "raw_server.py"


class Launched:
    servers: list[ServerSpec]


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> Launched:
    seen = Launched()

    def fake_run_tui(servers: list[ServerSpec], options: AppOptions) -> int:
        seen.servers = servers
        return 0

    monkeypatch.setattr(cli, "run_tui", fake_run_tui)
    return seen


def target_of(spec: ServerSpec) -> StdioTarget:
    assert isinstance(spec.target, StdioTarget)
    return spec.target


def test_a_server_after_double_dash_inherits_and_gets_env_over_it(launched: Launched) -> None:
    argv = ["--env", "A=1", "--env", "B=x=y", "--env", "A=2", "--env", "EMPTY=", "--", PY, "s.py"]
    assert cli.main(argv) == 0
    target = target_of(launched.servers[0])
    assert target.inherit_env is True
    assert target.env == {"A": "2", "B": "x=y", "EMPTY": ""}


def test_config_servers_get_the_safe_default_unless_they_inherit(
    tmp_path: Path, launched: Launched
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        textwrap.dedent(
            """
            [servers.plain]
            command = "srv"
            env = { OWN = "1", SHARED = "config" }
            [servers.inheriting]
            command = "srv"
            inherit_env = true
            [servers.web]
            url = "http://127.0.0.1:9/mcp"
            """
        ),
        encoding="utf-8",
    )
    assert cli.main(["--config", str(config), "--env", "SHARED=cli"]) == 0
    specs = {s.name: s for s in launched.servers}
    plain, inheriting = target_of(specs["plain"]), target_of(specs["inheriting"])
    assert (plain.inherit_env, plain.env) == (False, {"OWN": "1", "SHARED": "cli"})
    assert (inheriting.inherit_env, inheriting.env) == (True, {"SHARED": "cli"})
    assert specs["web"].target == launched.servers[2].target  # HTTP: untouched


def test_json_configs_spell_it_inherit_env(tmp_path: Path, launched: Launched) -> None:
    config = tmp_path / "mcp.json"
    servers = {"a": {"command": "srv", "inheritEnv": True}, "b": {"command": "srv"}}
    config.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    assert cli.main(["--config", str(config)]) == 0
    assert [target_of(s).inherit_env for s in launched.servers] == [True, False]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--env", "NOEQUALS", "--", PY], "--env 'NOEQUALS' is not a variable: write it as KEY="),
        (["--env", "1A=x", "--", PY], "--env '1A=x' is not a variable"),
        (["--env", "A=1", "http://127.0.0.1:9/mcp"], "--env sets environment variables for a"),
        (["call", "t", "--env", "A=1", "http://127.0.0.1:9/mcp"], "an HTTP server has none"),
    ],
)
def test_env_mistakes_are_usage_errors(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_headless_call_passes_the_callers_environment_and_env_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``FOO=1 mcp-tui call ... -- server``: the server sees FOO, as from a shell."""
    monkeypatch.setenv("MCP_TUI_ENV_PROBE", "from the caller")
    script = tmp_path / "script.json"
    names = ["MCP_TUI_ENV_PROBE", "MCP_TUI_ENV_SET"]
    script.write_text(json.dumps({"results": {"environ": {"environ": names}}}), encoding="utf-8")
    argv = ["call", "environ", "--env", "MCP_TUI_ENV_SET=cli", "-q", "--mode", "legacy"]
    code = cli.main([*argv, "--", PY, str(RAW_SERVER), "--script", str(script)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert json.loads(captured.out) == {
        "MCP_TUI_ENV_PROBE": "from the caller",
        "MCP_TUI_ENV_SET": "cli",
    }
