"""The Python servers' virtualenvs: one per framework, each from an exact lock in ``venvs/``.

The framework servers (``servers/``) run under the framework they were written with, not under
mcp-tui's own environment: FastMCP 4 and the ``mcp`` SDK 1.x pin versions of ``mcp`` and
pydantic that differ from ours, and ``mcp`` 2.3 gets its own too so that every lock is complete
and exact. Each venv lives in ``tests/interop/.venvs/NAME`` (ignored by git) and is built from
``venvs/NAME.txt``, a full ``pip freeze``, with ``pip install --no-deps``: exactly those
versions, no resolver. (That is also the workaround for FastMCP 4.1.6 once pinning a newer
``certifi`` than the package index served: with every package pinned, nothing is resolved.)

``.ci/run`` runs ``python tests/interop/python_peers.py``, which builds each venv that is missing
or whose lock changed (a stamp holds the lock's hash); pip's cache makes a rebuild cheap. Tests
call ``require_python_peer``: a missing venv skips the test locally and fails it under CI.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.interop.interop_peers import INTEROP_DIR, in_ci

LOCKS = INTEROP_DIR / "venvs"
VENVS = INTEROP_DIR / ".venvs"
STAMP = "mcp-tui-lock.sha256"

#: name -> what it is (for messages and the README's table)
PEERS = {
    "fastmcp4": "FastMCP 4.1.6",
    "mcp1": "mcp (Python SDK) 1.30.0",
    "mcp2": "mcp (Python SDK) 2.3.0",
    "fastmcp4tasks": "FastMCP 4.1.4 with fastmcp-tasks 4.1.4 (the 2026-07-28 tasks extension)",
}


def lock_of(name: str) -> Path:
    return LOCKS / f"{name}.txt"


def python_of(name: str) -> Path:
    return VENVS / name / "bin" / "python"


def _digest(name: str) -> str:
    return hashlib.sha256(lock_of(name).read_bytes()).hexdigest()


def is_current(name: str) -> bool:
    """The venv exists and was built from the lock as it is now."""
    stamp = VENVS / name / STAMP
    return python_of(name).exists() and stamp.exists() and stamp.read_text() == _digest(name)


def require_python_peer(name: str) -> Path:
    """The venv's python; skips (locally) or fails (CI) when it is missing or stale."""
    if is_current(name):
        return python_of(name)
    message = (
        f"the {PEERS[name]} venv is missing or older than venvs/{name}.txt: "
        "run `python tests/interop/python_peers.py`"
    )
    if in_ci():
        pytest.fail(f"CI=true but {message}", pytrace=False)
    pytest.skip(message)


def install(name: str) -> None:
    """(Re)build one venv from its lock.

    The venv gets no pip of its own (``ensurepip`` costs seconds per venv): this interpreter's
    pip installs into it (``pip --python``). ``--no-compile``: a server compiles only the
    modules it imports, on its first start.
    """
    target = VENVS / name
    venv.EnvBuilder(clear=True, with_pip=False).create(target)
    pip = [sys.executable, "-m", "pip", "--python", str(python_of(name))]
    options = ["install", "--quiet", "--no-deps", "--no-compile", "-r", str(lock_of(name))]
    subprocess.run([*pip, *options], check=True)
    (target / STAMP).write_text(_digest(name))


def main() -> int:
    for name in PEERS:
        if is_current(name):
            print(f"{name}: up to date ({PEERS[name]})")
            continue
        print(f"{name}: installing {PEERS[name]} from venvs/{name}.txt", flush=True)
        install(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
