"""Which calls "Save as a test" offers as a case's setup, and how they are written.

The calls made before the saved one on the same connection to its server (the state it ran in)
that finished by themselves and succeeded: not another server's, not one made before a
reconnect (that process's state is gone), not one cancelled or failed (it made nothing, and as a
step it would fail). Each is written as a step with what it sent and was answered, its result
not checked; a secret typed in its form is written as ``${VAR}``, as in a case.
"""

from __future__ import annotations

from pathlib import Path

from mcp_tui.config.servers import ServerSpec, StdioTarget
from mcp_tui.schema.fields import FieldKind, FieldSpec, FormSpec
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.events import CallOutcome, ContentItem
from mcp_tui.testbench.load import load_test_file
from mcp_tui.ui.call_history import CallHistory
from mcp_tui.ui.record_case import save_case, setup_calls, setup_line

OK = CallOutcome(items=(ContentItem("text", text="done"),))


def history_of_calls() -> CallHistory:
    history = CallHistory()
    calls = [
        (1, "items", "create_item", {"name": "a"}, 0, OK),
        (2, "other", "create_item", {"name": "b"}, 0, OK),  # another server
        (3, "items", "create_item", {"name": "c"}, 0, CallOutcome(items=(), is_error=True)),
        (4, "items", "create_item", {"name": "d"}, 0, CallOutcome(error="x", cancelled=True)),
        (5, "items", "list_items", {}, 0, OK),
        (6, "items", "delete_item", {"name": "a"}, 0, OK),  # the one saved
        (7, "items", "create_item", {"name": "later"}, 0, OK),  # made after it
    ]
    for call_id, server, name, arguments, generation, outcome in calls:
        history.started(call_id, server, "tool", name, arguments, generation=generation)
        history.finished(call_id, outcome)
    return history


def test_the_calls_before_it_on_its_connection_that_succeeded_are_offered() -> None:
    history = history_of_calls()
    saved = next(r for r in history.records if r.call_id == 6)
    assert [r.call_id for r in setup_calls(history, saved)] == [1, 5]
    assert [setup_line(r) for r in setup_calls(history, saved)] == [
        '#1 create_item {"name": "a"}',
        "#5 list_items",
    ]
    # after a reconnect (a new process: a new generation) nothing before it is offered
    history.started(8, "items", "tool", "delete_item", {"name": "a"}, generation=1)
    history.finished(8, OK)
    again = next(r for r in history.records if r.call_id == 8)
    assert setup_calls(history, again) == []


def test_the_steps_are_written_with_their_answers_and_no_secret(tmp_path: Path) -> None:
    history = CallHistory()
    form = FormSpec(
        (FieldSpec("note", FieldKind.TEXT, "Note"), FieldSpec("api_key", FieldKind.TEXT, "Key"))
    )
    history.started(1, "items", "tool", "create_item", {"name": "draft"})
    request = ElicitationRequest("items", "A note?", "form", form=form, call_id=1)
    history.answered(request, ElicitationOutcome("accept", {"note": "n", "api_key": "s3cret-key"}))
    history.finished(1, OK)
    history.started(2, "items", "tool", "delete_item", {"name": "draft"})
    history.finished(2, CallOutcome(items=(ContentItem("text", text="Deleted draft"),)))
    saved = history.records[-1]
    assert setup_line(history.records[0]) == '#1 create_item {"name": "draft"} · 1 answer (accept)'
    path = tmp_path / "items.mcptest.toml"
    spec = ServerSpec("items", StdioTarget("python", ("server.py",)))
    notes = save_case(path, saved, spec, "delete", setup=setup_calls(history, saved))
    assert any("${API_KEY}" in note for note in notes), notes
    text = path.read_text(encoding="utf-8")
    assert "s3cret-key" not in text
    [case] = load_test_file(path).model.case
    [step] = case.setup
    assert (step.tool, step.arguments, step.expect) == ("create_item", {"name": "draft"}, None)
    assert step.answers[0].content == {"note": "n", "api_key": "${API_KEY}"}
    assert case.expect.text == "Deleted draft"
