"""What GitHub Actions' runner makes of a step's output: the workflow commands it would carry out.

Written from the runner's own rules (``src/Runner.Common/ActionCommand.cs`` and
``src/Runner.Worker/ActionCommandManager.cs``), so the tests read mcp-tui's output as the runner
does, not as mcp-tui means it:

- the output is cut into lines as .NET's ``ReadLine`` cuts it (``\\n``, ``\\r``, ``\\r\\n``);
- ``TryParseV2``: a line that starts with ``::`` once its leading whitespace is trimmed is
  ``::command prop=value,...::data``;
- ``TryParse`` (the legacy form, tried when V2 does not parse): ``##[command prop=value;...]data``
  *anywhere* in a line, for a registered command;
- ``stop-commands``: after ``::stop-commands::TOKEN`` every command is ignored until ``TOKEN``
  comes as a command.

Not a test module: ``tests/testbench/test_github.py`` and ``tests/cli/test_runtests_github.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: The runner's command extensions, plus ``stop-commands``.
REGISTERED = frozenset(
    {
        "set-env", "set-output", "save-state", "add-mask", "add-path", "add-matcher",
        "remove-matcher", "debug", "warning", "error", "notice", "group", "endgroup", "echo",
        "stop-commands",
    }
)  # fmt: skip

_DATA = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
_PROPERTY = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))
_LEGACY = (("%3B", ";"), ("%0D", "\r"), ("%0A", "\n"), ("%5D", "]"), ("%25", "%"))


@dataclass
class Command:
    name: str
    properties: dict[str, str]
    data: str
    line: str


def _unescape(text: str, mappings: tuple[tuple[str, str], ...]) -> str:
    for token, replacement in mappings:
        text = text.replace(token, replacement)
    return text


def runner_lines(output: str) -> list[str]:
    """``output`` cut into lines as the runner reads a process's stream."""
    return re.split(r"\r\n|\r|\n", output)


def parse_v2(line: str, registered: frozenset[str]) -> Command | None:
    message = line.lstrip()
    if not message.startswith("::"):
        return None
    end = message.find("::", 2)
    if end < 0:
        return None
    info = message[2:end]
    name, _, props = info.partition(" ")
    if name not in registered:
        return None
    properties: dict[str, str] = {}
    for prop in filter(None, props.split(",")):
        key, eq, value = prop.partition("=")
        if eq and value:
            properties[key] = _unescape(value, _PROPERTY)
    return Command(name, properties, _unescape(message[end + 2 :], _DATA), line)


def parse_v1(line: str, registered: frozenset[str]) -> Command | None:
    start = line.find("##[")
    if start < 0:
        return None
    close = line.find("]", start)
    if close < 0:
        return None
    info = line[start + 3 : close]
    name, _, props = info.partition(" ")
    if name not in registered:
        return None
    properties: dict[str, str] = {}
    for prop in filter(None, props.split(";")):
        key, eq, value = prop.partition("=")
        if eq and value:
            properties[key] = _unescape(value, _LEGACY)
    return Command(name, properties, _unescape(line[close + 1 :], _LEGACY), line)


@dataclass
class Runner:
    """Feeds lines through the command manager; :attr:`commands` are those carried out."""

    commands: list[Command] = field(default_factory=list)
    registered: set[str] = field(default_factory=lambda: set(REGISTERED))
    stop_token: str | None = None

    def feed(self, output: str) -> Runner:
        for line in runner_lines(output):
            self._line(line)
        return self

    def _line(self, line: str) -> None:
        known = frozenset(self.registered)
        command = parse_v2(line, known) or parse_v1(line, known)
        if command is None:
            return
        if self.stop_token is not None:
            if command.name == self.stop_token:
                self.registered.discard(self.stop_token)
                self.stop_token = None
                self.commands.append(command)
            return
        if command.name == "stop-commands":
            self.stop_token = command.data
            self.registered.add(command.data)
        self.commands.append(command)

    def named(self, name: str) -> list[Command]:
        return [c for c in self.commands if c.name == name]
