"""Setup and teardown steps: where each is in the file, and when one failed.

A step is a call made for the state a case needs (``model.Step``). Its result is not checked
unless the file gives it an ``expect``; without one, a step fails when its call fails: a tool
error (``isError``: many servers answer an unknown tool so), a JSON-RPC error, a timeout, a lost
connection, an answer that did not fit its form. With ``may_fail = true`` the server may refuse
it (a clean-up that finds nothing to remove): only a call it did not answer fails. The runner
(``headless/testrun.py``) makes the calls; this module says where a step is (for messages and
lines) and whether it failed, as plain records the reports read.

Pure: the models and the comparison.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from mcp_tui.config.text import KeyPath
from mcp_tui.testbench.compare import check
from mcp_tui.testbench.failure import Failure
from mcp_tui.testbench.model import Case, Step, TestFile
from mcp_tui.testbench.observed import Observed
from mcp_tui.untrusted import one_line

Phase = Literal["setup", "teardown"]

#: What a step's call may end with when its file does not say, and with ``may_fail``.
SUCCEEDED = ("ok",)
ANSWERED = ("ok", "tool_error", "error")


@dataclass(frozen=True)
class StepRef:
    """Where a step is: ``setup`` or ``teardown``, of a case (its index) or of the file."""

    phase: Phase
    number: int
    case: int | None = None

    @property
    def key(self) -> KeyPath:
        """Its key path in the file: ``("case", 2, "setup", 0)``, ``("teardown", 1)``."""
        if self.case is None:
            return (self.phase, self.number)
        return ("case", self.case, self.phase, self.number)

    @property
    def label(self) -> str:
        """ "setup #1", "the file's teardown #2" (counted from 1, as people count)."""
        owner = "the file's " if self.case is None else ""
        return f"{owner}{self.phase} #{self.number + 1}"

    def step_of(self, model: TestFile) -> Step:
        owner: Case | TestFile = model if self.case is None else model.case[self.case]
        steps: Sequence[Step] = getattr(owner, self.phase)
        return steps[self.number]


@dataclass(frozen=True)
class StepFailure:
    """A step that did not go as its file says, and what its call did."""

    ref: StepRef
    #: ``tool create_item``: the call, in the report's words.
    call: str
    #: One sentence: "the call ended error: -32602 Unknown tool: create_item".
    why: str
    #: The step's own expectations that failed (when it has an ``expect``).
    failures: tuple[Failure, ...] = ()
    observed: Observed | None = None
    #: Its line in the file.
    line: int | None = field(default=None, compare=False)

    @property
    def reached(self) -> bool:
        """Its call was made: the server answered (or not) on a live connection. ``False``:
        the server could not be started for it."""
        return self.observed is not None

    @property
    def heading(self) -> str:
        """ "setup #1 (tool create_item, line 14) failed: the call ended error: ..." (one
        line; what came from the server in it is shown, never acted on)."""
        at = f", line {self.line}" if self.line is not None else ""
        call = one_line(self.call, limit=200)
        first = (self.why.splitlines() or [""])[0]
        return f"{self.ref.label} ({call}{at}) failed: {one_line(first, limit=500)}"

    @property
    def more(self) -> list[str]:
        """The lines of :attr:`why` after the first (a server's last stderr lines)."""
        return self.why.splitlines()[1:]


def describe_call(step: Step) -> str:
    """``tool create_item``, ``prompt greet``, ``resource items://all``."""
    return f"{step.kind} {step.target}"


def step_failure(
    ref: StepRef, step: Step, seen: Observed, line: int | None = None
) -> StepFailure | None:
    """How the step failed, or ``None`` when it went as its file says (see the module
    docstring)."""
    call = describe_call(step)
    if step.expect is not None:
        failures = check(step.expect, seen)
        if not failures:
            return None
        first = failures[0].summary
        more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
        why = f"its expectation did not hold: {first}{more}"
        return StepFailure(ref, call, why, tuple(failures), seen, line)
    if seen.outcome in (ANSWERED if step.may_fail else SUCCEEDED):
        return None
    why = f"the call ended {seen.outcome}"
    said = seen.answer_problem or seen.error or (seen.text if seen.outcome == "tool_error" else "")
    if said:
        why += f": {said}"
    return StepFailure(ref, call, why, (), seen, line)


def not_run(ref: StepRef, step: Step, why: str, line: int | None = None) -> StepFailure:
    """A step that could not be made (its server could not be started)."""
    return StepFailure(ref, describe_call(step), why, (), None, line)
