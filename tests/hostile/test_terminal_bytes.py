"""The real ``mcp-tui`` in a pseudo-terminal: server escape sequences never reach the terminal.

The whole program runs as a user runs it (``python -m mcp_tui -- python raw_server.py ...``) in
a pty, against a server whose name, log lines, stderr, malformed stdout lines, tool names and
elicitation form all carry ESC/OSC/CSI/C1/bidi payloads. Every byte the app writes to the
terminal is captured; none of the server's sequences may appear in it, only their visible
escapes (``\\e]52;...``). An OSC 0 would rename the window, OSC 52 write the clipboard and OSC 8
make a link whose text differs from its target.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.hostile_kit import RAW_SERVER, ROOT, hostile, processes_with

pty = pytest.importorskip("pty")
fcntl = pytest.importorskip("fcntl")
termios = pytest.importorskip("termios")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

#: Byte sequences from the server that must never be written to the terminal.
FORBIDDEN = {
    "OSC 0 (window title)": b"\x1b]0;pwned",
    "OSC 52 (clipboard)": b"\x1b]52;c;aGk=",
    "OSC 8 (hyperlink)": b"\x1b]8;;https://evil",
    "CSI (server colour)": b"\x1b[31mred",
    "C1 CSI": b"\xc2\x9b2J",
    "raw C1 CSI": b"\x9b2J",
    "NEL": b"\xc2\x85",
    "RLO (bidi override)": "\u202e".encode(),
    "LRI (bidi isolate)": "\u2066".encode(),
    "zero-width space": "\u200b".encode(),
}

#: A default short enough that its sequences are inside the field's width.
DEFAULT = "\x1b]0;pwned\x07\x1b]52;c;aGk=\x07 \x1b[31mred \x9b2J \x85 \u202eevil\nnext"

FORM = {
    "message": hostile("message"),
    "requestedSchema": {
        "type": "object",
        "properties": {
            # A value, not a label: drawn by the input itself, one picture per control character.
            "prefilled": {"type": "string", "default": DEFAULT},
            "answer": {"type": "string", "title": hostile("title")},
        },
    },
}


def script() -> dict[str, object]:
    return {
        "server_info": {"name": hostile("name"), "version": "1"},
        "tools": [{"name": hostile("tool"), "inputSchema": {"type": "object"}}],
        "on_initialized": [
            {"log": {"level": "error", "data": hostile("log")}},
            {"stderr": hostile("stderr")},
            {"raw": "junk " + hostile("junk")},
            {"sleep": 0.3},
            {"elicit": FORM, "id": "q"},
        ],
    }


class Terminal:
    """A child process on a pty of a given size, with everything it wrote kept."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, b"\x28\x00\x78\x00\x00\x00\x00\x00")  # 40x120
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True
        )
        os.close(slave)
        self.output = bytearray()

    def read_until(self, needle: bytes, timeout: float, *, after: int = 0) -> bool:
        """Read until ``needle`` is in the output (from offset ``after`` on) or ``timeout``."""
        deadline = time.monotonic() + timeout
        while needle not in self.output[after:] and time.monotonic() < deadline:
            if not self._read(0.1) and self.process.poll() is not None:
                break
        return needle in self.output[after:]

    def _read(self, wait: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], wait)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.output += chunk
        return bool(chunk)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def wait_exit(self, timeout: float) -> int | None:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        while self._read(0.05):
            pass
        return self.process.poll()

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.master)


def test_server_escape_sequences_never_reach_the_terminal(tmp_path: Path) -> None:
    script_path = tmp_path / "script.json"
    script_path.write_text(json.dumps(script()), encoding="utf-8")
    marker = os.urandom(8).hex()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "PYTHONPATH": str(ROOT),
        "MCP_TUI_TEST_MARKER": marker,
    }
    argv = [sys.executable, "-m", "mcp_tui", "--name", "evil", "--"]
    argv += [sys.executable, str(RAW_SERVER), "--script", str(script_path)]
    term = Terminal(argv, env, tmp_path)
    try:
        # The form is on screen once the server's message shows, escaped.
        assert term.read_until(b"message [bold]b[/]", 30), bytes(term.output[-2000:])
        assert term.read_until(b"\\e]52;c;aGk=\\x07", 5)
        sent = len(term.output)
        term.send(b"\x1b")  # Escape: cancel the (untouched) form
        # Ctrl+Q only once the form is gone: with a form open it asks "Quit mcp-tui?" first. The
        # transcript saying the request was cancelled is the sign (a fixed sleep lost the race
        # under load, and an Escape followed at once by Ctrl+Q could be read as Alt+Ctrl+Q).
        assert term.read_until(b": cancelled", 30, after=sent), bytes(term.output[-3000:])
        term.send(b"\x11")  # Ctrl+Q
        code = term.wait_exit(20)
        assert code == 0, bytes(term.output[-3000:])
    finally:
        term.close()
    output = bytes(term.output)
    for what, sequence in FORBIDDEN.items():
        assert sequence not in output, f"{what} from the server reached the terminal"
    for visible in (b"\\e]0;pwned\\x07", b"\\x9b2J", b"\\u202eevil", b"\\x85"):
        assert visible in output, visible
    assert "␛]0;pwned␇␛]52;c;aGk=␇ ␛[31mred �2J � �evil␊next".encode() in output
    assert processes_with(marker) == []


def test_the_harness_sees_raw_sequences_when_they_are_written(tmp_path: Path) -> None:
    """A control for the test above: raw bytes written to the pty are captured as they are."""
    code = f"import sys; sys.stdout.write({hostile('raw')!r}); sys.stdout.flush()"
    term = Terminal([sys.executable, "-c", code], dict(os.environ), tmp_path)
    try:
        assert term.wait_exit(20) == 0
    finally:
        term.close()
    output = bytes(term.output)
    for what, sequence in FORBIDDEN.items():
        assert sequence in output, f"the harness missed {what}"
