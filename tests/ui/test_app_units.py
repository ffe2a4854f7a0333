"""Unit tests of the app's pure helpers: event batching, JSON arguments, URI templates, text."""

from __future__ import annotations

import pytest
from textual.content import Content

from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import (
    CallOutcome,
    CatalogChanged,
    ConnectionState,
    ContentItem,
    ElicitationPauseChanged,
    ElicitationRefused,
    LogReceived,
    Notice,
    ProgressReceived,
    ServerStateChanged,
    StderrReceived,
    ToolInfo,
    TrafficRecorded,
)
from mcp_tui.ui.event_buffer import EventBuffer
from mcp_tui.ui.json_args import check_arguments, parse_arguments, starter_text
from mcp_tui.ui.render import (
    INLINE_CHARS,
    call_entry,
    elicitation_finished_entry,
    outcome_entry,
    refused_entry,
)
from mcp_tui.ui.uri_template import expand, variables

# --- event buffer ----------------------------------------------------------------------------


def test_buffer_keeps_newest_logs_and_counts_dropped() -> None:
    buffer = EventBuffer(log_limit=10)
    for i in range(25):
        buffer.add(LogReceived("s", "info", None, f"line {i}"))
    buffer.add(StderrReceived("s", "err"))
    batch = buffer.drain()
    assert [getattr(e, "data", None) for e in batch.logs[:2]] == ["line 16", "line 17"]
    assert isinstance(batch.logs[-1], StderrReceived)
    assert batch.logs_dropped == 16
    assert not buffer.pending
    assert not buffer.drain()


def test_buffer_coalesces_progress_and_merges_catalogs() -> None:
    buffer = EventBuffer()
    for i in range(100):
        buffer.add(ProgressReceived("s", 7, i, 100, None))
    buffer.add(ProgressReceived("s", 8, 1, None, "other"))
    tool = ToolInfo("t")
    buffer.add(CatalogChanged("s", tools=(tool,)))
    buffer.add(CatalogChanged("s", prompts=()))
    buffer.add(ServerStateChanged("s", ConnectionState.CONNECTING))
    buffer.add(ServerStateChanged("s", ConnectionState.READY))
    buffer.add(ElicitationPauseChanged("s", True, by_limit=True))
    batch = buffer.drain()
    assert batch.progress[7].progress == 99
    assert batch.progress[8].message == "other"
    assert batch.catalogs["s"].tools == (tool,)
    assert batch.catalogs["s"].prompts == ()
    assert [s.state for s in batch.states] == [ConnectionState.CONNECTING, ConnectionState.READY]
    assert batch.pauses[0].paused is True
    assert not batch.notes


def test_buffer_bounds_traffic_and_notes() -> None:
    buffer = EventBuffer(traffic_limit=5, note_limit=3)
    for i in range(9):
        buffer.add(TrafficRecorded("s", "in", {"jsonrpc": "2.0", "method": f"m{i}"}))
        buffer.add(Notice("s", f"n{i}"))
    batch = buffer.drain()
    assert len(batch.traffic) == 5 and batch.traffic_dropped == 4
    assert [n.text for n in batch.notes if isinstance(n, Notice)] == ["n6", "n7", "n8"]
    assert batch.notes_dropped == 6


# --- JSON arguments --------------------------------------------------------------------------

SCHEMA = {
    "type": "object",
    "properties": {
        "point": {
            "type": "object",
            "properties": {"x": {"type": "number"}},
            "required": ["x"],
        },
        "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
    },
    "required": ["point"],
}


def test_json_arguments_valid_and_invalid() -> None:
    ok = check_arguments('{"point": {"x": 1.5}, "code": "ABC"}', SCHEMA)
    assert ok.ok and ok.arguments == {"point": {"x": 1.5}, "code": "ABC"}
    bad = check_arguments('{"point": {}, "code": "abc"}', SCHEMA)
    assert not bad.ok
    assert "point/x: Required" in bad.errors
    assert any("does not match" in e for e in bad.errors)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[1, 2]", "JSON object"),
        ("{", "not valid JSON"),
        ('{"a": NaN}', "not valid JSON"),
        ('{"a": 1e400}', "finite"),
    ],
)
def test_json_arguments_refuses_non_objects_and_non_finite(text: str, needle: str) -> None:
    arguments, error = parse_arguments(text)
    assert arguments is None and error is not None and needle in error


def test_json_arguments_never_fetch_remote_refs_or_recurse() -> None:
    remote = {"$ref": "https://example.invalid/schema.json"}
    check = check_arguments("{}", remote)
    assert check.schema_problem is not None and not check.ok
    assert check.arguments == {}  # the user may still send on purpose
    looping = {"$ref": "#"}
    assert check_arguments('{"a": 1}', looping).arguments == {"a": 1}


def test_json_arguments_pattern_is_linear_time() -> None:
    # With Python's re this pattern takes minutes on this input; RE2 answers at once.
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}
    check = check_arguments('{"s": "' + "a" * 40 + '!"}', schema)
    assert not check.ok and "does not match" in check.errors[0]


def test_json_arguments_invalid_schema_is_reported() -> None:
    check = check_arguments("{}", {"type": 12})
    assert check.schema_problem is not None and "invalid" in check.schema_problem


def test_starter_text_is_valid_required_fields_only_with_defaults() -> None:
    # Optional fields are left out (the old skeleton sent 0 and null and broke the schema);
    # required ones take their default, else the first value their rules allow.
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "minimum": 5},
            "b": {"default": "x"},
            "c": {"type": "array"},
            "d": {"type": "string", "default": "kept"},
            "e": {"type": "integer", "minimum": 3},
        },
        "required": ["a", "c", "d"],
    }
    text = starter_text(schema)
    assert parse_arguments(text)[0] == {"a": 5, "c": [], "d": "kept"}
    assert check_arguments(text, schema).ok


# --- URI templates ---------------------------------------------------------------------------


def test_uri_template_variables_and_expansion() -> None:
    template = "file:///logs/{date}/{+path}{?level,limit}"
    assert variables(template) == ["date", "path", "level", "limit"]
    uri = expand(template, {"date": "2024 01", "path": "a/b", "level": "warn"})
    assert uri == "file:///logs/2024%2001/a/b?level=warn"


# --- rendering -------------------------------------------------------------------------------


def test_outcome_entry_shows_every_kind_of_content() -> None:
    outcome = CallOutcome(
        items=(
            ContentItem("text", text="hello"),
            ContentItem("image", mime_type="image/png", size=2048),
            ContentItem("audio", mime_type="audio/wav", size=10),
            ContentItem("resource_link", uri="file:///a.txt", name="a.txt"),
            ContentItem("resource", uri="file:///b", text="inner", mime_type="text/plain"),
        ),
        structured={"n": 30},
    )
    entry = outcome_entry("#1 s › t", outcome)
    plain = entry.summary.plain
    assert entry.kind == "result"
    assert "hello" in plain
    assert "[image: image/png, 2.0 KiB]" in plain
    assert "[audio: audio/wav, 10 bytes]" in plain
    assert "resource link: a.txt <file:///a.txt>" in plain
    assert "inner" in plain
    assert '"n": 30' in plain


def test_outcome_entry_errors() -> None:
    tool_error = outcome_entry(
        "h", CallOutcome(items=(ContentItem("text", text="no"),), is_error=True)
    )
    assert tool_error.kind == "error" and "the tool reported an error" in tool_error.summary.plain
    rpc = outcome_entry("h", CallOutcome(error="-32602 Invalid params: x", error_data={"a": 1}))
    assert rpc.kind == "error"
    assert "-32602 Invalid params: x" in rpc.summary.plain and '"a": 1' in rpc.full


def test_long_text_is_bounded_inline_but_complete_in_full() -> None:
    text = "x" * (INLINE_CHARS * 3)
    entry = outcome_entry("h", CallOutcome(items=(ContentItem("text", text=text),)))
    assert len(entry.summary.plain) < INLINE_CHARS + 200
    assert "more characters (select this entry, then Enter or i: full text)" in entry.summary.plain
    assert text in entry.full


def test_server_text_is_literal_and_controls_are_visible() -> None:
    hostile = "[bold]x[/] [@click=app.quit]y[/] \x1b]52;c;aGk=\x07 \u202e"
    entry = outcome_entry(hostile, CallOutcome(items=(ContentItem("text", text=hostile),)))
    assert isinstance(entry.summary, Content)
    plain = entry.summary.plain
    assert "[bold]x[/]" in plain and "[@click=app.quit]" in plain
    assert "\x1b" not in plain and "\x07" not in plain and "\u202e" not in plain
    assert "\\e]52" in plain and "\\u202e" in plain
    assert not any(span.style and "@click" in str(span.style) for span in entry.summary.spans)


def test_call_entry_shows_exact_arguments() -> None:
    entry = call_entry("s", "t", {"n": 30, "r": 95.5, "ok": True}, 4)
    assert '"n": 30' in entry.summary.plain and '"r": 95.5' in entry.summary.plain
    assert entry.title == "#4 s › t"


def test_elicitation_entries() -> None:
    request = ElicitationRequest(server="s", message="Your name?", mode="form")
    accepted = elicitation_finished_entry(
        request, ElicitationOutcome("accept", {"age": 30, "name": "Ada"}), None
    )
    assert "accepted" in accepted.summary.plain and '"age": 30' in accepted.summary.plain
    abandoned = elicitation_finished_entry(
        request, ElicitationOutcome.cancel("server cancelled"), {"name": "Ad"}
    )
    plain = abandoned.summary.plain
    assert "cancelled" in plain and "server cancelled" in plain and "name: Ad" in plain
    refused = refused_entry(ElicitationRefused("s", "Fill in", ("a: nested objects", "b: bad")))
    assert "- a: nested objects" in refused.summary.plain and "- b: bad" in refused.full
