"""Headless ``mcp-tui call`` against a server that requires OAuth: stored tokens only.

Signing in needs a person at the consent screen, so ``call`` never starts it: without a stored
token it fails with a message saying how to sign in; after a sign-in (here through the session
layer, as the TUI does) the same command works with the stored token.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest

from mcp_tui.config.servers import HttpTarget, ServerSpec
from mcp_tui.session.elicitation import CancelAll
from tests.oauth.oauth_testkit import (
    ConsentingUser,
    Recorder,
    load_fixture,
    running,
    use_fake_browser,
)

pytestmark = pytest.mark.anyio

fx = load_fixture("oauth_server")
REPO = Path(__file__).resolve().parents[2]


async def call(url: str, data: Path) -> tuple[int, str, str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data), "BROWSER": ""}
    done = await anyio.run_process(
        [sys.executable, "-m", "mcp_tui", "call", "whoami", "--mode", "legacy", url],
        cwd=REPO,
        env=env,
        check=False,
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


async def test_call_needs_a_stored_sign_in(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, private_data_dir: Path
) -> None:
    browser = use_fake_browser(monkeypatch, tmp_path)
    async with fx.oauth_server() as server:
        code, out, err = await call(server.url, private_data_dir)
        assert code == 3, (out, err)
        assert "requires you to sign in" in err and "mcp-tui call" in err
        assert "authorize" not in server.provider.events
        assert browser.visits() == []

        from mcp_tui.session.connection import ServerConnection

        spec = ServerSpec("fixture", HttpTarget(server.url), mode="legacy")
        conn = ServerConnection(
            spec, handler=CancelAll(), sink=Recorder(), authorization=ConsentingUser()
        )
        async with running(conn):
            assert await conn.wait_ready(30), conn.detail

        code, out, err = await call(server.url, private_data_dir)
        assert code == 0, (out, err)
        assert "signed in" in out
        [access] = server.provider.access
        assert access not in out and access not in err
