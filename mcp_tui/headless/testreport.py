"""What ``mcp-tui test`` prints: a line per case as it ends, then a summary where each failure
shows what was expected and what came (a diff, the requests and answers of the call), never a
stack trace; ``--junit-xml`` and ``--json`` for CI.

Every string that came from a server (result text, messages, errors, stderr) goes through
``untrusted.visible`` before it is printed, line by line, so a test run cannot drive the terminal
or a CI log.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from mcp_tui.headless.testrun import CaseResult
from mcp_tui.testbench.compare import diff_text
from mcp_tui.untrusted import one_line, visible

_LABEL = {
    "passed": "PASS ",
    "failed": "FAIL ",
    "error": "ERROR",
    "skipped": "SKIP ",
    "xfailed": "XFAIL",
    "xpassed": "XPASS",
}
#: At most this many lines of one diff or transcript in the summary.
MAX_LINES = 60


def progress_line(result: CaseResult) -> str:
    took = f" ({result.seconds:.2f} s)" if result.seconds else ""
    why = f" - {one_line(result.message, limit=100)}" if result.status == "skipped" else ""
    return f"{_LABEL[result.status]} {one_line(result.plan.id, limit=400)}{took}{why}"


def failure_report(result: CaseResult) -> list[str]:
    """The lines that explain one case that did not pass."""
    plan = result.plan
    where = plan.file.where("case", plan.index)
    heading = f"{_LABEL[result.status]} {where} {one_line(plan.case.name)} [{plan.era}]"
    lines = [heading]
    if result.status == "error":
        lines += [f"  {visible(line, limit=500)}" for line in (result.message or "").splitlines()]
        return lines
    if result.status == "xpassed":
        lines.append(
            f"  expected to fail ({one_line(plan.case.xfail)}), but every expectation held"
        )
    seen = result.observed
    for failure in result.failures:
        key = ("case", plan.index, "expect", *failure.key)
        line = plan.file.line_of(*key)
        at = f" (line {line})" if line is not None else ""
        lines.append(f"  - {visible(failure.summary, limit=300, keep_newlines=False)}{at}")
        diff = diff_text(failure.expected, failure.got, diffable=failure.diffable)
        lines += _cut([f"      {visible(d, limit=500, keep_newlines=False)}" for d in diff])
    if seen is not None:
        call = f"{plan.case.kind} {plan.case.target}"
        era = f", protocol {seen.protocol_version}" if seen.protocol_version else ""
        took = f"{seen.outcome} in {seen.seconds:.2f} s{era}"
        lines.append(f"  call: {one_line(call, limit=300)} -> {took}")
        if seen.error:
            lines.append(f"  error: {visible(seen.error, limit=1000, keep_newlines=False)}")
        if seen.transcript:
            lines.append("  requests and answers:")
            lines += _cut(
                [f"    {line.removeprefix('mcp-tui: ')}" for line in seen.transcript.splitlines()]
            )
    return lines


def _cut(lines: list[str]) -> list[str]:
    if len(lines) <= MAX_LINES:
        return lines
    return [*lines[:MAX_LINES], f"      ... {len(lines) - MAX_LINES} more lines"]


def counts(results: Sequence[CaseResult]) -> str:
    tally: Counter[str] = Counter(r.status for r in results)
    order = ("passed", "failed", "error", "xfailed", "xpassed", "skipped")
    return ", ".join(f"{tally[s]} {s}" for s in order if tally[s]) or "no cases"


def print_summary(results: Sequence[CaseResult], seconds: float, out: TextIO) -> None:
    bad = [r for r in results if r.bad]
    if bad:
        print("", file=out)
        print(f"==== {len(bad)} case(s) did not pass " + "=" * 40, file=out)
        for result in bad:
            print("", file=out)
            print("\n".join(failure_report(result)), file=out)
    print("", file=out)
    print(f"{counts(results)} in {seconds:.2f} s", file=out, flush=True)


# ---- CI formats ---------------------------------------------------------------------------------


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
    if result.failures:
        data["failures"] = [
            {
                "key": ".".join(str(k) for k in f.key),
                "summary": f.summary,
                "expected": f.expected,
                "got": f.got,
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


def write_junit(results: Sequence[CaseResult], seconds: float, path: Path) -> None:
    """``--junit-xml FILE``: one ``<testsuite>`` per test file, one ``<testcase>`` per case and
    era, as CI systems (and pytest's ``--junitxml``) write them."""
    root = ET.Element("testsuites", name="mcp-tui test", time=f"{seconds:.3f}")
    by_file: dict[Path, list[CaseResult]] = {}
    for r in results:
        by_file.setdefault(r.plan.file.path, []).append(r)
    for file, rs in by_file.items():
        tally = Counter(r.status for r in rs)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=str(file),
            tests=str(len(rs)),
            failures=str(tally["failed"] + tally["xpassed"]),
            errors=str(tally["error"]),
            skipped=str(tally["skipped"] + tally["xfailed"]),
            time=f"{sum(r.seconds for r in rs):.3f}",
        )
        for r in rs:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=_classname(file),
                name=f"{r.plan.case.name}[{r.plan.era}]",
                file=str(file),
                line=str(r.plan.file.line_of("case", r.plan.index) or 0),
                time=f"{r.seconds:.3f}",
            )
            details = "\n".join(failure_report(r)[1:])
            if r.status in ("failed", "xpassed"):
                first = r.failures[0].summary if r.failures else "passed unexpectedly (xfail)"
                ET.SubElement(case, "failure", message=_xml_safe(first)).text = _xml_safe(details)
            elif r.status == "error":
                ET.SubElement(case, "error", message=_xml_safe(one_line(r.message or "")))
                case[-1].text = _xml_safe(details)
            elif r.status in ("skipped", "xfailed"):
                why = r.message or (f"xfail: {r.plan.case.xfail}" if r.plan.case.xfail else "")
                ET.SubElement(case, "skipped", message=_xml_safe(why))
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _classname(file: Path) -> str:
    name = file.name
    for suffix in (".mcptest.toml", ".mcptest.json"):
        name = name.removesuffix(suffix)
    return name


def _xml_safe(text: str) -> str:
    """XML 1.0 cannot hold most control characters even escaped: show them instead."""
    return visible(text, limit=20000)
