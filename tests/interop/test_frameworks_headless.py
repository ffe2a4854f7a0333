"""Servers written with FastMCP 4, ``mcp`` 1.x and 2.3, and the TypeScript SDK with zod 3 and 4,
answered by ``mcp-tui call`` in the default mode (issue 16).

Each server (``servers/``, described in ``framework_servers.py``) elicits with its framework's
documented API, validates what it gets itself and returns it, so every test asserts the exact
content the server accepted, and the exact answer that went over the wire (``--log``).

Installing the peers: the Python servers run in their own venvs, built by ``.ci/run`` from the
exact locks in ``venvs/`` with ``pip install --no-deps`` (see ``python_peers.py``: no resolver,
which also sidesteps FastMCP 4.1.6's ``certifi`` pin that the package index once could not
meet); the TypeScript servers use ``node_modules`` (``npm ci``; zod 3 is the npm alias ``zod3``
beside the SDK's zod 4). Missing peers skip locally and fail under CI. The servers run over
stdio: mcp-tui stops each one (stdin EOF, then signals) when the call ends.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Protocol

import pytest

from tests.cli_in_process import run_mcp_tui
from tests.interop.framework_servers import (
    ALL,
    FASTMCP4,
    FULL_ANSWER,
    MCP1,
    MCP2,
    Framework,
    server_report,
)
from tests.interop.interop_peers import REPO_ROOT
from tests.interop.tui_driver import answers_sent

pytestmark = pytest.mark.interop

#: A cold Python or node start on a busy 2-core CI box; only a hang waits this long.
TIMEOUT = 120


class Call(Protocol):
    def __call__(
        self, framework: Framework, tool: str, *options: str, answers: Any = None
    ) -> tuple[subprocess.CompletedProcess[str], Path]: ...


@pytest.fixture
def call(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Call:
    """``mcp-tui call TOOL [OPTIONS] --log LOG -- SERVER`` (the default mode unless OPTIONS has
    ``--mode``), from the repository root, in this process (``tests/cli_in_process.py``);
    returns the finished command and the traffic log."""
    monkeypatch.chdir(REPO_ROOT)

    def run(
        framework: Framework, tool: str, *options: str, answers: Any = None
    ) -> tuple[subprocess.CompletedProcess[str], Path]:
        log = tmp_path / f"{tool}.jsonl"
        argv = ["call", tool, *options, "--log", str(log), "--timeout", str(TIMEOUT)]
        if answers is not None:
            answers_file = tmp_path / f"{tool}-answers.json"
            answers_file.write_text(json.dumps(answers), encoding="utf-8")
            argv += ["--answers", str(answers_file)]
        return run_mcp_tui(capfd, [*argv, "--", *framework.command()]), log

    return run


def accepted(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """What the server says it accepted (the tool's text, the only thing on stdout)."""
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stderr[-3000:]}"
    return server_report(done.stdout.strip())


def sent(log: Path) -> list[dict[str, Any]]:
    return answers_sent(log)


@pytest.mark.parametrize("framework", ALL)
def test_a_filled_form_is_accepted_as_sent(framework: Framework, call: Call) -> None:
    done, log = call(
        framework, "sign_up", answers=[{"action": "accept", "content": framework.answer}]
    )
    report = accepted(done)
    assert sent(log) == [{"action": "accept", "content": framework.answer}]
    assert report == {"action": "accept", "data": framework.accepted}


@pytest.mark.parametrize("framework", ALL)
def test_defaults_alone_are_accepted(framework: Framework, call: Call) -> None:
    done, log = call(framework, "preferences", "--elicit", "accept-defaults")
    report = accepted(done)
    assert sent(log) == [{"action": "accept", "content": framework.sent_defaults}]
    assert report == {"action": "accept", "data": framework.defaults}


@pytest.mark.parametrize("framework", ALL)
def test_a_decline_reaches_the_server(framework: Framework, call: Call) -> None:
    """``--elicit decline``; the TUI tests cancel (Escape): each framework gets both once."""
    done, log = call(framework, "sign_up", "--elicit", "decline")
    assert accepted(done) == {"action": "decline"}
    assert sent(log) == [{"action": "decline"}]


@pytest.mark.parametrize(
    "framework", [pytest.param(MCP1, id=MCP1.id), pytest.param(MCP2, id=MCP2.id)]
)
def test_the_schema_pydantic_writes_is_accepted(framework: Framework, call: Call) -> None:
    """``Model.model_json_schema()`` sent as is: an enum class as ``$ref``/``$defs`` (also inside
    ``anyOf`` with null), an ``IntEnum``, ``Optional``/nullable as ``anyOf``, a free list."""
    done, log = call(
        framework, "sign_up_full", answers=[{"action": "accept", "content": FULL_ANSWER}]
    )
    report = accepted(done)
    assert sent(log) == [{"action": "accept", "content": FULL_ANSWER}]
    assert report == {"action": "accept", "data": FULL_ANSWER}


@pytest.mark.parametrize(
    ("framework", "mode"),
    [
        pytest.param(MCP2, None, id="mcp2-default-mode"),
        pytest.param(MCP2, "2026-07-28", id="mcp2-2026"),
        pytest.param(FASTMCP4, "2026-07-28", id="fastmcp4-2026"),
    ],
)
def test_the_2026_input_required_pattern(
    framework: Framework, mode: str | None, call: Call
) -> None:
    """The 2026-07-28 pattern: the tool returns an ``InputRequiredResult`` and reads the answer
    on the retry (mcp 2.3: ``Resolve``/``Elicit``, both eras; FastMCP: the guard pattern, which
    exists only on 2026-07-28, so it is called there)."""
    options = () if mode is None else ("--mode", mode)
    answer = [{"action": "accept", "content": framework.answer}]
    done, log = call(framework, "sign_up_2026", *options, answers=answer)
    report = accepted(done)
    assert sent(log) == [{"action": "accept", "content": framework.answer}]
    assert report == {"action": "accept", "data": framework.accepted}
