"""``mcp-tui auth list`` and ``mcp-tui auth forget NAME|URL``: the stored OAuth sign-ins.

Signing in happens in the TUI (it needs the consent screen and a browser); these commands only
show and delete what was stored. ``list`` prints, per server URL, whether an access and a refresh
token are stored, when the access token expires, the registered client ID and the file — never a
token. ``forget`` deletes a server's file (tokens and dynamic registration); the server is named
by URL or by its name in the config file (``--config``, ``$MCP_TUI_CONFIG`` or the default one);
``--all`` deletes every stored sign-in.

Pure standard library plus ``oauth.store``: no ``mcp`` import, so these are instant.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from typing import TextIO

from mcp_tui.errors import UsageError
from mcp_tui.session.oauth.store import StoredAuth, TokenFile, default_directory, forget, stored
from mcp_tui.untrusted import one_line

AUTH_USAGE = """\
mcp-tui auth list
       mcp-tui auth forget [--config FILE] NAME|URL
       mcp-tui auth forget --all"""


def build_auth_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcp-tui auth",
        usage=AUTH_USAGE,
        description="Show or delete the OAuth sign-ins mcp-tui stored (sign in from the TUI).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.add_parser("list", help="servers with a stored sign-in (never the tokens)")
    forget_parser = actions.add_parser("forget", help="delete a server's tokens and registration")
    forget_parser.add_argument("server", nargs="?", metavar="NAME|URL")
    forget_parser.add_argument("--all", action="store_true", help="forget every server")
    forget_parser.add_argument("--config", metavar="FILE", help="the config file naming NAME")
    return parser


def _when(expires_at: float | None, now: float) -> str:
    if expires_at is None:
        return "no expiry known"
    left = expires_at - now
    if left <= 0:
        return "expired (refreshed on next use if a refresh token is stored)"
    if left < 3600:
        return f"expires in {int(left // 60)} min"
    return f"expires in {left / 3600:.1f} h"


def describe(entry: StoredAuth, now: float | None = None) -> str:
    """One server's line for ``auth list``: no secret in it."""
    tokens = []
    if entry.has_access_token:
        tokens.append("access token, " + _when(entry.expires_at, now or time.time()))
    if entry.has_refresh_token:
        tokens.append("refresh token")
    if not tokens:
        tokens.append("no tokens")
    client = f"; client {one_line(entry.client_id, limit=80)}" if entry.client_id else ""
    scope = f"; scope {one_line(entry.scope, limit=120)}" if entry.scope else ""
    return f"{entry.server_url}\n  {', '.join(tokens)}{client}{scope}\n  {entry.path}"


def _server_url(name: str, config: str | None, environ: Mapping[str, str]) -> str:
    if name.startswith(("http://", "https://")):
        return name
    from mcp_tui.config.located import load_located_config
    from mcp_tui.config.servers import HttpTarget

    location, loaded = load_located_config(config, environ)
    if loaded is None or name not in loaded.servers:
        where = location.describe() if loaded is not None else "no config file"
        raise UsageError(f"No server named {name!r} in {where}; give its URL instead.")
    target = loaded.servers[name].target
    if not isinstance(target, HttpTarget):
        raise UsageError(f"{name!r} is a stdio server; only HTTP servers sign in with OAuth.")
    return target.url


def run_auth(args: Sequence[str], environ: Mapping[str, str], out: TextIO | None = None) -> int:
    """``mcp-tui auth ...``; returns the exit code (1: nothing was stored for that server)."""
    stream = out if out is not None else sys.stdout
    ns = build_auth_parser().parse_args(list(args))

    def say(text: str) -> None:
        print(text, file=stream)

    if ns.action == "list" or ns.action is None:
        entries = stored()
        if not entries:
            say(f"No stored sign-ins (in {default_directory()}).")
        for entry in entries:
            say(describe(entry))
        return 0
    if ns.all:
        if ns.server:
            raise UsageError("Give a server or --all, not both.")
        entries = stored()
        for entry in entries:
            forget(entry.server_url)
        say(f"Forgot {len(entries)} stored sign-in(s).")
        return 0
    if not ns.server:
        raise UsageError("Name the server to forget (its name in the config, or its URL).")
    url = _server_url(ns.server, ns.config, environ)
    path = TokenFile(url).path
    if forget(url):
        say(f"Forgot the sign-in for {url} (deleted {path}).")
        return 0
    say(f"Nothing was stored for {url}.")
    return 1
