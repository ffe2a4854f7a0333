"""Start stdio servers before ``import mcp``, so their start-up overlaps ours.

Importing the SDK costs mcp-tui about half a second, and a Python MCP server spends about as long
importing the SDK itself before it answers ``initialize``. Spawning the server only once the SDK is
loaded (what ``stdio_client`` does) puts the two one after the other. This module has no ``mcp``
import: the app spawns each stdio server right after its first frame, then imports the connection
code while the server starts, and the connection adopts the running process
(:meth:`HeadStart.adopt`) instead of spawning its own.

The process is started exactly as the SDK's ``stdio_client`` starts it on POSIX (its
``_create_platform_compatible_process``: ``anyio.open_process`` of ``[command, *args]`` in a new
session, stderr to our pipe, the SDK's small default environment — or the caller's whole one, for
a server that inherits it — with the server's own variables over it).
``tests/session/test_head_start.py`` compares the two, so an SDK change fails loudly. On Windows
(a Job Object in the SDK) there is no head start: the connection spawns as before.

A head start that is never adopted (the connection code failed to load, the user quit first) is
discarded: its process group is terminated, then killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path

import anyio
import anyio.abc

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.session.events import EventSink, SessionEvent
from mcp_tui.session.stderr import StderrCapture

#: The variables the SDK passes on to a stdio server by default on POSIX
#: (``mcp.client.stdio.DEFAULT_INHERITED_ENV_VARS``; a test keeps the two equal).
INHERITED_ENV_VARS = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
#: How long a discarded server gets after SIGTERM before SIGKILL (it never got a message).
DISCARD_GRACE = 1.0


def default_environment() -> dict[str, str]:
    """The SDK's ``get_default_environment()`` on POSIX: a few variables, never shell functions."""
    env: dict[str, str] = {}
    for key in INHERITED_ENV_VARS:
        value = os.environ.get(key)
        if value is not None and not value.startswith("()"):
            env[key] = value
    return env


def inherited_environment() -> dict[str, str]:
    """The caller's whole environment, as a shell passes it on to a command it starts; exported
    shell functions (values starting ``()``) are dropped, as the SDK drops them."""
    return {k: v for k, v in os.environ.items() if not v.startswith("()")}


def server_environment(target: StdioTarget) -> dict[str, str]:
    """The server's environment: the base (the SDK's defaults, or everything with
    ``inherit_env``), the spec's own variables over it. The SDK spawns with its defaults and the
    variables it is handed over them, so handing it this gives the same (``transports.py``)."""
    base = inherited_environment() if target.inherit_env else default_environment()
    return base | dict(target.env)


class HeadStart:
    """A stdio server process started early, with its stderr pipe, waiting for its connection."""

    def __init__(
        self, process: anyio.abc.Process, stderr: StderrCapture, held: list[SessionEvent]
    ) -> None:
        self.process = process
        self.stderr = stderr
        #: What the capture reported before adoption (a stderr log that cannot be opened).
        self._held = held
        self.adopted = False
        self.discarded = False

    def adopt(self, sink: EventSink) -> tuple[anyio.abc.Process, StderrCapture]:
        """Hand the process and its stderr capture to a connection; events held so far go to
        ``sink`` first, in order."""
        if self.adopted or self.discarded:
            raise RuntimeError("this head start was already adopted or discarded")
        self.adopted = True
        self.stderr.redirect(sink)
        for event in self._held:
            sink(event)
        self._held.clear()
        return self.process, self.stderr

    async def discard(self) -> None:
        """Stop a process no connection adopted (idempotent; a no-op once adopted)."""
        if self.adopted or self.discarded:
            return
        self.discarded = True
        with anyio.CancelScope(shield=True):
            if self.process.stdin is not None:
                with contextlib.suppress(Exception):
                    await self.process.stdin.aclose()
            _signal_group(self.process.pid, signal.SIGTERM)
            with anyio.move_on_after(DISCARD_GRACE):
                await self.process.wait()
            if self.process.returncode is None:
                _signal_group(self.process.pid, signal.SIGKILL)
                with anyio.move_on_after(DISCARD_GRACE):
                    await self.process.wait()
            with contextlib.suppress(Exception):
                await self.process.aclose()
            self.stderr.finish()


def _signal_group(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signum)


async def start_stdio(spec: ServerSpec, stderr_log: Path | None) -> HeadStart | None:
    """Spawn ``spec``'s stdio server now; ``None`` when there is nothing to start early.

    ``None`` for HTTP servers, on Windows, and when spawning fails: the connection then spawns
    the server itself and reports the failure in its usual words.
    """
    target = spec.target
    if not isinstance(target, StdioTarget) or sys.platform == "win32":
        return None
    held: list[SessionEvent] = []
    capture = StderrCapture(spec.name, held.append, stderr_log)
    try:
        errlog = capture.open()
        process = await anyio.open_process(
            [target.command, *target.args],
            env=server_environment(target),
            stderr=errlog,
            cwd=target.cwd,
            start_new_session=True,
        )
    except Exception:
        capture.finish()
        return None
    return HeadStart(process, capture, held)
