"""Fixtures for the URL tests: a recording stand-in for the browser, pointed at by ``$BROWSER``.

The recorder is a small Python script written into the test's temporary directory; each run
appends its arguments (one JSON list per line) to a log, so a test can prove exactly what was
opened, and that nothing was.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Recorder:
    """An executable that records its argv; ``calls()`` lists every invocation's arguments."""

    script: Path
    log: Path

    def calls(self) -> list[list[str]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text("utf-8").splitlines()]


def write_recorder(directory: Path, name: str, *, body: str = "") -> Recorder:
    """Write an executable called ``name`` that records its arguments, then runs ``body``."""
    log = directory / f"{name}.calls.jsonl"
    script = directory / name
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"with open({str(log)!r}, 'a', encoding='utf-8') as f:\n"
        "    f.write(json.dumps(sys.argv[1:]) + '\\n')\n" + body,
        encoding="utf-8",
    )
    script.chmod(0o755)
    return Recorder(script, log)


MakeRecorder = Callable[..., Recorder]


@pytest.fixture
def make_recorder(tmp_path: Path) -> MakeRecorder:
    """``make_recorder(name, body="")``: another recorder in this test's directory."""
    return functools.partial(write_recorder, tmp_path)


@pytest.fixture
def recorder(tmp_path: Path) -> Recorder:
    return write_recorder(tmp_path, "record-browser")


@pytest.fixture
def browser_env(recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> Recorder:
    """``$BROWSER`` is the recorder and there is no display: nothing real can ever be opened."""
    monkeypatch.setenv("BROWSER", str(recorder.script))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return recorder
