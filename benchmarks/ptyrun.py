"""Run a program in a pseudo-terminal and time what it paints, as a person's terminal would see it.

The program gets a real terminal (a pty of a fixed size, ``TERM=xterm-256color``) on stdin, stdout
and stderr, in its own session. :meth:`PtyProcess.wait_for` reads its output until some text
appears and returns when it was read: "first frame" is the moment the marker text reached the
terminal, measured the same way for every program.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence


def _controlling_tty() -> None:  # runs in the child, after setsid
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyProcess:
    """One child process on a pty; the parent reads everything it writes."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        columns: int = 120,
        rows: int = 40,
    ) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        child_env = dict(os.environ if env is None else env)
        child_env["TERM"] = "xterm-256color"
        child_env.pop("COLUMNS", None)
        child_env.pop("LINES", None)
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=child_env,
            cwd=cwd,
            start_new_session=True,
            preexec_fn=_controlling_tty,
            close_fds=True,
        )
        os.close(slave)
        self.fd = master
        self.output = bytearray()
        self.keep = True
        self.tail = b""
        self.eof = False

    def _read(self, timeout: float) -> bool:
        """Read what is there (waiting up to ``timeout``); False once the child closed the pty."""
        if self.eof:
            return False
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return True
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:  # EIO: every slave end is closed
            data = b""
        if not data:
            self.eof = True
            return False
        if self.keep:
            self.output += data
        else:
            self.tail = (self.tail + data)[-4096:]
        return True

    def wait_for(self, needle: bytes, timeout: float = 60.0, start: int = 0) -> float:
        """Read until ``needle`` appears at or after offset ``start``; the time it was read."""
        deadline = time.perf_counter() + timeout
        scanned = start
        while True:
            found = self.output.find(needle, max(start, scanned - len(needle)))
            if found != -1:
                return time.perf_counter()
            scanned = len(self.output)
            left = deadline - time.perf_counter()
            if left <= 0 or not self._read(min(left, 0.05)):
                if self.output.find(needle, start) != -1:
                    return time.perf_counter()
                tail = bytes(self.output[-600:])
                raise TimeoutError(f"{needle!r} not seen; exit={self.proc.poll()}; tail={tail!r}")

    def send(self, data: bytes) -> float:
        started = time.perf_counter()
        os.write(self.fd, data)
        return started

    def drain_until_exit(self, timeout: float) -> int | None:
        """Discard output until the child exits (or ``timeout``); its exit code, or None."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if self.proc.poll() is not None and not self._read(0.05):
                break
            self._read(0.05)
        return self.proc.poll()

    def close(self, quit_keys: bytes | None = None, grace: float = 5.0) -> None:
        """Quit politely with ``quit_keys`` (draining output meanwhile), then end the session."""
        if quit_keys is not None and self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.send(quit_keys)
            self.drain_until_exit(grace)
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.fd)
