"""What one case did on one era: its status, the failed expectations and the call as observed.

A plain record (as pytest's ``TestReport`` is to its runner): the runner (``headless/testrun.py``)
makes it, and the reports (``report.py``, ``junitxml.py``, ``json_report.py``), ``--update``
(``update.py``), the pytest plugin and ``check --run`` read it without importing the runner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from mcp_tui.testbench.compare import Failure
from mcp_tui.testbench.observed import Observed
from mcp_tui.testbench.plan import CasePlan

Status = Literal["passed", "failed", "error", "skipped", "xfailed", "xpassed"]


@dataclass
class CaseResult:
    plan: CasePlan
    status: Status
    failures: list[Failure] = field(default_factory=list)
    observed: Observed | None = None
    #: Why the case could not run (``error``) or was skipped.
    message: str | None = None
    seconds: float = 0.0
    #: Why ``--update`` wrote none of this case's snapshots (an expectation that is not a
    #: snapshot failed, the eras disagree...), for the report.
    not_updated: str | None = None

    @property
    def bad(self) -> bool:
        return self.status in ("failed", "error", "xpassed")
