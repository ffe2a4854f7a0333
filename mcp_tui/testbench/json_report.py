"""``mcp-tui test --json``: the whole run as one ASCII JSON document, for CI and scripts.

Server strings are kept exactly (JSON escapes them, and ``ensure_ascii`` keeps every byte
printable), so a reader gets what the server sent.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from mcp_tui.testbench.failure import Failure
from mcp_tui.testbench.observed import Observed
from mcp_tui.testbench.result import CaseResult
from mcp_tui.testbench.steps import StepFailure


def result_json(result: CaseResult) -> dict[str, Any]:
    plan, seen = result.plan, result.observed
    data: dict[str, Any] = {
        "id": plan.id,
        "file": str(plan.file.path),
        "line": plan.file.line_of("case", plan.index),
        "case": plan.case.name,
        "era": plan.era,
        "status": result.status,
        "seconds": round(result.seconds, 4),
    }
    if result.message:
        data["message"] = result.message
    if result.not_updated:
        data["not_updated"] = result.not_updated
    if result.failures:
        data["failures"] = _failures_json(result.failures)
    if seen is not None:
        data["observed"] = _observed_json(seen)
    if result.steps:
        data["steps"] = [_step_json(step) for step in result.steps]
    return data


def _failures_json(failures: Sequence[Failure]) -> list[dict[str, Any]]:
    return [
        {
            "key": ".".join(str(k) for k in f.key),
            "summary": f.summary,
            "expected": f.expected,
            "got": f.got,
            "snapshot": f.snapshot,
        }
        for f in failures
    ]


def _observed_json(seen: Observed) -> dict[str, Any]:
    return {
        "outcome": seen.outcome,
        "text": seen.text,
        "structuredContent": seen.structured,
        "error": seen.error,
        "errorCode": seen.error_code,
        "protocolVersion": seen.protocol_version,
        "elicitations": [
            {"mode": e.mode, "message": e.message, "action": e.action} for e in seen.elicitations
        ],
        "sampling": [{"message": s.message, "action": s.action} for s in seen.sampling],
        "sent": list(seen.sent),
    }


def _step_json(step: StepFailure) -> dict[str, Any]:
    """A setup or teardown step that failed: ``{"phase": "setup", "of": "case", "number": 1,
    "line", "call", "why", "failures", "observed"}`` (``of``: the case's or the file's)."""
    data: dict[str, Any] = {
        "phase": step.ref.phase,
        "of": "file" if step.ref.case is None else "case",
        "number": step.ref.number + 1,
        "line": step.line,
        "call": step.call,
        "why": step.why,
    }
    if step.failures:
        data["failures"] = _failures_json(step.failures)
    if step.observed is not None:
        data["observed"] = _observed_json(step.observed)
    return data


def write_json(results: Sequence[CaseResult], seconds: float, out: TextIO) -> None:
    """``--json``: the whole run as one ASCII JSON document on stdout."""
    doc = {
        "summary": dict(Counter(r.status for r in results)),
        "seconds": round(seconds, 3),
        "cases": [result_json(r) for r in results],
    }
    out.write(json.dumps(doc, indent=2, ensure_ascii=True, default=str) + "\n")
    out.flush()
