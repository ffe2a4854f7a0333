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
from mcp_tui.testbench.steps import StepFailure

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
    #: The setup and teardown steps (the file's and the case's) that failed: a failed setup is
    #: why the case is an ``error`` (its call was not made); a failed teardown makes a case that
    #: passed an ``error`` too, and is told under a failure.
    steps: list[StepFailure] = field(default_factory=list)

    @property
    def bad(self) -> bool:
        return self.status in ("failed", "error", "xpassed")

    @property
    def unreached(self) -> bool:
        """An error because its server could not be reached or it could not be run at all
        (``mcp-tui test`` exits 3), not because of what the server answered to a step."""
        return self.status == "error" and (
            not self.steps or any(not step.reached for step in self.steps)
        )


def setup_failed(plan: CasePlan, failed: list[StepFailure]) -> CaseResult:
    """A case whose setup (the file's or its own) failed: an error, its call not made."""
    return CaseResult(plan, "error", message=failed[0].heading, steps=list(failed))


def with_teardown(result: CaseResult, failed: list[StepFailure]) -> CaseResult:
    """``result`` with the teardown steps that failed after it: a case that passed (or failed as
    its ``xfail`` said) is then an error; a failure or an error stays one, and says it too."""
    if not failed:
        return result
    result.steps += failed
    if result.status in ("passed", "xfailed"):
        result.status = "error"
        result.message = failed[0].heading
    return result
