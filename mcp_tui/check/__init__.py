"""``mcp-tui check``: what other clients will refuse in a server, before its users find out.

Pure (no SDK, no Textual): every check reads a :class:`~mcp_tui.check.findings.Listing` (the JSON
a server sent on one connection) and yields findings, each with a stable id, a severity, where
(a tool, prompt, resource or elicitation, and a JSON Pointer), why and the fix. The modules:
``findings`` (the data and the registry), ``schemas`` (JSON Schema dialects), ``tools``,
``catalog`` (prompts, resources, capabilities), ``elicitation`` (the restricted subset by era),
``elicitation_fields`` (what each form field says of itself: choices, default, format),
``eras`` (what works on one era and not the other), ``fuzzing`` (what ``--fuzz`` found; its
values are drawn by ``fuzz_values``) and ``report`` (running them, merging the
eras, the text and JSON reports). ``check --baseline``'s breaking-change gate: ``baseline`` (the
file), ``changes`` (the comparison), ``schema_changes`` (one schema against another, by who sends
the data) and ``change_rules`` (its rules, B101...). Each check carries its documentation
(why, and a bad and a good example its tests run): ``mcp-tui check --explain ID`` prints it and
``rule_docs`` writes the docs pages.
"""

from __future__ import annotations

from mcp_tui.check import (  # noqa: F401  (the checks)
    app_ui,
    catalog,
    elicitation,
    elicitation_fields,
    eras,
    fuzzing,
    no_elicitation,
    tools,
)
from mcp_tui.check.findings import RULES, SEVERITIES, Finding, Listing, Rule, Severity
from mcp_tui.check.report import CheckReport, run_checks

__all__ = [
    "RULES",
    "SEVERITIES",
    "CheckReport",
    "Finding",
    "Listing",
    "Rule",
    "Severity",
    "run_checks",
]
