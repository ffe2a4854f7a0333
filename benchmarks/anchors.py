"""The Python anchors: other terminal MCP clients from PyPI, each in its own virtualenv.

They are installed on first use into a cache directory outside the repository
(``$MCP_TUI_BENCH_CACHE``, default ``~/.cache/mcp-tui-bench``), with pinned versions so runs compare
like with like. fast-agent needs Python >= 3.13: the interpreter is ``$MCP_TUI_BENCH_PYTHON``, else
``python3.13`` on PATH, else a pyenv 3.13. If an anchor cannot be installed, ``ensure`` says why and
the table shows that instead of numbers.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from measure import PYTHON, SERVER


@dataclass(frozen=True)
class Anchor:
    name: str
    package: str
    executable: str


ANCHORS = (
    Anchor("fast-agent", "fast-agent-mcp==0.10.46", "fast-agent"),
    Anchor("mcp-cli", "mcp-cli==0.20.1", "mcp-cli"),
)


def cache_dir() -> Path:
    base = os.environ.get("MCP_TUI_BENCH_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "mcp-tui-bench"


def interpreter() -> str | None:
    for candidate in (os.environ.get("MCP_TUI_BENCH_PYTHON"), shutil.which("python3.13")):
        if candidate and _works(candidate):
            return candidate
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    for found in sorted(glob.glob(str(pyenv / "versions" / "3.13*" / "bin" / "python3.13"))):
        if _works(found):
            return found
    return None


def _works(python: str) -> bool:
    try:
        done = subprocess.run([python, "-c", "pass"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def ensure(anchor: Anchor, *, install: bool = True) -> Path | str:
    """The anchor's executable, installing it first if needed; or why it is not available."""
    venv = cache_dir() / "anchors" / anchor.name
    executable = venv / "bin" / anchor.executable
    stamp = venv / "installed.txt"
    if executable.exists() and stamp.exists() and stamp.read_text().strip() == anchor.package:
        return executable
    if not install:
        return f"not installed (run without --no-install to put it in {venv.parent})"
    python = interpreter()
    if python is None:
        return "no Python 3.13 found (set MCP_TUI_BENCH_PYTHON)"
    print(f"  installing {anchor.package} into {venv} ...", flush=True)
    try:
        subprocess.run([python, "-m", "venv", "--clear", str(venv)], check=True, timeout=300)
        done = subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", anchor.package],
            capture_output=True,
            timeout=1800,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"could not create its virtualenv: {error}"
    if done.returncode != 0 or not executable.exists():
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        return "pip install failed: " + " / ".join(tail)
    stamp.write_text(anchor.package)
    return executable


def mcp_cli_config() -> Path:
    path = cache_dir() / "mcp-cli-bench.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    config = {"mcpServers": {"bench": {"command": PYTHON, "args": [SERVER]}}}
    path.write_text(json.dumps(config))
    return path


def connect_argv(anchor: Anchor, executable: Path) -> list[str]:
    """Connect to the bench server, list its tools (and, for fast-agent, call one), exit."""
    if anchor.name == "mcp-cli":
        config = str(mcp_cli_config())
        return [str(executable), "tools", "--config-file", config, "--server", "bench"]
    return [
        str(executable),
        "--no-update-check",
        "go",
        "--isolated",
        "--model",
        "passthrough",
        "--stdio",
        f"{PYTHON} {SERVER}",
        "--message",
        "***CALL_TOOL bench_ready_marker {}",
    ]
