"""``mcp-tui test --junit-xml FILE``: the run as JUnit XML, as CI systems read it.

Each failure's text is the terminal report's (``report.failure_report``), with every character
XML 1.0 cannot hold shown visibly instead.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from mcp_tui.testbench.report import failure_report
from mcp_tui.testbench.result import CaseResult
from mcp_tui.untrusted import one_line, visible


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
