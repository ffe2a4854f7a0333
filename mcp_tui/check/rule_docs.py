"""The checks' documentation, from where they are declared: ``mcp-tui check --explain ID`` and the
docs pages (one Markdown page per rule and an index), as ruff documents its rules.

Every check carries its why and a bad and a good example (``findings.rule``), and every rule of
``check --baseline`` its why, an example of the change and the compatible way
(``change_rules.py``); the tests run each check's examples, so what is written here is what the
code does. Pure: text in, text out; :func:`write_rule_docs` writes the pages into a folder
(``scripts/rule_docs.py DIR``; a docs site takes them from there).
"""

from __future__ import annotations

import json
from pathlib import Path

from mcp_tui.check import RULES, Rule
from mcp_tui.check.change_rules import CHANGE_RULES, ChangeRule
from mcp_tui.check.findings import Example


def known_ids() -> list[str]:
    """Every id ``--explain`` knows: the checks', then ``--baseline``'s."""
    return [*sorted(RULES), *sorted(CHANGE_RULES)]


def _json(example: Example) -> str:
    """An example as JSON, without the marks mcp-tui adds to what it saw (``_mcp_tui_call``:
    the call that asked for a form), which no server sends."""
    return json.dumps(_unmarked(example), indent=2, ensure_ascii=False)


def _unmarked(value: object) -> object:
    if isinstance(value, dict):
        return {k: _unmarked(v) for k, v in value.items() if not str(k).startswith("_mcp_tui")}
    if isinstance(value, list):
        return [_unmarked(v) for v in value]
    return value


def explain(rule_id: str) -> str | None:
    """``mcp-tui check --explain ID``: the rule in plain text (``None``: no such id)."""
    found = RULES.get(rule_id.upper())
    if found is not None:
        return "\n".join(
            [
                f"{found.id} ({found.severity}): {found.title}",
                "",
                f"Why: {found.why}",
                "",
                "Reported for (what the server sent, as check reads it):",
                _indented(_json(found.bad or {})),
                "",
                "Not reported for:",
                _indented(_json(found.good or {})),
                "",
                f"Switch it off with --ignore {found.id} (or [check] ignore in the config).",
            ]
        )
    change = CHANGE_RULES.get(rule_id.upper())
    if change is not None:
        lines = [
            f"{change.id} ({change.level}, {change.name}): {change.title}",
            "",
            f"Why: {change.why}",
            "",
            f"For example: {change.example}",
        ]
        if change.instead:
            lines += ["", f"Instead: {change.instead}"]
        return "\n".join(lines)
    return None


def _indented(text: str) -> str:
    return "\n".join(f"  {line}" for line in text.splitlines())


def rule_page(found: Rule) -> str:
    """One check's page, in Markdown."""
    return "\n".join(
        [
            f"# {found.id}: {found.title}",
            "",
            f"**Severity:** {found.severity}",
            "",
            "## Why it matters",
            "",
            found.why,
            "",
            "## Reported for",
            "",
            "What the server sent, as `mcp-tui check` reads it (its listings, the params of each "
            "`elicitation/create`, the calls it made):",
            "",
            "```json",
            _json(found.bad or {}),
            "```",
            "",
            "## Not reported for",
            "",
            "```json",
            _json(found.good or {}),
            "```",
            "",
            f'Switch it off with `--ignore {found.id}` or `ignore = ["{found.id}"]` in the '
            "config's `[check]` table; see it with `mcp-tui check --explain " + found.id + "`.",
            "",
        ]
    )


def change_page(change: ChangeRule) -> str:
    """One ``--baseline`` rule's page, in Markdown."""
    lines = [
        f"# {change.id}: {change.title}",
        "",
        f"**Level:** {change.level} (`{change.name}`)",
        "",
        "## Why",
        "",
        change.why,
        "",
        "## For example",
        "",
        change.example,
        "",
    ]
    if change.instead:
        lines += ["## Instead", "", change.instead, ""]
    return "\n".join(lines)


def index_page() -> str:
    """The index: every check and every ``--baseline`` rule, each linking to its page."""
    lines = [
        "# The rules of `mcp-tui check`",
        "",
        "Each finding names its rule; `mcp-tui check --explain ID` prints the same page.",
        "",
        "| id | severity | what it finds |",
        "| --- | --- | --- |",
    ]
    lines += [
        f"| [`{r.id}`]({r.id}.md) | {r.severity} | {r.title} |"
        for r in sorted(RULES.values(), key=lambda r: r.id)
    ]
    lines += [
        "",
        "## `--baseline`: changes since the baseline",
        "",
        "| id | level | name | the change |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| [`{c.id}`]({c.id}.md) | {c.level} | `{c.name}` | {c.title} |"
        for c in sorted(CHANGE_RULES.values(), key=lambda c: c.id)
    ]
    return "\n".join(lines) + "\n"


def write_rule_docs(directory: Path) -> list[Path]:
    """Write ``index.md`` and one ``ID.md`` per rule into ``directory`` (made if missing); the
    files written, in order. The same registry always writes the same bytes."""
    directory.mkdir(parents=True, exist_ok=True)
    pages: dict[str, str] = {"index.md": index_page()}
    for found in sorted(RULES.values(), key=lambda r: r.id):
        pages[f"{found.id}.md"] = rule_page(found)
    for change in sorted(CHANGE_RULES.values(), key=lambda c: c.id):
        pages[f"{change.id}.md"] = change_page(change)
    written = []
    for name, text in pages.items():
        path = directory / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written
