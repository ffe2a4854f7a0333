"""Display names of servers named on the command line (``mcp_tui/cli/names.py``): from the
package, not the entry point's file name (every npm server's is ``index.js``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcp_tui.cli import main as cli
from mcp_tui.cli.names import derive_name
from mcp_tui.cli.target import command_line_spec
from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.config.settings import AppSettings
from mcp_tui.session.naming import is_generic

EVERYTHING = "/app/node_modules/@modelcontextprotocol/server-everything/dist/index.js"


@pytest.mark.parametrize(
    ("command", "name"),
    [
        # npm packages, run from node_modules or by a runner
        (f"node {EVERYTHING} stdio", "server-everything"),
        (f"/usr/bin/node --enable-source-maps {EVERYTHING}", "server-everything"),
        ("node ./node_modules/mcp-plain/build/main.mjs", "mcp-plain"),
        ("node C:\\srv\\node_modules\\@s\\pkg\\index.js", "pkg"),
        ("npx -y @scope/pkg", "@scope/pkg"),
        (
            "npx -y @modelcontextprotocol/server-filesystem /tmp",
            "@modelcontextprotocol/server-filesystem",
        ),
        ("npx --yes @scope/pkg@1.2.3 --flag", "@scope/pkg"),
        ("npx pkg@latest", "pkg"),
        ("npx -p @scope/pkg some-bin --opt", "@scope/pkg"),
        ("npx.cmd -y mcp-remote https://example.com", "mcp-remote"),
        ("bunx @scope/pkg", "@scope/pkg"),
        ("pnpm dlx @scope/pkg", "@scope/pkg"),
        ("npm exec -- @scope/pkg", "@scope/pkg"),
        ("yarn dlx pkg", "pkg"),
        # Python packages
        ("uvx mcp-server-git", "mcp-server-git"),
        ("uvx mcp-server-git==0.6.2 --repository .", "mcp-server-git"),
        ("uvx --python 3.12 mcp-server-time", "mcp-server-time"),
        ("uvx -p 3.12 mcp-server-time", "mcp-server-time"),
        ("uvx --from mcp-server-git[extra] mcp-server-git", "mcp-server-git"),
        ("uv tool run mcp-server-fetch", "mcp-server-fetch"),
        ("pipx run mcp-server-fetch", "mcp-server-fetch"),
        ("python -m pkg.sub --port 1", "pkg.sub"),
        ("python3.11 -u -m mcp_server_time", "mcp_server_time"),
        ("/opt/venv/bin/python -X dev -m pkg", "pkg"),
        ("uv run --with mcp -m pkg.server", "pkg.server"),
        # scripts: their stem
        ("python path/server.py", "server"),
        ("python3 -u tools/weather_server.py --verbose", "weather_server"),
        ("uv run --directory srv server.py", "server"),
        ("deno run -A main.ts", "main"),
        ("deno run -c deno.json main.ts", "main"),  # deno's -c is its config
        # inline code: the words after it are its arguments, not a script
        ("python3 -c import.sys --timeout 3", "python3"),
        ("node -e 0 --port 3", "node"),
        ("node --eval 0 server.js", "node"),
        ("./server.py", "server"),
        # anything else: the program's own name
        ("mcp-server-fetch --flag", "mcp-server-fetch"),
        ("/usr/local/bin/my-server", "my-server"),
        ("docker run -i --rm mcp/fetch", "docker"),
        ("python", "python"),
        ("npx", "npx"),
        # env runs a command: named after it (issue 41)
        ("env VAR=x node server.js", "server"),
        ("env VAR=x uvx mcp-server-git", "mcp-server-git"),
        ("/usr/bin/env -i A=1 B=2 python3 -m weather.server", "weather.server"),
        ("env -u HOME -- mcp-server-time", "mcp-server-time"),
        ("env --unset=HOME - npx -y @scope/pkg@1", "@scope/pkg"),
        (f"env -S node|{EVERYTHING}", "server-everything"),  # | is a space here
        ("env --split-string=uvx|mcp-server-fetch", "mcp-server-fetch"),
        ("env A=1", "env"),  # runs nothing: prints the environment
    ],
)
def test_names_from_commands(command: str, name: str) -> None:
    program, *args = (word.replace("|", " ") for word in command.split(" "))
    assert derive_name(StdioTarget(program, tuple(args))) == name


def test_env_in_another_directory_finds_the_package_there(tmp_path: Path) -> None:
    package = tmp_path / "srv"
    (package / "dist").mkdir(parents=True)
    (package / "package.json").write_text('{"name": "@acme/weather-mcp"}', encoding="utf-8")
    target = StdioTarget("env", ("-C", "srv", "node", "dist/index.js"), cwd=str(tmp_path))
    assert derive_name(target) == "weather-mcp"


def test_env_running_a_generic_script_waits_for_the_servers_own_name() -> None:
    target = StdioTarget("env", ("VAR=x", sys.executable, "server.py"))
    spec = command_line_spec(target, None, AppSettings(), [])
    assert spec.name == "server" and spec.name_is_generic


def test_a_script_inside_a_package_directory_is_named_by_its_package_json(tmp_path: Path) -> None:
    package = tmp_path / "checkout"
    (package / "dist").mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "@me/weather-mcp"}))
    script = package / "dist" / "index.js"
    script.write_text("")
    assert derive_name(StdioTarget("node", (str(script),))) == "weather-mcp"
    # relative to the server's working directory
    assert derive_name(StdioTarget("node", ("dist/index.js",), cwd=str(package))) == "weather-mcp"
    # a Python script is named by its own file even there
    (package / "server.py").write_text("")
    assert derive_name(StdioTarget("python", (str(package / "server.py"),))) == "server"


def test_without_a_package_json_a_script_is_its_stem(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("not json")
    script = tmp_path / "index.js"
    assert derive_name(StdioTarget("node", (str(script),))) == "index"


def test_urls_are_named_by_host() -> None:
    assert derive_name(HttpTarget("https://user:pw@example.com:8443/mcp")) == "example.com:8443"


def test_the_command_line_uses_it(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[ServerSpec] = []

    def fake_run_tui(servers: list[ServerSpec], options: AppOptions) -> int:
        seen.extend(servers)
        return 0

    monkeypatch.setattr(cli, "run_tui", fake_run_tui)
    assert cli.main(["--", sys.executable, "-m", "mcp_tui.demo"]) == 0
    assert [s.name for s in seen] == ["mcp_tui.demo"]


@pytest.mark.parametrize(
    ("command", "generic"),
    [
        ("python path/server.py", True),
        ("python3 -u main.py", True),
        ("node dist/index.js", True),
        ("python -m server", True),
        ("python -c pass", True),
        ("docker run -i --rm mcp/fetch", True),
        ("python3 -u tools/weather_server.py", False),
        ("python -m pkg.sub", False),
        ("uvx mcp-server-git", False),
        ("npx -y @scope/pkg", False),
    ],
)
def test_a_generic_name_waits_for_the_servers_own(command: str, generic: bool) -> None:
    """``python server.py`` is keyed ``server`` and shown by its ``serverInfo`` name once it
    connects (``session/naming.py``); a name that says which server it is stays."""
    program, *args = command.split(" ")
    assert is_generic(derive_name(StdioTarget(program, tuple(args)))) is generic


def test_the_spec_says_its_name_is_generic_unless_chosen() -> None:
    target = StdioTarget(sys.executable, ("path/server.py",))
    spec = command_line_spec(target, None, AppSettings(), [])
    assert (spec.name, spec.name_is_generic) == ("server", True)
    chosen = command_line_spec(target, "server", AppSettings(), [])
    assert (chosen.name, chosen.name_is_generic) == ("server", False)
    named = command_line_spec(
        StdioTarget(sys.executable, ("weather_server.py",)), None, AppSettings(), []
    )
    assert named.name_is_generic is False
    url = command_line_spec(HttpTarget("http://127.0.0.1:9/mcp"), None, AppSettings(), [])
    assert url.name_is_generic is False
