"""Helpers for the hostile-server tests: a scripted stdio server, the real app, and checks.

The server is ``tests/fixtures/raw_server.py`` driven by a JSON script (see its docstring): each
test writes the script it needs, starts the real :class:`~mcp_tui.ui.app.McpTuiApp` on it through
the real ``ServerConnection``, and asserts what the user sees *and* that the app still answers
keys. The server process carries a random marker in its environment so a test can prove that no
process outlives the app.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RAW_SERVER = ROOT / "tests" / "fixtures" / "raw_server.py"

from mcp_tui.config.options import AppOptions  # noqa: E402
from mcp_tui.config.servers import ServerSpec, StdioTarget  # noqa: E402
from mcp_tui.session.events import ConnectionState  # noqa: E402
from mcp_tui.ui.app import McpTuiApp  # noqa: E402
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen  # noqa: E402
from mcp_tui.ui.screens.session import SessionScreen  # noqa: E402
from tests.proc_kit import processes_with  # noqa: E402
from tests.ui.app_testkit import (  # type: ignore[import-not-found]  # noqa: E402
    SENTINEL,
    guard_markup,
    session_of,
    transcript_text,
    wait_for,
)

__all__ = [
    "RAW_CONTROLS",
    "SENTINEL",
    "HostileServer",
    "assert_answers_keys",
    "assert_no_raw_controls",
    "guard_markup",
    "hostile",
    "processes_with",
    "session_of",
    "transcript_text",
    "wait_for",
]

#: Characters that must never reach the terminal from server text.
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\x85", "\u202e", "\u200b", "\u2066")


def hostile(tag: str) -> str:
    """Server text that tries everything: markup, actions, links, ESC/OSC/CSI/C1, bidi, ZW.

    ``tag`` names where the text was put, so a test can tell which string it sees.
    """
    return (
        f"{SENTINEL}{tag} [bold]b[/] [@click=app.quit]q[/] [/] [link='https://evil.example']l"
        "[/link] \x1b]0;pwned\x07 \x1b]52;c;aGk=\x07 \x1b]8;;https://evil.example\x1b\\x\x1b]8;;"
        "\x1b\\ \x1b[31mred \x9b2J \x85 \u202eevil\u202c \u2066iso\u2069 z\u200bw end"
    )


def assert_no_raw_controls(text: str) -> None:
    for control in RAW_CONTROLS:
        assert control not in text, f"raw {control!r} reached the screen"


@dataclass
class HostileServer:
    """One scripted ``raw_server.py`` process per test (see its docstring for the script)."""

    directory: Path
    script: dict[str, Any] = field(default_factory=dict)
    name: str = "evil"
    marker: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def record_path(self) -> Path:
        return self.directory / f"{self.name}.received.jsonl"

    def spec(self, *flags: str) -> ServerSpec:
        script = self.directory / f"{self.name}.script.json"
        script.write_text(json.dumps(self.script), encoding="utf-8")
        args = (str(RAW_SERVER), "--script", str(script), "--record", str(self.record_path))
        env = {"MCP_TUI_TEST_MARKER": self.marker}
        return ServerSpec(self.name, StdioTarget(sys.executable, (*args, *flags), env=env))

    def app(self, *flags: str, options: AppOptions | None = None) -> McpTuiApp:
        options = options or AppOptions(stderr_log=self.directory / f"{self.name}.stderr.log")
        return McpTuiApp([self.spec(*flags)], options)

    def received(self) -> list[dict[str, Any]]:
        """Every message the server got from mcp-tui so far, in order."""
        if not self.record_path.exists():
            return []
        out = []
        # split("\n"), not splitlines(): U+0085 and U+2028 inside JSON strings are not line ends.
        for line in self.record_path.read_text(encoding="utf-8").split("\n"):
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out

    def responses(self) -> dict[Any, list[dict[str, Any]]]:
        """mcp-tui's responses to the server's requests, by request id (a list: ids may repeat)."""
        found: dict[Any, list[dict[str, Any]]] = {}
        for message in self.received():
            if "method" not in message and "id" in message:
                found.setdefault(message["id"], []).append(message)
        return found

    def alive(self) -> list[int]:
        return processes_with(self.marker)


async def ready(pilot: Pilot[None], app: McpTuiApp, server: str = "evil") -> None:
    await wait_for(pilot, lambda: app.entries[server].state is ConnectionState.READY, 90)


async def assert_answers_keys(pilot: Pilot[None], app: McpTuiApp) -> None:
    """A key press changes something the user can see, within a few frames.

    On the session screen ``l`` toggles the log panel; in a form, a letter typed into the focused
    input appears in it. The wait is counted in short pauses, not timed: a stalled loop fails it
    by never changing, not by being slow on a busy machine.
    """
    screen = app.screen
    if isinstance(screen, SessionScreen):
        before = screen.areas.logs.display
        await pilot.press("l")
        await wait_for(pilot, lambda: screen.areas.logs.display != before, 10)
        await pilot.press("l")
        await wait_for(pilot, lambda: screen.areas.logs.display == before, 10)
        return
    if isinstance(screen, ElicitationScreen):
        focused = app.focused
        if isinstance(focused, Input):
            before_value = focused.value
            await pilot.press("z")
            await wait_for(pilot, lambda: focused.value != before_value, 10)
            await pilot.press("backspace")
            await wait_for(pilot, lambda: focused.value == before_value, 10)
            return
        await pilot.press("tab")
        await wait_for(pilot, lambda: app.focused is not focused, 10)
        return
    raise AssertionError(f"no key check for {type(screen).__name__}")


def done(predicate: Callable[[], bool]) -> Callable[[], bool]:
    """A condition that swallows lookup errors while the screen is still building."""

    def check() -> bool:
        try:
            return predicate()
        except Exception:
            return False

    return check
