"""The framework servers of ``servers/`` and what each must receive and accept (issue 16).

Each server is written with one framework's documented elicitation API and answers every tool
with the JSON of what its own validation accepted: ``{"action": ..., "data": {...}}``. The
tables here say, per framework, which answer a test gives (``answer``, the same content for the
answers file and for the TUI) and what the server must then report (``accepted``), and the
defaults its ``preferences`` tool must accept unchanged (``defaults``). Models differ because the
frameworks do: each one's model has every field kind its elicitation API lets through (see the
server's docstring for what it refuses).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mcp_tui.config.servers import ServerSpec, StdioTarget
from tests.interop.interop_peers import LOOPBACK_PRELOAD, NODE, require_peers
from tests.interop.python_peers import require_python_peer

SERVERS_DIR = Path(__file__).resolve().parent / "servers"

ADA = {"name": "Ada Lovelace", "email": "ada@example.com"}

#: What every pydantic "full" model (``sign_up_full``: the schema pydantic writes, $defs and all)
#: gets and accepts.
FULL_ANSWER: dict[str, Any] = {
    **ADA,
    "birthday": "1815-12-10",
    "nickname": "Ada",
    "age": 36,
    "color": "green",
    "favourite": "red",
    "priority": 3,
    "tags": ["math", "engines"],
    "newsletter": False,
}


@dataclass(frozen=True)
class Framework:
    """One server: how to start it and what its ``sign_up``/``preferences`` must accept."""

    id: str
    label: str
    script: str
    answer: dict[str, Any]
    #: ``sign_up``'s accepted data: the answer plus the model's defaults for what was left out
    accepted: dict[str, Any]
    #: the content ``--elicit accept-defaults`` (or an untouched form) sends for ``preferences``
    sent_defaults: dict[str, Any]
    #: ``preferences``' accepted data
    defaults: dict[str, Any]
    venv: str | None = None  # a Python server's venv (python_peers); None: a node server
    tools: tuple[str, ...] = field(default=("sign_up", "preferences"))

    def command(self) -> list[str]:
        """Start it (skips locally, fails under CI, when its peer is not installed)."""
        script = str(SERVERS_DIR / self.script)
        if self.venv is None:
            require_peers()
            return [str(NODE), "-r", str(LOOPBACK_PRELOAD), script]
        return [str(require_python_peer(self.venv)), script]

    def spec(self) -> ServerSpec:
        command = self.command()
        return ServerSpec(name=self.id, target=StdioTarget(command[0], tuple(command[1:])))

    def __str__(self) -> str:
        return self.id


FASTMCP4 = Framework(
    id="fastmcp4",
    label="FastMCP 4.1.6",
    script="fastmcp4_server.py",
    venv="fastmcp4",
    answer={
        **ADA,
        "birthday": "1815-12-10",
        "color": "green",
        "priority": 3,
        "interests": ["math", "engines"],
        "newsletter": False,
    },
    accepted={
        **ADA,
        "birthday": "1815-12-10",
        "color": "green",
        "priority": 3,
        "interests": ["math", "engines"],
        "newsletter": False,
    },
    sent_defaults={"color": "blue", "priority": 2, "newsletter": True},
    defaults={"color": "blue", "priority": 2, "newsletter": True},
    tools=("sign_up", "preferences", "sign_up_2026"),
)

MCP1 = Framework(
    id="mcp1",
    label="mcp 1.30.0",
    script="mcp1_server.py",
    venv="mcp1",
    answer={**ADA, "nickname": "Ada", "age": 36, "tags": ["math", "engines"], "newsletter": False},
    accepted={
        **ADA,
        "nickname": "Ada",
        "age": 36,
        "tags": ["math", "engines"],
        "newsletter": False,
    },
    sent_defaults={"tags": ["mcp"], "newsletter": True},
    defaults={"nickname": None, "tags": ["mcp"], "newsletter": True},
    tools=("sign_up", "preferences", "sign_up_full"),
)

MCP2 = Framework(
    id="mcp2",
    label="mcp 2.3.0",
    script="mcp2_server.py",
    venv="mcp2",
    answer={
        **ADA,
        "birthday": "1815-12-10",
        "nickname": "Ada",
        "age": 36,
        "color": "green",
        "interests": ["math", "engines"],
        "newsletter": False,
    },
    accepted={
        **ADA,
        "birthday": "1815-12-10",
        "nickname": "Ada",
        "age": 36,
        "color": "green",
        "interests": ["math", "engines"],
        "newsletter": False,
    },
    sent_defaults={"color": "blue", "newsletter": True},
    defaults={"nickname": None, "color": "blue", "newsletter": True},
    tools=("sign_up", "preferences", "sign_up_full", "sign_up_2026"),
)

_ZOD_ANSWER: dict[str, Any] = {
    **ADA,
    "birthday": "1815-12-10",
    "nickname": "Ada",
    "age": 36,
    "team": "Analytical",
    "color": "green",
    "priority": 3,
    "tags": ["math", "engines"],
    "newsletter": False,
}
_ZOD_DEFAULTS: dict[str, Any] = {
    "color": "blue",
    "priority": 2,
    "tags": ["mcp"],
    "newsletter": True,
}

ZOD3 = Framework(
    id="ts-zod3",
    label="TypeScript SDK 1.32.2 + zod 3.25.76",
    script="zod3_server.mjs",
    answer=_ZOD_ANSWER,
    accepted=_ZOD_ANSWER,
    sent_defaults=_ZOD_DEFAULTS,
    defaults=_ZOD_DEFAULTS,
)

ZOD4 = Framework(
    id="ts-zod4",
    label="TypeScript SDK 1.32.2 + zod 4.6.7",
    script="zod4_server.mjs",
    answer=_ZOD_ANSWER,
    accepted=_ZOD_ANSWER,
    sent_defaults=_ZOD_DEFAULTS,
    defaults=_ZOD_DEFAULTS,
)

FRAMEWORKS = (FASTMCP4, MCP1, MCP2, ZOD3, ZOD4)
#: parametrize over these: one test id per framework
ALL = [pytest.param(f, id=f.id) for f in FRAMEWORKS]


def server_report(text: str) -> dict[str, Any]:
    """The server's ``{"action": ..., "data": ...}``: what its own validation accepted."""
    try:
        report: dict[str, Any] = json.loads(text)
    except json.JSONDecodeError:
        raise AssertionError(f"the server did not accept the answer: {text!r}") from None
    return report
