"""The defaults, pinned: an EMPTY config file, no config file, and every layer that takes one.

Each default is written once (``config/servers.py``, ``config/options.py``,
``config/oauth_settings.py``) and read everywhere else; these tests hold the values a user gets
when they configure nothing, so a default changed in any one place (the config models, the
settings record, the run's options, the connection or the gate) fails here rather than drifting
apart silently. ``config.example.toml``
is no help for this: it sets most keys explicitly.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import msgspec
import pytest

from mcp_tui.config.chat_settings import DEFAULT_SYSTEM_PROMPT
from mcp_tui.config.load import AppSettings, load_config
from mcp_tui.config.models import AppConfig, HttpServerConfig, OAuthConfig, RateLimitConfig
from mcp_tui.config.oauth_settings import OAuthSettings
from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.session.connection import ServerConnection
from mcp_tui.session.elicitation_bridge import ElicitationBridge
from mcp_tui.session.elicitation_gate import ElicitationGate

#: What a user who configures nothing gets, written out by hand.
APP_DEFAULTS: dict[str, Any] = {
    "review_before_send": False,
    "traffic_log": None,
    "stderr_log": None,
    "rate_limit_count": 10,
    "rate_limit_seconds": 10.0,
    "connect_timeout": 30.0,
    "arming_delay": None,
    "mode": "auto",
    "elicitation": "ask",
    "sampling": "ask",
    "chat": None,
    "check_ignore": (),
    "check_strict": False,
    "keymap": {},
}
RATE_LIMIT = (10, 10.0)
OAUTH_DEFAULTS: dict[str, Any] = {
    "enabled": True,
    "grant": "authorization_code",
    "client_id": None,
    "client_secret": None,
    "client_secret_env": None,
    "token_endpoint_auth_method": None,
    "scope": None,
    "redirect_port": None,
    "client_metadata_url": None,
    "issuer": None,
}


def _load(tmp_path: Path, text: str, name: str = "config.toml") -> Any:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_config(path, {})


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("", "config.toml"),
        ("[app]\n[app.rate_limit]\n", "config.toml"),
        ('{"mcpServers": {}}', "config.json"),
    ],
    ids=["empty-toml", "empty-tables", "empty-json"],
)
def test_an_empty_config_gives_the_defaults(tmp_path: Path, text: str, name: str) -> None:
    settings = _load(tmp_path, text, name).settings
    assert msgspec.structs.asdict(settings) == APP_DEFAULTS


def test_an_empty_chat_table_gives_the_chat_defaults(tmp_path: Path) -> None:
    chat = _load(tmp_path, "[chat]\n").settings.chat
    assert chat is not None
    assert msgspec.structs.asdict(chat) == {
        "provider": None,
        "model": None,
        "base_url": None,
        "api_key_env": None,
        "system_prompt": DEFAULT_SYSTEM_PROMPT,
        "open_at_start": False,
    }


def test_no_config_file_gives_the_same_defaults() -> None:
    assert msgspec.structs.asdict(AppSettings()) == APP_DEFAULTS
    options = AppOptions()
    run = {
        k: v
        for k, v in APP_DEFAULTS.items()
        if k not in ("mode", "elicitation", "sampling", "chat", "check_ignore", "check_strict")
    }
    assert {k: getattr(options, k) for k in run} == run
    assert AppSettings().to_options() == options


def test_the_config_models_alone_give_the_defaults() -> None:
    app = AppConfig()
    assert (app.rate_limit.count, app.rate_limit.seconds) == RATE_LIMIT
    assert (RateLimitConfig().count, RateLimitConfig().seconds) == RATE_LIMIT
    assert (app.review_before_send, app.mode, app.elicitation) == (False, "auto", "ask")
    assert app.sampling == "ask"
    assert (app.traffic_log, app.stderr_log) == (None, None)
    assert OAuthConfig().model_dump() == OAUTH_DEFAULTS
    assert HttpServerConfig(url="http://127.0.0.1/mcp").transport == "streamable-http"


def test_a_server_that_sets_nothing_gets_the_defaults(tmp_path: Path) -> None:
    config = _load(
        tmp_path,
        '[servers.cmd]\ncommand = "srv"\n'
        '[servers.web]\nurl = "http://127.0.0.1:1/mcp"\n'
        '[servers.signed]\nurl = "http://127.0.0.1:2/mcp"\n[servers.signed.oauth]\n',
    )
    for spec in config.servers.values():
        assert (spec.mode, spec.elicitation, spec.sampling) == ("auto", "ask", "ask")
    web, signed = config.servers["web"].target, config.servers["signed"].target
    assert isinstance(web, HttpTarget) and isinstance(signed, HttpTarget)
    assert web.transport == signed.transport == "streamable-http"
    assert signed.oauth is not None
    assert msgspec.structs.asdict(signed.oauth) == OAUTH_DEFAULTS


def test_the_records_and_the_session_layer_default_alike() -> None:
    spec = ServerSpec("s", StdioTarget("srv"))
    assert (spec.mode, spec.elicitation, spec.sampling) == ("auto", "ask", "ask")
    assert HttpTarget("http://127.0.0.1/mcp").transport == "streamable-http"
    assert msgspec.structs.asdict(OAuthSettings()) == OAUTH_DEFAULTS
    gate = ElicitationGate()
    assert (gate.max_requests, gate.window) == RATE_LIMIT
    connection = inspect.signature(ServerConnection).parameters
    assert connection["connect_timeout"].default == APP_DEFAULTS["connect_timeout"]
    assert connection["rate_limit"].default == RATE_LIMIT
    bridge = inspect.signature(ElicitationBridge).parameters
    assert bridge["policy"].default == "ask"
