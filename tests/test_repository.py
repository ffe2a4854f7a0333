"""What must never be committed: the interop peers (installed by ``.ci/run``), and symlinks.

A worktree that links ``tests/interop/node_modules`` to another checkout's peers once committed
the links; merged, they replaced a checkout's real peers with links to themselves. ``git
ls-files`` shows what a clone would get.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_no_symlink_and_no_installed_peers_are_committed() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    links = [line.split("\t", 1)[1] for line in listed if line.startswith("120000 ")]
    assert links == [], f"symlinks are committed: {links}"
    peers = [
        line.split("\t", 1)[1]
        for line in listed
        if "/node_modules/" in f"/{line.split(chr(9), 1)[1]}/" or "/.venvs/" in line
    ]
    assert peers == [], f"installed peers are committed: {peers[:5]}"
