"""``[servers.NAME.oauth]`` in our TOML becomes ``HttpTarget.oauth`` (``OAuthSettings``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_tui.config.load import load_config
from mcp_tui.config.oauth_settings import OAuthSettings
from mcp_tui.config.servers import HttpTarget
from mcp_tui.errors import ConfigError


def load(tmp_path: Path, text: str) -> HttpTarget:
    path = tmp_path / "config.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    target = load_config(path, {}).servers["hosted"].target
    assert isinstance(target, HttpTarget)
    return target


def test_oauth_table_becomes_settings(tmp_path: Path) -> None:
    target = load(
        tmp_path,
        """
        [servers.hosted]
        url = "https://hosted.example.com/mcp"

        [servers.hosted.oauth]
        client_id = "pre-registered"
        client_secret_env = "HOSTED_SECRET"
        scope = "read write"
        redirect_port = 8765
        """,
    )
    assert target.oauth == OAuthSettings(
        client_id="pre-registered",
        client_secret_env="HOSTED_SECRET",
        scope="read write",
        redirect_port=8765,
    )
    assert target.oauth.secret({"HOSTED_SECRET": "s3"}) == "s3"
    assert target.oauth.auth_method({"HOSTED_SECRET": "s3"}) == "client_secret_basic"
    assert target.oauth.auth_method({}) == "none"


def test_no_table_means_defaults(tmp_path: Path) -> None:
    target = load(tmp_path, '[servers.hosted]\nurl = "https://hosted.example.com/mcp"\n')
    assert target.oauth is None


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('grant = "password"', "grant"),
        ("redirect_port = 70000", "redirect_port"),
        ('client_ID = "x"', "client_ID"),
    ],
)
def test_bad_oauth_keys_are_named(tmp_path: Path, line: str, key: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        f'[servers.hosted]\nurl = "https://h.example/mcp"\n\n[servers.hosted.oauth]\n{line}\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=rf"servers\.hosted\.oauth\.{key}"):
        load_config(path, {})
