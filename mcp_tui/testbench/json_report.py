"""``mcp-tui test --json``: the whole run as one ASCII JSON document, for CI and scripts.

Server strings are kept exactly (JSON escapes them, and ``ensure_ascii`` keeps every byte
printable), so a reader gets what the server sent.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from mcp_tui.testbench.result import CaseResult


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
        data["failures"] = [
            {
                "key": ".".join(str(k) for k in f.key),
                "summary": f.summary,
                "expected": f.expected,
                "got": f.got,
                "snapshot": f.snapshot,
            }
            for f in result.failures
        ]
    if seen is not None:
        data["observed"] = {
            "outcome": seen.outcome,
            "text": seen.text,
            "structuredContent": seen.structured,
            "error": seen.error,
            "errorCode": seen.error_code,
            "protocolVersion": seen.protocol_version,
            "elicitations": [
                {"mode": e.mode, "message": e.message, "action": e.action}
                for e in seen.elicitations
            ],
            "sampling": [{"message": s.message, "action": s.action} for s in seen.sampling],
            "sent": list(seen.sent),
        }
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
