"""``check --baseline`` on servers other people wrote: a baseline written then compared is clean,
and a copy of the server with one required argument added fails with B201.

server-everything (the npm peer, its ``dist`` copied beside a link to the pinned
``node_modules``, ``echo`` given a required ``prefix``) and the suite's FastMCP 4 server (copied,
``preferences`` given a required ``team``). Both are listed on every era they speak, so a
listing that is not stable from one connection to the next (an order, a generated id) fails the
clean comparison here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.cli import main as cli
from tests.interop.framework_servers import FASTMCP4, SERVERS_DIR
from tests.interop.interop_peers import EVERYTHING_JS, NODE_MODULES, node_command, require_peers


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["check", "--json", *argv])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return code, report


def _changes(report: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(c["rule"], c["where"], c["pointer"]) for c in report["baseline"]["changes"]}


def _gate(
    capsys: pytest.CaptureFixture[str], base: Path, server: list[str], grown: list[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    code, written = _check(capsys, "--baseline", str(base), "--baseline-update", "--", *server)
    assert code in (0, 1) and written["baseline"]["created"], written
    code, same = _check(capsys, "--baseline", str(base), "--", *server)
    assert same["baseline"]["changes"] == [], same["baseline"]
    code, changed = _check(capsys, "--baseline", str(base), "--", *grown)
    assert code == 1
    return same, changed


@pytest.mark.timeout(120)
def test_server_everything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_peers()
    package = EVERYTHING_JS.parent.parent
    copy = tmp_path / "server-everything"
    shutil.copytree(package / "dist", copy / "dist")
    shutil.copy(package / "package.json", copy / "package.json")
    (tmp_path / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
    echo = copy / "dist" / "tools" / "echo.js"
    source = echo.read_text(encoding="utf-8")
    line = '    message: z.string().describe("Message to echo"),\n'
    assert line in source
    echo.write_text(
        source.replace(line, line + '    prefix: z.string().describe("Prefix"),\n'),
        encoding="utf-8",
    )
    server = node_command(EVERYTHING_JS, "stdio")
    grown = node_command(copy / "dist" / "index.js", "stdio")
    same, changed = _gate(capsys, tmp_path / "mcp-baseline.json", server, grown)
    assert same["servers"][0]["eras"] == ["2025-11-25"]
    assert _changes(changed) == {("B201", "tool echo", "/inputSchema/properties/prefix")}


@pytest.mark.timeout(180)
def test_fastmcp4_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = FASTMCP4.command()
    source = (SERVERS_DIR / FASTMCP4.script).read_text(encoding="utf-8")
    before = "async def preferences(ctx: Context) -> str:"
    assert before in source
    copy = tmp_path / FASTMCP4.script
    copy.write_text(
        source.replace(before, "async def preferences(ctx: Context, team: str) -> str:"),
        encoding="utf-8",
    )
    grown = [server[0], str(copy)]
    _, changed = _gate(capsys, tmp_path / "mcp-baseline.json", server, grown)
    expected = {("B201", "tool preferences", "/inputSchema/properties/team")}
    assert _changes(changed) == expected
    assert all(len(c["eras"]) >= 1 for c in changed["baseline"]["changes"])
