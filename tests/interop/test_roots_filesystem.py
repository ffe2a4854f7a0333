"""Roots against the real ``@modelcontextprotocol/server-filesystem``, started with NO directory.

Without directory arguments that server may touch only the roots its client offers (it asks with
``roots/list`` after the handshake, and again after ``notifications/roots/list_changed``). So a
file it lists and reads proves that mcp-tui offered the right ``file://`` URIs. Through the real
TUI: the default root (the working directory) at start, then a second directory (with a space,
``#`` and ``%`` in its name, so its URI must be percent-encoded) added in the roots dialog with
keys. Headless:
``mcp-tui call`` with the working directory, and with ``--root``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mcp_tui.config.options import AppOptions
from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import ConnectionState
from mcp_tui.ui.app import McpTuiApp
from mcp_tui.ui.screens.roots_dialog import RootsScreen
from tests.cli_in_process import run_mcp_tui
from tests.interop.interop_peers import FILESYSTEM_JS, LOOPBACK_PRELOAD, NODE
from tests.interop.tui_driver import quit_app, result_text, tool_results, wait_for

pytestmark = [pytest.mark.interop]

#: How server-filesystem says it took the roots (on its stderr, which mcp-tui captures).
UPDATED = "Updated allowed directories from MCP roots: {} valid director"


def filesystem() -> StdioTarget:
    """server-filesystem with no directory argument: roots are all it has."""
    return StdioTarget(str(NODE), ("-r", str(LOOPBACK_PRELOAD), str(FILESYSTEM_JS)))


def two_directories(tmp_path: Path) -> tuple[Path, Path]:
    home, extra = tmp_path / "home", tmp_path / "added later #2 100%"
    home.mkdir()
    extra.mkdir()
    (home / "notes.txt").write_text("in the default root\n")
    (extra / "more.txt").write_text("in the added root\n")
    return home, extra


@pytest.mark.anyio
async def test_default_root_then_a_root_added_in_the_dialog(
    peers: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, extra = two_directories(tmp_path)
    monkeypatch.chdir(home)  # the default root is the directory mcp-tui was started in
    log, stderr = tmp_path / "traffic.jsonl", tmp_path / "stderr.log"
    options = AppOptions(traffic_log=log, stderr_log=stderr)
    app = McpTuiApp([ServerSpec("files", filesystem(), mode="legacy")], options)

    def stderr_says(count: int) -> bool:
        return stderr.exists() and UPDATED.format(count) in stderr.read_text()

    async with app.run_test(size=(120, 40)) as pilot:
        # The server asks for the roots after the handshake and applies them asynchronously.
        await wait_for(pilot, lambda: stderr_says(1), "server-filesystem taking the default root")
        # It may say so before its tools are listed (the connection is ready only then).
        entry = app.entries["files"]
        await wait_for(pilot, lambda: entry.state is ConnectionState.READY, "the server ready")
        session = app.session
        assert session is not None
        session.calls.call_tool("files", "read_text_file", {"path": str(home / "notes.txt")})
        read = await wait_for(pilot, lambda: tool_results(log, "read_text_file"), "the read")
        assert result_text(read[0]) == "in the default root\n"

        # The roots dialog, as a user: o, type the directory, Enter, Ctrl+S.
        session.switch_server("files")
        await pilot.press("o")
        dialog = await wait_for(
            pilot, lambda: isinstance(app.screen, RootsScreen) and app.screen, "the roots dialog"
        )
        assert [r.path for r in dialog.roots] == [str(home)]
        await pilot.press("n", "o", "w", "h", "e", "r", "e", "enter")
        await pilot.pause()
        assert "is not an existing directory" in str(dialog.query_one("#roots-error").render()), (
            "a bad directory is refused with the reason"
        )
        typed = dialog.query_one("#roots-input")
        assert typed.value == "nowhere"  # nothing the user typed is lost
        typed.value = str(extra)
        await pilot.press("enter", "ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, RootsScreen), "the dialog closed")

        # The server is told, asks again, and takes both directories.
        await wait_for(pilot, lambda: stderr_says(2), "server-filesystem taking the new roots")
        session.calls.call_tool("files", "list_directory", {"path": str(extra)})
        session.calls.call_tool("files", "read_text_file", {"path": str(extra / "more.txt")})
        listed = await wait_for(pilot, lambda: tool_results(log, "list_directory"), "the listing")
        assert result_text(listed[0]) == "[FILE] more.txt"
        read = await wait_for(
            pilot, lambda: len(tool_results(log, "read_text_file")) == 2 and log, "the read"
        )
        assert result_text(tool_results(log, "read_text_file")[1]) == "in the added root\n"
        await quit_app(pilot)

    sent = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    out = [m for m in sent if m.get("method") == "notifications/roots/list_changed"]
    assert len(out) == 1
    answers = [m["result"]["roots"] for m in sent if "roots" in (m.get("result") or {})]
    assert answers[-1] == [
        {"uri": home.as_uri(), "name": "home"},
        {"uri": home.parent.as_uri() + "/added%20later%20%232%20100%25", "name": extra.name},
    ]


def headless(capfd: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``mcp-tui call ARGS --mode legacy -q -- server-filesystem`` from the working directory
    (server-filesystem inherits it), in this process (``tests/cli_in_process.py``)."""
    argv = ["call", *args, "--mode", "legacy", "--timeout", "120", "-q", "--"]
    return run_mcp_tui(capfd, [*argv, *filesystem().describe().split(" ")])


def test_headless_call_with_the_default_root_and_with_root(
    peers: None, tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, extra = two_directories(tmp_path)
    monkeypatch.chdir(home)
    done = headless(capfd, "read_text_file", "--args", json.dumps({"path": "notes.txt"}))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "in the default root\n\n"
    args = json.dumps({"path": str(extra / "more.txt")})
    refused = headless(capfd, "read_text_file", "--args", args)
    assert refused.returncode == 1 and "Access denied" in refused.stdout
    done = headless(capfd, "read_text_file", "--args", args, "--root", str(extra))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "in the added root\n\n"


def test_a_server_started_with_a_directory_keeps_it(
    peers: None, tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mcp-tui call list_allowed_directories -- server-filesystem DIR`` run from another
    directory: the server keeps DIR. Offering the working directory by default made it replace
    DIR with the directory mcp-tui happened to be started in."""
    home, extra = two_directories(tmp_path)
    monkeypatch.chdir(home)
    argv = ["call", "list_allowed_directories", "--mode", "legacy", "--timeout", "120", "--"]
    done = run_mcp_tui(capfd, [*argv, *filesystem().describe().split(" "), str(extra)])
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"Allowed directories:\n{extra}\n"
    # mcp-tui says why it offered nothing, and how to offer roots after all.
    assert "directories on its command line" in done.stderr
    assert "--root" in done.stderr


def test_no_roots_offers_nothing(
    peers: None, tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--no-roots``: the server is offered an empty list, so server-filesystem started with no
    directory (which would take the working directory by default) has none at all."""
    home, _extra = two_directories(tmp_path)
    monkeypatch.chdir(home)
    argv = ["call", "list_allowed_directories", "--mode", "legacy", "--timeout", "120", "--"]
    argv += filesystem().describe().split(" ")
    default = run_mcp_tui(capfd, argv)
    assert default.stdout == f"Allowed directories:\n{home}\n", default.stderr
    argv.insert(1, "--no-roots")
    done = run_mcp_tui(capfd, argv)
    assert str(home) not in done.stdout, done.stderr
    assert "sent 0: none" in done.stderr
    # --no-roots and --root together make no sense.
    clash = run_mcp_tui(capfd, ["call", "x", "--no-roots", "--root", str(home), "--demo"])
    assert clash.returncode == 2 and "--no-roots" in clash.stderr
