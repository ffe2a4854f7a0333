"""The command line: arguments become server specs and app options; every mistake is one
paragraph on stderr with the documented exit code, never a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.cli import demo as cli_demo
from mcp_tui.cli import main as cli
from mcp_tui.cli.args import (
    build_call_parser,
    build_demo_parser,
    build_get_parser,
    build_list_parser,
    build_main_parser,
    build_read_parser,
)
from mcp_tui.config.options import AppOptions, ToolCallRequest
from mcp_tui.config.paths import theme_file
from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget

PY = sys.executable
ROOT = Path(__file__).resolve().parents[2]


class Launched:
    """What ``run_tui`` was asked to run, instead of running the TUI."""

    servers: list[ServerSpec]
    options: AppOptions


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> Launched:
    seen = Launched()

    def fake_run_tui(servers: list[ServerSpec], options: AppOptions) -> int:
        seen.servers, seen.options = servers, options
        return 0

    monkeypatch.setattr(cli, "run_tui", fake_run_tui)
    return seen


def fails(argv: list[str], capsys: pytest.CaptureFixture[str], code: int = 2) -> str:
    """Run ``main``; check the exit code and that stderr is one paragraph without a traceback."""
    assert cli.main(argv) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("mcp-tui: ") and "\n" not in err and "Traceback" not in err, err
    return err


# ---- servers from the command line --------------------------------------------------------------


def test_stdio_command_after_double_dash(launched: Launched) -> None:
    assert cli.main(["--", PY, "server.py", "--flag", "--", "x"]) == 0
    (spec,) = launched.servers
    assert spec.target == StdioTarget(PY, ("server.py", "--flag", "--", "x"), inherit_env=True)
    assert spec.name == "server" and spec.mode == "auto" and spec.elicitation == "ask"
    # The theme chosen is remembered in the platform's data directory (here a temporary one).
    assert launched.options == AppOptions(theme_file=theme_file())


def test_url_with_headers_transport_name_and_mode(launched: Launched) -> None:
    argv = [
        "http://127.0.0.1:8000/sse",
        "--transport",
        "sse",
        "--header",
        "Authorization: Bearer abc:def",
        "--header",
        "X-Empty:",
        "--name",
        "local",
        "--mode",
        "legacy",
    ]
    assert cli.main(argv) == 0
    (spec,) = launched.servers
    assert spec == ServerSpec(
        "local",
        HttpTarget(
            "http://127.0.0.1:8000/sse", "sse", {"Authorization": "Bearer abc:def", "X-Empty": ""}
        ),
        mode="legacy",
    )


def test_roots_from_the_command_line(launched: Launched, tmp_path: Path) -> None:
    (tmp_path / "a b").mkdir()
    argv = ["--root", str(tmp_path / "a b"), "--root", str(tmp_path), "--root", str(tmp_path)]
    assert cli.main([*argv, "--", PY, "server.py"]) == 0
    assert launched.servers[0].roots == (str(tmp_path / "a b"), str(tmp_path))
    assert cli.main(["--", PY, "server.py"]) == 0
    assert launched.servers[0].roots is None  # the working directory, at connect time


def test_url_name_is_derived_from_host(launched: Launched) -> None:
    assert cli.main(["https://user@mcp.example.com:8443/mcp"]) == 0
    assert launched.servers[0].name == "mcp.example.com:8443"
    assert launched.servers[0].target == HttpTarget("https://user@mcp.example.com:8443/mcp")


def test_call_log_save_answers_and_stderr_log(launched: Launched, tmp_path: Path) -> None:
    argv = [
        "--call",
        "book",
        "--args",
        '{"party": 2, "names": ["a"]}',
        "--log",
        str(tmp_path / "t.jsonl"),
        "--save-answers",
        str(tmp_path / "a.json"),
        "--stderr-log",
        str(tmp_path / "err.log"),
        "--",
        PY,
        "-m",
        "some_server",
    ]
    assert cli.main(argv) == 0
    assert launched.servers[0].name == "some_server"
    opts = launched.options
    assert opts.call == ToolCallRequest("book", {"party": 2, "names": ["a"]})
    assert opts.traffic_log == tmp_path / "t.jsonl"
    assert opts.save_answers == tmp_path / "a.json"
    assert opts.stderr_log == tmp_path / "err.log"


# ---- servers from config files ------------------------------------------------------------------


def write_config(path: Path, extra: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"""
[app]
review_before_send = true
traffic_log = "from-config.jsonl"
mode = "legacy"
[app.rate_limit]
count = 4
seconds = 2.0

[servers.one]
command = "{PY}"
args = ["one.py"]

[servers.two]
url = "http://127.0.0.1:1/mcp"
elicitation = "decline"

[servers.off]
command = "{PY}"
enabled = false
{extra}
""",
        encoding="utf-8",
    )
    return path


def test_default_config_opens_every_enabled_server(launched: Launched, isolated_dirs: Path) -> None:
    config = write_config(isolated_dirs / "config" / "config.toml")
    assert cli.main([]) == 0
    assert [s.name for s in launched.servers] == ["one", "two"]
    assert [s.mode for s in launched.servers] == ["legacy", "legacy"]
    assert launched.servers[1].elicitation == "decline"
    opts = launched.options
    assert opts.review_before_send and (opts.rate_limit_count, opts.rate_limit_seconds) == (4, 2.0)
    assert opts.traffic_log == config.parent.resolve() / "from-config.jsonl"


def test_precedence_command_line_over_environment_over_default(
    launched: Launched, isolated_dirs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(isolated_dirs / "config" / "config.toml")
    env_file = tmp_path / "env.json"
    env_file.write_text('{"mcpServers": {"from-env": {"command": "x"}}}', encoding="utf-8")
    given = tmp_path / "given.json"
    given.write_text('{"servers": {"from-flag": {"type": "http", "url": "http://h/mcp"}}}')
    monkeypatch.setenv("MCP_TUI_CONFIG", str(env_file))
    assert cli.main([]) == 0
    assert [s.name for s in launched.servers] == ["from-env"]
    assert cli.main(["--config", str(given)]) == 0
    assert [s.name for s in launched.servers] == ["from-flag"]


def test_server_selection_overrides_and_command_line_server(
    launched: Launched, isolated_dirs: Path
) -> None:
    write_config(isolated_dirs / "config" / "config.toml")
    assert cli.main(["--server", "off", "--server", "one", "--mode", "2026-07-28"]) == 0
    assert [(s.name, s.mode) for s in launched.servers] == [
        ("off", "2026-07-28"),
        ("one", "2026-07-28"),
    ]
    # A command-line server alone: the config's servers stay closed, its settings apply.
    assert cli.main(["--log", "cli.jsonl", "--", PY, "one.py"]) == 0
    assert [s.name for s in launched.servers] == ["one"]
    assert launched.servers[0].mode == "legacy", "[app] mode is the default"
    assert launched.options.traffic_log == Path("cli.jsonl"), "--log beats the config"
    assert launched.options.review_before_send
    # Both: named config servers plus the command line one, names kept unique.
    assert cli.main(["--server", "two", "--", PY, "-m", "two"]) == 0
    assert [s.name for s in launched.servers] == ["two", "two-2"]


def test_notes_of_foreign_json_go_to_stderr(
    launched: Launched, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {"s": {"command": "x", "autoApprove": []}}}')
    assert cli.main(["--config", str(path)]) == 0
    assert "mcp-tui: note: mcpServers.s.autoApprove: ignored" in capsys.readouterr().err


# ---- every error path ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["ftp://example.com/mcp"], "is refused: mcp-tui connects to http:// and https://"),
        (["javascript:alert(1)"], "is refused"),
        (["file:///etc/passwd"], "is refused"),
        (["example.com/mcp"], "write the scheme: http://example.com/mcp"),
        (["http:///mcp"], "has no host name"),
        (["python", "server.py"], "put its command after `--`: mcp-tui -- python server.py"),
        (["127.0.0.1:8000/mcp"], "write the scheme: http://127.0.0.1:8000/mcp"),
        (["http://h/mcp", "--", "x"], "either a URL or a command after `--`, not both"),
        (["--"], "Nothing follows `--`"),
        (["--header", "X: y", "--", "x"], "apply to a URL, not to a stdio command"),
        (["--transport", "sse"], "need a URL"),
        (["--header", "no colon", "http://h/mcp"], 'write it as "Name: value"'),
        (["--header", "Bad Name: v", "http://h/mcp"], "is not a header"),
        (["--args", "{}", "http://h/mcp"], "--args goes with --call TOOL"),
        (["--call", "t", "--args", "[1]", "http://h/mcp"], "must be a JSON object"),
        (["--call", "t", "--args", "{x}", "http://h/mcp"], "--args is not valid JSON"),
        (["--name", "x"], "--name names a server given by URL"),
        (["--mode", "fast", "http://h/mcp"], "Argument --mode: invalid choice: 'fast'"),
        (["--root", "/no/such/dir", "http://h/mcp"], "--root: '/no/such/dir' is not an existing"),
        (["--bogus", "http://h/mcp"], "Unrecognized arguments: --bogus"),
        (["http://h/mcp", "--", "x", "--call"], "either a URL or a command"),
        (["--server", "a"], "--server picks servers from a config file, and there is none"),
        ([], "No server to open, and no config file at"),
        (["--config", "missing.toml"], "Config file missing.toml (from --config) does not exist"),
        (["--log", "x", "demo"], "Give the subcommand first"),
        (["demo", "--", "x"], "takes no `--` command"),
        (["demo", "--args", "{}"], "--args goes with --call TOOL"),
        (["demo", "--port", "3"], "Unrecognized arguments: --port 3"),
        (["demo", "--tour", "--call", "book_table"], "give either --tour or --call"),
    ],
)
def test_usage_errors(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert expected in fails(argv, capsys, 2)


def test_missing_env_config_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MCP_TUI_CONFIG", "nowhere.toml")
    assert "nowhere.toml (from MCP_TUI_CONFIG) does not exist" in fails([], capsys)


def test_invalid_config_names_key_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(tmp_path / "c.toml", extra='[servers.bad]\ncommand = "x"\nmode = "new"\n')
    err = fails(["--config", str(path)], capsys)
    assert f"{path}, line " in err and "servers.bad.mode" in err


def test_config_without_enabled_servers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[servers.a]\ncommand = "x"\nenabled = false\n')
    assert "no enabled server; open one with --server NAME" in fails(
        ["--config", str(path)], capsys
    )
    path.write_text("")
    assert "has no servers; add a [servers.NAME] table" in fails(["--config", str(path)], capsys)


def test_unknown_server_name_lists_known(
    isolated_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config(isolated_dirs / "config" / "config.toml")
    err = fails(["--server", "three"], capsys)
    assert "no server named 'three' (the servers in this file: one, two, off)" in err


def test_command_that_does_not_exist(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = fails(["--", "surely-not-a-command-mcp-tui"], capsys, 3)
    assert "'surely-not-a-command-mcp-tui' was not found on PATH" in err
    err = fails(["--", str(tmp_path / "missing.py")], capsys, 3)
    assert "does not exist" in err
    script = tmp_path / "plain.txt"
    script.write_text("")
    assert "is not executable" in fails(["--", str(script)], capsys, 3)


def test_name_clash_with_config_server(
    isolated_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config(isolated_dirs / "config" / "config.toml")
    err = fails(["--server", "one", "--name", "one", "--", PY], capsys)
    assert "--name 'one' is already the name of a server" in err


# ---- help and version ---------------------------------------------------------------------------


def _exit_codes(text: str) -> list[str]:
    """The codes listed under "exit codes:" in a --help text."""
    section = text.split("exit codes:\n", 1)[1]
    return re.findall(r"^  (\d+) ", section, flags=re.M)


def test_help_lists_every_option_and_the_exit_codes_that_apply(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for parser, argv, codes in (
        (build_main_parser(), ["--help"], ["0", "1", "2", "3", "4", "130"]),
        (build_call_parser(), ["call", "--help"], ["0", "1", "2", "3", "4", "130"]),
        (build_read_parser(), ["read", "--help"], ["0", "1", "2", "3", "4", "130"]),
        (build_get_parser(), ["get", "--help"], ["0", "1", "2", "3", "4", "130"]),
        (build_list_parser(), ["list", "--help"], ["0", "2", "3", "130"]),
        (build_demo_parser(), ["demo", "--help"], ["0", "2", "130"]),
    ):
        assert cli.main(argv) == 0
        text = capsys.readouterr().out
        for action in parser._actions:
            for option in action.option_strings:
                assert option in text, f"{option} missing from {argv}"
            assert action.help, f"{action.dest} has no help"
        assert _exit_codes(text) == codes, argv
        # Only the verbs that answer elicitations describe answers files, with TOML's syntax.
        answers = argv[0] in ("call", "read", "get")
        assert ("answers files (--answers FILE)" in text) is answers, argv
        assert ("answers file" in text) is (answers or argv[0] == "--help"), argv
        if answers:
            assert "[[answers]]" in text, argv
    assert cli.main(["demo", "--help"]) == 0
    assert "--http" in capsys.readouterr().out


def test_the_demo_flags_the_readme_and_help_name_are_the_demo_parsers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each ``mcp-tui demo --flag`` the README and the docs show is in ``demo --help``; the main
    help's command list names the demo's own flags; ``--tour`` says it takes no ``--call``
    (refused)."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    readme = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    shown = set(re.findall(r"mcp-tui demo((?: --[\w-]+(?: [^\s#`|-]+)?)+)", readme))
    flags = {flag for line in shown for flag in re.findall(r"--[\w-]+", line)}
    assert {"--http", "--tour"} <= flags
    demo = {o for a in build_demo_parser()._actions for o in a.option_strings}
    assert flags <= demo, flags - demo
    assert cli.main(["--help"]) == 0
    entry = re.search(r"^  demo  .*(?:\n {10}\S.*)*", capsys.readouterr().out, flags=re.M)
    assert entry is not None
    line = entry.group()
    own = {"--http", "--tour"}  # the demo's flags the main parser does not have
    assert all(flag in line for flag in own), line
    assert cli.main(["demo", "--help"]) == 0
    tour = capsys.readouterr().out.split("--tour", 1)[1].split("\n  --", 1)[0]
    assert "--call" in tour, tour


def run_module(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env=env,
        check=False,
    )


def test_python_dash_m_help_without_mcp_or_textual() -> None:
    """``python -m mcp_tui --help`` works and stays fast: no ``mcp``, no ``textual`` imported."""
    result = run_module("-m", "mcp_tui", "--help")
    assert result.returncode == 0 and "usage: mcp-tui" in result.stdout
    probe = run_module(
        "-c",
        "import sys\n"
        "from mcp_tui.cli.main import main\n"
        "for argv in (['--help'], ['call', '--help'], ['ftp://x']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = sorted(m for m in ('mcp', 'textual', 'mcp_types') if m in sys.modules)\n"
        "print('HEAVY', heavy)\n",
    )
    assert "HEAVY []" in probe.stdout, probe.stdout + probe.stderr


def test_bad_input_in_a_subprocess_has_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[servers.x\n")
    result = run_module("-m", "mcp_tui", "--config", str(bad))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "is not valid TOML" in result.stderr


def test_build_app_constructs_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """``build_app`` hands the servers and options to ``McpTuiApp`` unchanged."""
    import types

    made: dict[str, Any] = {}

    class FakeApp:
        def __init__(self, servers: list[ServerSpec], options: AppOptions) -> None:
            made["args"] = (servers, options)

    module = types.ModuleType("mcp_tui.ui.app")
    module.McpTuiApp = FakeApp  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mcp_tui.ui.app", module)
    spec = ServerSpec("s", StdioTarget("x"))
    app = cli.build_app([spec], AppOptions())
    assert isinstance(app, FakeApp) and made["args"] == ([spec], AppOptions())


# ---- demo ---------------------------------------------------------------------------------------


def test_demo_runs_the_bundled_server_over_stdio(launched: Launched, tmp_path: Path) -> None:
    argv = ["demo", "--mode", "legacy", "--call", "book_table", "--log", str(tmp_path / "t.jsonl")]
    assert cli.main(argv) == 0
    (spec,) = launched.servers
    assert spec.name == "demo" and spec.mode == "legacy"
    assert isinstance(spec.target, StdioTarget)
    assert [spec.target.command, *spec.target.args] == [PY, "-m", "mcp_tui.demo"]
    assert "PYTHONPATH" in spec.target.env, "the child finds mcp_tui from a source checkout"
    # No --args: the TUI opens the arguments form if the tool has required arguments.
    assert launched.options.call == ToolCallRequest("book_table", {}, ask=True)
    assert launched.options.traffic_log == tmp_path / "t.jsonl"


def test_demo_tour_on_either_era(launched: Launched) -> None:
    assert cli.main(["demo", "--tour", "--mode", "2026-07-28"]) == 0
    (spec,) = launched.servers
    assert spec.name == "demo" and spec.mode == "2026-07-28"
    assert launched.options.tour and launched.options.call is None


def test_demo_http_serves_on_loopback_and_stops_the_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``demo --http`` starts the demo server, connects to the URL it prints, stops it after."""
    import urllib.error
    import urllib.request

    seen: dict[str, Any] = {}

    def fake_run_tui(servers: list[ServerSpec], options: AppOptions) -> int:
        (spec,) = servers
        assert isinstance(spec.target, HttpTarget)
        seen["url"] = spec.target.url
        # The server is up while the TUI runs: a GET on the MCP endpoint gets an HTTP answer.
        try:
            urllib.request.urlopen(spec.target.url, timeout=10)
        except urllib.error.HTTPError as exc:
            seen["status"] = exc.code
        return 0

    monkeypatch.setattr(cli, "run_tui", fake_run_tui)
    assert cli.main(["demo", "--http"]) == 0
    assert seen["url"].startswith("http://127.0.0.1:") and seen["url"].endswith("/mcp")
    assert 400 <= seen["status"] < 500
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(seen["url"], timeout=5)


def test_stop_process_kills_a_child_that_ignores_sigterm() -> None:
    code = (
        "import signal, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "print('ok', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"ok\n"
    cli_demo.stop_process(proc, grace=0.5)
    assert proc.poll() is not None
    proc.stdout.close()


def test_build_app_with_the_real_app() -> None:
    """The real ``McpTuiApp`` takes exactly ``(servers, options)``; nothing runs or connects."""
    from mcp_tui.ui.app import McpTuiApp

    spec = ServerSpec("s", StdioTarget(PY, ("-c", "pass")))
    app = cli.build_app([spec], AppOptions(review_before_send=True))
    assert isinstance(app, McpTuiApp)


def test_connect_timeout_from_the_command_line_the_config_or_the_one_default(
    launched: Launched, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_tui.config.servers import DEFAULT_CONNECT_TIMEOUT

    assert cli.main(["--", PY, "-m", "some_server"]) == 0
    assert launched.options.connect_timeout == DEFAULT_CONNECT_TIMEOUT == 30.0
    config = tmp_path / "c.toml"
    config.write_text('[app]\nconnect_timeout = 12.5\n[servers.a]\ncommand = "python"\n')
    assert cli.main(["--config", str(config)]) == 0
    assert launched.options.connect_timeout == 12.5
    assert cli.main(["--config", str(config), "--connect-timeout", "3"]) == 0
    assert launched.options.connect_timeout == 3.0, "the command line wins"
    for bad in ("abc", "0", "-1", "inf"):
        message = fails(["--connect-timeout", bad, "--", PY], capsys)
        assert "--connect-timeout" in message and bad in message
