"""``--coverage`` from a run's records: what no case touched, the answers each form got, the
structured results checked; its text and JSON; a case's record as JSON both ways (xdist)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from mcp_tui.testbench.coverage import Touch, coverage, fits, touch_of, write_json
from mcp_tui.testbench.load import load_test_file
from mcp_tui.testbench.observed import Observed, Offered, SeenElicitation
from mcp_tui.testbench.plan import CasePlan
from mcp_tui.testbench.result import CaseResult

OFFERED = Offered(
    "shop",
    tools=("book", "cancel", "search"),
    structured_tools=("search", "book"),
    prompts=("draft", "triage"),
    resources=("shop://menu",),
    templates=("shop://orders/{id}",),
)


def touch(kind: str, target: str, *forms: tuple[str, str, str], checked: bool = False) -> Touch:
    return Touch(OFFERED, kind, target, tuple(forms), checked)


def test_what_no_case_touched() -> None:
    c = coverage(
        [
            touch("tool", "book"),
            touch("tool", "no_such_tool"),  # called, but not offered: not counted
            touch("prompt", "draft"),
            touch("resource", "shop://orders/17"),
            None,  # a skipped case
        ]
    )
    (s,) = c.servers
    assert s.untouched("tools") == ["cancel", "search"]
    assert s.untouched("prompts") == ["triage"]
    assert s.untouched("resources") == ["shop://menu"]
    assert s.untouched("templates") == []
    assert (c.tools_touched, c.tools_offered) == (1, 3)
    assert c.tools_percent == pytest.approx(100 / 3)


def test_each_form_and_the_answers_it_got() -> None:
    step1 = ("form", "Step 1", "accept")
    c = coverage(
        [
            touch("tool", "book", step1, ("form", "Step 2", "decline")),
            touch("tool", "book", ("form", "Step 1", "cancel")),
            touch("tool", "book", step1),
            touch("tool", "cancel", ("url", "Sign in", "accept")),
        ]
    )
    forms = {(f.target, f.mode, f.message): (f.actions, f.missing) for f in c.servers[0].forms}
    assert forms == {
        ("book", "form", "Step 1"): ({"accept": 2, "decline": 0, "cancel": 1}, ["decline"]),
        ("book", "form", "Step 2"): (
            {"accept": 0, "decline": 1, "cancel": 0},
            ["accept", "cancel"],
        ),
        ("cancel", "url", "Sign in"): (
            {"accept": 1, "decline": 0, "cancel": 0},
            ["decline", "cancel"],
        ),
    }


def test_structured_results_checked() -> None:
    c = coverage([touch("tool", "search", checked=True), touch("tool", "book")])
    assert c.servers[0].structured == {"book": False, "search": True}


def test_servers_are_told_apart_and_listings_add_up() -> None:
    other = Offered("files", tools=("read",))
    later = Offered("shop", tools=("book", "refund"))  # the other era, or a list_changed
    c = coverage(
        [touch("tool", "book"), Touch(other, "tool", "read"), Touch(later, "tool", "refund")]
    )
    assert [s.server for s in c.servers] == ["shop", "files"]
    assert c.servers[0].offered["tools"] == ["book", "cancel", "refund", "search"]
    assert c.servers[0].untouched("tools") == ["cancel", "search"]
    assert (c.tools_touched, c.tools_offered) == (3, 5)


def test_no_tools_offered_is_full_coverage() -> None:
    assert coverage([]).tools_percent == 100.0


def test_text_and_json() -> None:
    c = coverage([touch("tool", "book", ("form", "Step 1\x1b[2J", "accept"), checked=True)])
    text = c.text()
    assert "tools      1/3 (33%)  untouched: cancel, search" in text
    assert "prompts    0/2 (0%)  untouched: draft, triage" in text
    assert "structured 1/2 (50%) of tools with outputSchema  unchecked: search" in text
    assert 'book "Step 1\\e[2J": accept; never decline, cancel' in text
    assert "\x1b" not in text
    assert text.rstrip().endswith("tools covered: 33.3%")
    out = io.StringIO()
    write_json(c, out)
    doc = json.loads(out.getvalue())
    assert doc["version"] == 1 and doc["tools_percent"] == 33.33
    (server,) = doc["servers"]
    assert server["tools"] == {
        "offered": ["book", "cancel", "search"],
        "touched": ["book"],
        "untouched": ["cancel", "search"],
    }
    assert server["structured"] == {"checked": ["book"], "unchecked": ["search"]}
    assert server["elicitations"][0]["actions"] == {"accept": 1, "decline": 0, "cancel": 0}


def test_a_touch_is_json_both_ways() -> None:
    t = touch("tool", "book", ("form", "Step 1", "accept"), checked=True)
    assert Touch.from_json(json.loads(json.dumps(t.as_json()))) == t


@pytest.mark.parametrize(
    ("template", "uri", "fit"),
    [
        ("shop://orders/{id}", "shop://orders/17", True),
        ("shop://orders/{id}", "shop://orders/17/items", False),
        ("file:///{+path}", "file:///a/b/c.txt", True),
        ("shop://search{?q,page}", "shop://search?q=x&page=2", True),
        ("shop://search{?q,page}", "shop://search", True),
        ("shop://a{/x}", "shop://a/b", True),
        ("shop://orders/{id}", "other://orders/17", False),
    ],
)
def test_a_uri_fits_a_template(template: str, uri: str, fit: bool) -> None:
    assert fits(template, uri) is fit


def test_touch_of_a_case_result(tmp_path: Path) -> None:
    path = tmp_path / "shop.mcptest.toml"
    path.write_text(
        'server = "demo"\n[[case]]\nname = "c"\ntool = "search"\n'
        '[case.expect]\npointers = { "/total" = 1 }\n',
        encoding="utf-8",
    )
    plan = CasePlan(load_test_file(path), 0, "2025-11-25")
    seen = Observed(
        "ok",
        elicitations=(SeenElicitation("form", "How many?", {}, action="decline"),),
        offered=OFFERED,
    )
    assert touch_of(CaseResult(plan, "passed", observed=seen)) == Touch(
        OFFERED, "tool", "search", (("form", "How many?", "decline"),), True
    )
    assert touch_of(CaseResult(plan, "skipped")) is None


def test_the_job_summary_table_holds_what_a_server_named_as_code_only() -> None:
    from markdown_it import MarkdownIt

    from mcp_tui.testbench.coverage import markdown

    hostile = "| x |\n<img src=x> [l](https://e.com) **b**"
    offered = Offered(hostile, tools=("book", hostile))
    c = coverage([Touch(offered, "tool", "book", (("form", "m", "accept"),))])
    text = markdown(c)
    assert text.startswith("#### Coverage: 50.0% of the tools called")
    tokens = MarkdownIt("commonmark", {"html": True}).enable("table").parse(text)
    kinds = {child.type for t in tokens for child in (t.children or [])}
    assert not kinds & {"html_inline", "link_open", "image", "strong_open"}
    rows = [t for t in tokens if t.type == "tr_open"]
    assert len(rows) == 3  # the header, tools, forms
    assert "| tools | 1/2 (50%) | `" in text
