"""Our own TOML config: the example file, every key, and bad files named by key and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcp_tui.config.load import load_config
from mcp_tui.config.servers import HttpTarget, StdioTarget
from mcp_tui.errors import ConfigError
from tests.config import config_kit
from tests.config.config_kit import error_of

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    return config_kit.write(tmp_path, text, name)


def test_example_file_loads_with_every_server() -> None:
    config = load_config(EXAMPLE, {"HOME": "/home/someone", "REMOTE_MCP_TOKEN": "t0k"})
    assert config.format == "toml"
    assert list(config.servers) == ["files", "remote", "legacy-sse"]
    files = config.servers["files"]
    assert isinstance(files.target, StdioTarget)
    assert files.target.command == "npx"
    assert files.target.args == ("-y", "@modelcontextprotocol/server-filesystem", "/home/someone")
    assert files.target.env == {"LOG_LEVEL": "info"}
    assert files.target.cwd == str(EXAMPLE.parent)
    assert files.mode == "legacy"
    assert files.elicitation == "ask"
    assert files.roots == (str(EXAMPLE.parent),)
    remote = config.servers["remote"]
    assert remote.roots is None
    assert isinstance(remote.target, HttpTarget)
    assert remote.target.headers == {"Authorization": "Bearer t0k"}
    assert remote.target.transport == "streamable-http"
    sse = config.servers["legacy-sse"]
    assert isinstance(sse.target, HttpTarget) and sse.target.transport == "sse"
    assert config.disabled == {"remote", "legacy-sse"}
    assert [s.name for s in config.default_servers()] == ["files"]
    settings = config.settings
    assert (settings.rate_limit_count, settings.rate_limit_seconds) == (10, 10.0)
    assert settings.review_before_send is False
    assert settings.chat is not None and settings.chat.provider is None
    assert settings.chat.system_prompt.startswith("You are a helpful assistant. Use the")


def test_example_documents_every_key() -> None:
    """Every field of every model appears in the example, so the example stays complete."""
    from mcp_tui.config.load import AppConfig, HttpServerConfig, RateLimitConfig, StdioServerConfig
    from mcp_tui.config.models import ChatConfig

    text = EXAMPLE.read_text(encoding="utf-8")
    for model in (AppConfig, RateLimitConfig, StdioServerConfig, HttpServerConfig, ChatConfig):
        for name, info in model.model_fields.items():
            documented = re.search(rf"^(# )?{name} =|^\[[a-z.-]+\.{name}\]$", text, re.MULTILINE)
            assert documented, f"{model.__name__}.{name} is not in config.example.toml"
            assert info.description, f"{model.__name__}.{name} has no description"


def test_example_disabled_server_with_unset_variable_is_an_error_only_when_selected() -> None:
    config = load_config(EXAMPLE, {"HOME": "/h"})
    assert "remote" in config.problems and "remote" in config.names
    assert [s.name for s in config.select(["files"])] == ["files"]
    with pytest.raises(ConfigError, match=r"line \d+: servers\.remote\.headers\.Authorization"):
        config.select(["remote"])


def test_app_settings_and_defaults_apply_to_servers(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [app]
        review_before_send = true
        traffic_log = "logs/traffic.jsonl"
        stderr_log = "~/mcp-stderr.log"
        mode = "legacy"
        elicitation = "decline"
        rate_limit = { count = 3, seconds = 1.5 }

        [servers.a]
        command = "python"

        [servers.b]
        url = "http://127.0.0.1:9/mcp"
        mode = "2026-07-28"
        elicitation = "ask"
        """,
    )
    config = load_config(path, {})
    a, b = config.servers["a"], config.servers["b"]
    assert (a.mode, a.elicitation) == ("legacy", "decline")
    assert (b.mode, b.elicitation) == ("2026-07-28", "ask")
    s = config.settings
    assert s.review_before_send is True
    assert s.traffic_log == tmp_path.resolve() / "logs" / "traffic.jsonl"
    assert s.stderr_log == Path("~/mcp-stderr.log").expanduser()
    assert (s.rate_limit_count, s.rate_limit_seconds) == (3, 1.5)
    options = s.to_options(traffic_log=Path("cli.jsonl"), stderr_log=None)
    assert options.traffic_log == Path("cli.jsonl"), "the command line wins"
    assert options.stderr_log == s.stderr_log, "None means: not given on the command line"
    assert options.review_before_send is True and options.rate_limit_count == 3


def test_empty_file_has_no_servers(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""), {})
    assert config.servers == {} and config.default_servers() == []


def test_variables_are_expanded(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [servers.s]
        command = "${TOOL_DIR}/run"
        args = ["--level=${LEVEL:-info}", "${env:NAME}", "$NOT_EXPANDED"]
        env = { TOKEN = "${TOKEN}" }
        cwd = "${TOOL_DIR}"
        """,
    )
    spec = load_config(path, {"TOOL_DIR": "/opt/t", "NAME": "n", "TOKEN": "secret"}).servers["s"]
    assert isinstance(spec.target, StdioTarget)
    assert spec.target.command == "/opt/t/run"
    assert spec.target.args == ("--level=info", "n", "$NOT_EXPANDED")
    assert spec.target.env == {"TOKEN": "secret"}
    assert spec.target.cwd == "/opt/t"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A typo in a server table: the key, its path and its line.
        (
            """
            [servers.db]
            command = "x"
            argz = ["a"]
            """,
            r"config\.toml, line 3: servers\.db\.argz: unknown key",
        ),
        # A wrong type inside an array: the item's index, and the line the item is on.
        (
            """
            [servers.db]
            command = "x"
            args = [
              "a",
              3,
            ]
            """,
            r"line 5: servers\.db\.args\[1\]: Input should be a valid string \(got 3\)",
        ),
        # Both command and url.
        (
            """
            [servers.both]
            command = "x"
            url = "http://h/mcp"
            """,
            r"line 1: servers\.both: needs exactly one of `command`",
        ),
        # Neither.
        (
            """
            [servers.none]
            mode = "auto"
            """,
            r"line 1: servers\.none: needs exactly one of `command`",
        ),
        # A refused URL scheme.
        (
            """
            [servers.web]
            url = "ftp://example.com/mcp"
            """,
            r"line 2: servers\.web\.url: 'ftp://example\.com/mcp' is not an http:// or https://",
        ),
        # An enum value outside the allowed set, in [app].
        (
            """
            # comment
            [app]
            mode = "newest"
            """,
            r"line 3: app\.mode: Input should be 'auto', 'legacy' or '2026-07-28'",
        ),
        # Nested table value out of range.
        (
            """
            [app.rate_limit]
            count = 0
            """,
            r"line 2: app\.rate_limit\.count: Input should be greater than or equal to 1",
        ),
        # Strict booleans: "yes" is not true.
        (
            """
            [servers.s]
            command = "x"
            enabled = "yes"
            """,
            r"line 3: servers\.s\.enabled: Input should be a valid boolean",
        ),
        # Dotted keys at top level.
        (
            """
            servers.s.command = "x"
            servers.s.cwd = 4
            """,
            r"line 2: servers\.s\.cwd: Input should be a valid string",
        ),
        # Quoted names.
        (
            """
            [servers."my server"]
            command = ""
            """,
            r'line 2: servers\."my server"\.command: String should have at least 1 character',
        ),
        # An unknown top-level table.
        (
            """
            [server.typo]
            command = "x"
            """,
            r"line 1: server: unknown table or key",
        ),
        # An unset variable in an enabled server.
        (
            """
            [servers.s]
            command = "x"
            env = { TOKEN = "${NOT_SET_ANYWHERE}" }
            """,
            r"line 3: servers\.s\.env\.TOKEN: the environment variable NOT_SET_ANYWHERE is not set",
        ),
        # Inline table inside a multi-line string does not confuse the line finder.
        (
            '''
            [servers.s]
            command = "x"
            args = ["""
            mode = 1
            """]
            mode = 1
            ''',
            r"line 6: servers\.s\.mode: Input should be 'auto'",
        ),
    ],
)
def test_bad_file_names_key_and_line(tmp_path: Path, text: str, expected: str) -> None:
    message = error_of(write(tmp_path, text))
    assert message.startswith(f"Config file {tmp_path / 'config.toml'}")
    assert re.search(expected, message), message


def test_several_problems_are_reported_in_one_paragraph(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [servers.s]
        command = 1
        args = "not a list"
        cwd = 2
        """,
    )
    message = error_of(path)
    assert "line 2: servers.s.command" in message
    assert "Also: servers.s.args (line 3)" in message and "servers.s.cwd (line 4)" in message


def test_toml_syntax_error_has_line_and_column(tmp_path: Path) -> None:
    message = error_of(write(tmp_path, '[servers.s]\ncommand = "x\n'))
    assert "is not valid TOML" in message and "line 2" in message and "column" in message


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    assert "does not exist" in error_of(tmp_path / "nope.toml")
    assert "is a directory" in error_of(tmp_path)
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b"# caf\xe9\n")
    assert "is not UTF-8" in error_of(bad)


def test_select_unknown_server_lists_the_known_ones(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[servers.a]\ncommand = "x"\n'), {})
    with pytest.raises(ConfigError, match=r"no server named 'b' \(the servers in this file: a\)"):
        config.select(["b"])
    assert [s.name for s in config.select(["a", "a"])] == ["a"]


def test_the_chat_table(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [chat]
        provider = "openai-compatible"
        model = "llama3.2"
        base_url = "http://127.0.0.1:11434/v1"
        """,
    )
    chat = load_config(path, {}).settings.chat
    assert chat is not None
    assert (chat.provider, chat.model, chat.base_url) == (
        "openai-compatible",
        "llama3.2",
        "http://127.0.0.1:11434/v1",
    )
    assert load_config(path, {}).settings.to_options().chat == chat
    bad = write(tmp_path, '[chat]\nprovider = "gemini"\n', "bad.toml")
    with pytest.raises(ConfigError, match=r"line 2: chat\.provider"):
        load_config(bad, {})
    key = write(tmp_path, '[chat]\napi_key = "sk-123"\n', "key.toml")
    with pytest.raises(ConfigError, match=r"chat\.api_key"):
        load_config(key, {})


def test_roots_per_server(tmp_path: Path) -> None:
    (tmp_path / "data dir").mkdir()
    path = write(
        tmp_path,
        """
        [servers.a]
        command = "srv"
        roots = ["data dir", "${HERE}", "data dir/"]

        [servers.b]
        command = "srv"
        roots = []

        [servers.c]
        url = "http://127.0.0.1:1/mcp"
        """,
    )
    config = load_config(path, {"HERE": str(tmp_path)})
    assert config.servers["a"].roots == (str(tmp_path / "data dir"), str(tmp_path))
    assert config.servers["b"].roots == ()
    assert config.servers["c"].roots is None


def test_a_root_that_is_not_a_directory_is_named_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, '[servers.a]\ncommand = "srv"\nroots = [".", "nowhere"]\n')
    message = error_of(path)
    assert "line 3" in message and "servers.a.roots[1]" in message
    assert f"'{tmp_path / 'nowhere'}' is not an existing directory" in message


def test_the_arming_delay(tmp_path: Path) -> None:
    """``[app] arming_delay``: seconds, 0 allowed; unset is the built-in; anything else is an
    error naming the file, the line and the key."""
    settings = load_config(write(tmp_path, "[app]\narming_delay = 0\n"), {}).settings
    assert settings.to_options().arming_delay == 0
    settings = load_config(write(tmp_path, "[app]\narming_delay = 1.5\n"), {}).settings
    assert settings.to_options().arming_delay == 1.5
    assert load_config(write(tmp_path, "[app]\n"), {}).settings.to_options().arming_delay is None
    for bad in ("-0.1", '"0.6"', "true"):
        message = error_of(
            write(tmp_path, f"[app]\nreview_before_send = false\narming_delay = {bad}\n")
        )
        assert message.startswith(f"Config file {tmp_path / 'config.toml'}"), message
        assert re.search(r"line 3: app\.arming_delay", message), message
