"""``mcp-tui check`` on GitHub Actions (``GITHUB_ACTIONS=true``, or ``--github``): the values
``--run``'s files took from the environment masked (``::add-mask::``, as ``mcp-tui test`` does),
workflow commands paused while the report prints what servers sent, then one annotation per
finding (``::error`` / ``::warning``) and per breaking change since ``--baseline``, the latter at
the line of the baseline file that holds what changed (the tool, the argument, the form), so the
run's page says which entry of the committed file a change broke.

The pause and the escaping are ``mcp-tui test``'s (``testbench/github.py``): a random token
stops command processing while the report prints, and every annotation is one line, the server's
text shown with its control characters escaped and then escaped by the runner's rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from mcp_tui.check.baseline import line_of
from mcp_tui.check.change_rules import CHANGE_RULES
from mcp_tui.check.report import CheckReport
from mcp_tui.headless.check_baseline import BaselineGate
from mcp_tui.testbench.github import (
    ANNOTATION_LIMIT,
    CommandPause,
    escape_data,
    escape_property,
    mask_lines,
    repository_path,
    workflow_command,
)
from mcp_tui.untrusted import visible


@dataclass
class CheckGithub:
    #: The repository's root (``GITHUB_WORKSPACE``): annotation paths are relative to it.
    workspace: Path
    pause: CommandPause = field(default_factory=CommandPause)
    _out: TextIO | None = None

    def start(self, out: TextIO, masks: Iterable[str] = ()) -> None:
        """Before anything is printed: mask ``masks`` (what ``--run``'s files took from the
        environment), then commands off on ``out``."""
        self._out = out
        for line in mask_lines(masks):
            print(line, file=out)
        print(self.pause.stop, file=out, flush=True)

    def resume(self) -> None:
        """Commands back on (once; nothing if the run never started)."""
        if self._out is not None:
            print(self.pause.resume, file=self._out, flush=True)
            self._out = None

    def finish(self, report: CheckReport, gate: BaselineGate | None) -> None:
        """After the report: commands on, then the annotations."""
        out = self._out
        self.resume()
        if out is not None:
            for line in annotation_lines(report, gate, self.workspace):
                print(line, file=out)
            out.flush()


def annotation_lines(report: CheckReport, gate: BaselineGate | None, workspace: Path) -> list[str]:
    """One ``::error``/``::warning`` per error or warning finding (a server has no file: no
    line), and one ``::error`` per breaking change, at its line of the baseline file."""
    lines: list[str] = []
    for f in report.findings:
        if f.severity == "info":
            continue
        at = f" {f.pointer}" if f.pointer else ""
        said = f"{f.server}: {f.where}{at}: {f.message} (fix: {f.fix})"
        message = visible(said, limit=ANNOTATION_LIMIT)
        title = escape_property(f"mcp-tui check {f.rule}")
        lines.append(f"::{f.severity} title={title}::{escape_data(message)}")
    baseline = report.baseline
    if gate is None or baseline is None or baseline.updated:
        return lines
    file = repository_path(gate.path, workspace)
    servers = list((gate.data or {}).keys())
    for c in baseline.changes:
        if c.level != "breaking":
            continue
        server = servers[0] if len(servers) == 1 else c.server
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in c.pointer.split("/")[1:]]
        era = c.eras[0] if c.eras else ""
        line = line_of(gate.text, ["servers", server, era, *c.at, *tokens]) if gate.text else None
        rule = CHANGE_RULES[c.rule]
        at = f" {c.pointer}" if c.pointer else ""
        said = f"{c.where}{at} [{', '.join(c.eras)}]: {c.message} (why: {rule.why})"
        message = visible(said, limit=ANNOTATION_LIMIT)
        title = f"mcp-tui check {c.rule} {rule.name}"
        lines.append(workflow_command("error", message, file=file, line=line, title=title))
    return lines
