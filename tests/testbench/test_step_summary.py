"""``mcp-tui test --github``'s job summary, read back as Markdown (GitHub Flavored: tables, HTML):
the counts, a table of the files and a table of what did not pass, and nothing a server or a test
file says can break a table, link, embed an image or inject HTML."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from mcp_tui.testbench.compare import Failure
from mcp_tui.testbench.load import LoadedFile, load_test_file
from mcp_tui.testbench.plan import CasePlan
from mcp_tui.testbench.result import CaseResult
from mcp_tui.testbench.step_summary import (
    MAX_FAILURE_ROWS,
    append_step_summary,
    code_cell,
    summary_markdown,
)
from mcp_tui.untrusted import one_line

#: What GitHub's renderer does with the file, as far as structure goes: CommonMark, GFM tables
#: and raw HTML.
MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable("table")

HOSTILE = (
    "| x | y |\n| --- |\n<img src=https://example.com/t.png> <script>alert(1)</script> "
    "[click](https://example.com) ![i](https://example.com/i.png) ``` ` \\| \\ **bold** &amp; "
    "\x1b[31m\u202e <br>"
)

FILE = f"""\
server = "demo"

[[case]]
name = {json.dumps(HOSTILE)}
tool = "a"
expect = {{ text = "x", structured = {{ n = 1 }} }}

[[case]]
name = "plain"
tool = "b"
"""


@pytest.fixture
def loaded(tmp_path: Path) -> LoadedFile:
    path = tmp_path / "h.mcptest.toml"
    path.write_text(FILE, encoding="utf-8")
    return load_test_file(path)


def _result(loaded: LoadedFile, index: int, era: Any = "2025-11-25", **kw: Any) -> CaseResult:
    return CaseResult(CasePlan(loaded, index, era), **kw)


def _tables(tokens: list[Token]) -> list[list[list[Token]]]:
    """Each table as rows of cells, each cell its inline token."""
    tables: list[list[list[Token]]] = []
    row: list[Token] = []
    for i, token in enumerate(tokens):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type in ("th_open", "td_open"):
            row.append(tokens[i + 1])
        elif token.type == "tr_close":
            tables[-1].append(row)
    return tables


def _inline_kinds(tokens: list[Token]) -> set[str]:
    kinds: set[str] = set()
    for token in tokens:
        kinds.add(token.type)
        for child in token.children or []:
            kinds.add(child.type if child.type != "html_inline" else f"html:{child.content}")
    return kinds


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("`| \\<>[]()!*&#;\n\r\t-:")) | st.characters()))
def test_a_code_cell_is_one_code_span_that_shows_the_text(text: str) -> None:
    cell = code_cell(text)
    [[_, row]] = _tables(MARKDOWN.parse(f"| h |\n| --- |\n| {cell} |\n"))
    [inline] = row
    shown = one_line(text, limit=300)
    if not shown:
        assert inline.children == []
        return
    [child] = inline.children or []
    assert child.type == "code_inline"
    assert child.content == shown


def test_the_summary_has_the_counts_the_files_and_each_failure(
    loaded: LoadedFile, tmp_path: Path
) -> None:
    failures = [
        Failure(("text",), f"the result's text differs {HOSTILE}", "x", f"y\n{HOSTILE}"),
        Failure(("structured",), "structuredContent differs at /n", {"n": 1}, {"n": 2}),
    ]
    results = [
        _result(loaded, 0, status="failed", failures=failures, seconds=1.25),
        _result(loaded, 0, "2026-07-28", status="error", message=f"boom {HOSTILE}", seconds=0.5),
        _result(loaded, 1, status="passed", seconds=0.25),
        _result(loaded, 1, "2026-07-28", status="skipped", message="not today"),
    ]
    text = summary_markdown(results, 3.0, tmp_path)
    tokens = MARKDOWN.parse(text)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0] == "❌ mcp-tui test: 1 passed, 1 failed, 1 error, 1 skipped in 3.00 s"

    files, bad = _tables(tokens)
    assert [c.content for c in files[0]] == [
        "test file", "cases", "passed", "failed", "errors", "skipped", "eras", "time"
    ]  # fmt: skip
    [row] = files[1:]
    assert [(c.children or [c])[0].content for c in row] == [
        "h.mcptest.toml", "4", "1", "1", "1", "1", "2025-11-25, 2026-07-28", "2.00 s"
    ]  # fmt: skip

    assert [c.content for c in bad[0]] == [
        "case", "era", "where", "what failed", "first difference"
    ]  # fmt: skip
    rows = bad[1:]
    assert len(rows) == 3 and all(len(r) == 5 for r in rows)
    text_row, structured_row, error_row = rows
    name = one_line(HOSTILE)
    assert [(c.children or [c])[0].content for c in text_row[:4]] == [
        name, "2025-11-25", "h.mcptest.toml:6", one_line(f"the result's text differs {HOSTILE}")
    ]  # fmt: skip
    difference = [c.content for c in text_row[4].children or [] if c.type == "code_inline"]
    assert difference == ["line 1, expected: x", "line 1, got: y"]
    assert [c.content for c in structured_row[4].children or [] if c.type == "code_inline"] == [
        'line 2, expected:   "n": 1',
        'line 2, got:   "n": 2',
    ]
    assert error_row[1].children[0].content == "2026-07-28"  # type: ignore[index]
    assert error_row[3].content == "could not run"
    # A case that could not run: the first line of why.
    assert error_row[4].children[0].content == "boom | x | y |"  # type: ignore[index]

    # Nothing but text, code spans and the cells' own line breaks: no link, image or HTML.
    kinds = _inline_kinds(tokens)
    assert kinds <= {"inline", "text", "code_inline", "html:<br>", "heading_open"} | {
        t.type for t in tokens if t.type.endswith(("_open", "_close"))
    }, kinds
    assert not any(t.type in ("html_block", "link_open", "image") for t in tokens)


def test_a_passing_run_says_so(loaded: LoadedFile, tmp_path: Path) -> None:
    text = summary_markdown([_result(loaded, 1, status="passed")], 0.5, tmp_path)
    assert text.startswith("### ✅ mcp-tui test: 1 passed in 0.50 s\n")
    assert "What did not pass" not in text


def test_a_long_run_keeps_the_failures_table_bounded(loaded: LoadedFile, tmp_path: Path) -> None:
    failure = Failure(("text",), "differs", "a", "b")
    results = [
        _result(loaded, 0, status="failed", failures=[failure]) for _ in range(MAX_FAILURE_ROWS + 5)
    ]
    text = summary_markdown(results, 1.0, tmp_path)
    _, bad = _tables(MARKDOWN.parse(text))
    assert len(bad) == 1 + MAX_FAILURE_ROWS
    assert "and 5 more" in text


def test_summaries_are_appended(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    path.write_text("earlier step\n", encoding="utf-8")
    append_step_summary(path, "### one\n")
    append_step_summary(path, "### two\n")
    assert path.read_text(encoding="utf-8") == "earlier step\n### one\n### two\n"
