"""``mcp-tui test --github`` (on by itself where ``GITHUB_ACTIONS=true``): the run's GitHub
output in the order the runner needs it.

1. ``::add-mask::`` for each value the run took from the environment (GitHub then hides it in
   the rest of the job's log, as it does for ``secrets.*``), then ``::stop-commands::TOKEN``:
   nothing printed while the cases run (a server's text included) is read as a command;
2. after the run: ``::TOKEN::`` (commands back on), one ``::error`` per failed expectation
   (``github.py``), and the Markdown summary appended to ``$GITHUB_STEP_SUMMARY``
   (``step_summary.py``).

:meth:`GithubReport.resume` runs however the run ends (``cli/runtests.py``), so a step that goes
on after mcp-tui has its commands back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from mcp_tui.testbench.github import CommandPause, annotation_lines, mask_lines
from mcp_tui.testbench.result import CaseResult
from mcp_tui.testbench.step_summary import append_step_summary, summary_markdown


@dataclass
class GithubReport:
    #: The repository's root (``GITHUB_WORKSPACE``, else the current folder): annotation paths
    #: are relative to it.
    workspace: Path
    #: ``$GITHUB_STEP_SUMMARY``; ``None``: no summary (``--github`` off Actions).
    summary_file: Path | None = None
    pause: CommandPause = field(default_factory=CommandPause)
    _out: TextIO | None = None

    def start(self, out: TextIO, masks: Iterable[str] = ()) -> None:
        """Before the run prints anything: mask ``masks``, then pause commands on ``out``."""
        self._out = out
        for line in mask_lines(masks):
            print(line, file=out)
        print(self.pause.stop, file=out, flush=True)

    def resume(self) -> None:
        """Commands back on (once; nothing if the run never started)."""
        if self._out is not None:
            print(self.pause.resume, file=self._out, flush=True)
            self._out = None

    def finish(
        self, results: Sequence[CaseResult], seconds: float, err: TextIO, extra: str = ""
    ) -> None:
        """After the run's reports: commands on, the annotations, the job summary (and
        ``extra`` Markdown after it: the coverage)."""
        out = self._out
        self.resume()
        if out is not None:
            for line in annotation_lines(results, self.workspace):
                print(line, file=out)
            out.flush()
        if self.summary_file is not None:
            try:
                append_step_summary(
                    self.summary_file, summary_markdown(results, seconds, self.workspace) + extra
                )
            except OSError as exc:
                print(f"mcp-tui: cannot write the job summary: {exc}", file=err)
