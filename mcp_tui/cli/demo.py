"""The bundled demo server as a child process of ``mcp-tui demo`` (stdio or HTTP).

``mcp-tui demo`` runs ``mcp_tui.demo`` with this same Python: over stdio as the TUI's server, or
(``--http``) as a local HTTP server whose URL it prints on its first line. The HTTP child is
started in its own session with its stderr in a log file, its stdout drained, and it is always
stopped on the way out (:func:`stop_process`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mcp_tui.config.servers import DEFAULT_MODE, ServerSpec, StdioTarget
from mcp_tui.errors import ConnectionFailed


def demo_stdio_spec(mode: Any = DEFAULT_MODE) -> ServerSpec:
    """The bundled demo server as a stdio child of this same Python."""
    from mcp_tui.demo.server import demo_stdio_command, demo_stdio_env

    argv = list(demo_stdio_command())
    target = StdioTarget(argv[0], tuple(argv[1:]), env=dict(demo_stdio_env()))
    return ServerSpec("demo", target, mode=mode)


_URL_IN_LINE = re.compile(r"https?://\S+")


@contextmanager
def demo_http_server(startup_timeout: float = 60.0) -> Iterator[str]:
    """Run ``python -m mcp_tui.demo --http --port 0``; yield the URL it prints; stop it after.

    The child's stderr goes to a log file (never over the TUI); the rest of its stdout is drained
    so it can never block on a full pipe. It runs in its own session, so a Ctrl+C meant for us
    does not kill it mid-answer; we terminate it (then kill it) on the way out.
    """
    from mcp_tui.config.paths import log_dir

    log = log_dir() / "demo-http.stderr.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as errlog:
        from mcp_tui.demo.server import demo_stdio_env

        proc = subprocess.Popen(
            [sys.executable, "-m", "mcp_tui.demo", "--http", "--port", "0"],
            env={**os.environ, **demo_stdio_env()},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errlog,
            start_new_session=True,
        )
        try:
            yield _read_demo_url(proc, startup_timeout, log)
        finally:
            stop_process(proc)


def _read_demo_url(proc: subprocess.Popen[bytes], timeout: float, log: Path) -> str:
    assert proc.stdout is not None
    stdout = proc.stdout
    first: list[bytes] = []
    got = threading.Event()

    def reader() -> None:
        first.append(stdout.readline())
        got.set()
        for _ in iter(lambda: stdout.read(65536), b""):
            pass  # drain: the child must never block writing to us

    threading.Thread(target=reader, name="demo-stdout", daemon=True).start()
    if not got.wait(timeout):
        raise ConnectionFailed(
            f"The demo server did not print its URL within {timeout:.0f} s; its stderr is in {log}."
        )
    line = first[0].decode("utf-8", "replace").strip()
    found = _URL_IN_LINE.search(line)
    if found is None:
        raise ConnectionFailed(
            f"The demo server stopped or printed no URL (first line: {line!r}); its stderr is "
            f"in {log}."
        )
    return found.group(0)


def stop_process(proc: subprocess.Popen[Any], grace: float = 3.0) -> None:
    """Terminate, wait ``grace`` seconds, then kill: no server process is left behind."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
