"""Answers files: both formats, order and message matching, errors with line, the recorder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_tui.config.answers import AnswerRecorder, load_answers
from mcp_tui.errors import ConfigError

TOML = """
# in order
[[answers]]
action = "accept"
content = { name = "Ada", age = 36 }

[[answers]]
match = "(?i)delete"
action = "decline"

[[answers]]
action = "cancel"
mode = "form"

[[answers]]
action = "accept"
mode = "url"
"""

JSON = """
// comments are allowed
{"answers": [
  {"action": "accept", "content": {"name": "Ada", "age": 36}},
  {"match": "(?i)delete", "action": "decline"},
  {"action": "cancel", "mode": "form"},
  {"action": "accept", "mode": "url"},
]}
"""


@pytest.mark.parametrize(("name", "text"), [("a.toml", TOML), ("a.json", JSON), ("a.txt", JSON)])
def test_both_formats_pick_the_same_answers(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    script = load_answers(path)
    assert len(script.answers) == 4
    # A matching answer wins over the next in-order one, and may be used again.
    for _ in range(2):
        picked = script.pick("Really DELETE it?", "form")
        assert picked is not None and picked.entry.action == "decline" and picked.index == 1
    # The in-order answers, each once; mode filters skip answers for the other mode.
    url = script.pick("Open this", "url")
    assert url is not None and url.index == 3
    first = script.pick("Name?", "form")
    assert first is not None and first.entry.content == {"name": "Ada", "age": 36}
    second = script.pick("Name again?", "form")
    assert second is not None and second.entry.action == "cancel"
    assert script.pick("More?", "form") is None
    assert script.unused == []


def test_a_bare_json_list_and_tool_filter(tmp_path: Path) -> None:
    path = tmp_path / "answers.json"
    path.write_text('[{"action": "decline", "tool": "other"}, {"action": "accept"}]')
    script = load_answers(path)
    picked = script.pick("?", "form", tool="mine")
    assert picked is not None and picked.index == 1
    assert [a.index for a in script.unused] == [0]


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "a.toml",
            '[[answers]]\naction = "maybe"\n',
            r"line 2: answers\[0\]\.action: Input should",
        ),
        (
            "a.toml",
            '[[answers]]\naction = "accept"\n\n[[answers]]\naction = "decline"\ncolour = 1\n',
            r"line 6: answers\[1\]\.colour: unknown key",
        ),
        (
            "a.json",
            '{"answers": [\n  {"action": "decline",\n   "content": {"a": 1}}\n]}',
            r"line 2: answers\[0\]: `content` goes only with action accept",
        ),
        (
            "a.json",
            '[\n {"action": "accept", "match": "(unclosed"}\n]',
            r"line 2: answers\[0\]: `match` is not a valid regular expression",
        ),
        (
            "a.json",
            '[{"action": "accept", "mode": "url", "content": {}}]',
            r"a URL-mode answer has no `content`",
        ),
        ("a.json", '{"answer": []}', r"expected a list of answers"),
        ("a.toml", "answers = []\nextra = 1\n", r"line 2: extra: unknown key"),
        ("a.toml", "[[answers]\n", r"is not valid TOML"),
        ("a.json", "[{]", r"is not valid JSON: .* line 1"),
    ],
)
def test_bad_answers_files(tmp_path: Path, name: str, text: str, expected: str) -> None:
    import re

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_answers(path)
    message = str(info.value)
    assert message.startswith(f"Answers file {path}") and "\n" not in message
    assert re.search(expected, message), message


def test_missing_answers_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_answers(tmp_path / "nope.toml")


def test_recorder_writes_a_file_that_replays_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "recorded.json"
    recorder = AnswerRecorder(path)
    recorder.record(
        message="Name?", mode="form", action="accept", content={"n": 1, "x": 0.5}, server="s"
    )
    recorder.record(message="Open?", mode="url", action="accept", content={"ignored": True})
    recorder.record(message="Sure?", mode="form", action="decline", tool="t")
    data = json.loads(path.read_text(encoding="ascii"))
    assert data["answers"][0] == {
        "action": "accept",
        "content": {"n": 1, "x": 0.5},
        "mode": "form",
        "message": "Name?",
        "server": "s",
    }
    assert "content" not in data["answers"][1], "URL answers carry no content"
    script = load_answers(path)
    picked = script.pick("Name?", "form")
    assert picked is not None and picked.entry.content == {"n": 1, "x": 0.5}
    assert isinstance(picked.entry.content["n"], int), "types survive the round trip"
    url = script.pick("Open?", "url")
    assert url is not None and url.entry.action == "accept"
    last = script.pick("Sure?", "form", tool="t")
    assert last is not None and last.entry.action == "decline"
    assert not list(path.parent.glob(".answers-*")), "no temporary files left behind"


def test_tui_answer_replay_and_accept_defaults_send_the_same_content(tmp_path: Path) -> None:
    """One rule for empty fields (``validate.left_empty``): an untouched ``""`` default is sent by
    the TUI, replayed from ``--save-answers`` and sent by ``--elicit accept-defaults`` alike; a
    null the user asked for and a number choice survive the round trip with their JSON types."""
    from mcp_tui.headless.elicit import ScriptedHandler
    from mcp_tui.schema import parse_requested_schema, validate_form
    from mcp_tui.schema.fields import NULL
    from mcp_tui.session.elicitation import ElicitationRequest

    form = parse_requested_schema(
        {
            "type": "object",
            "properties": {
                "note": {"type": "string", "default": ""},
                "nick": {"type": ["string", "null"]},
                "priority": {"type": "integer", "enum": [1, 2, 3], "default": 2},
            },
            "required": ["nick"],
        }
    )
    tui = validate_form(form, {"nick": NULL}).content  # untouched except nick, set to null
    assert tui == {"note": "", "nick": None, "priority": 2}
    path = tmp_path / "recorded.json"
    AnswerRecorder(path).record(message="Who?", mode="form", action="accept", content=tui)

    async def answer(handler: ScriptedHandler) -> dict[str, object] | None:
        request = ElicitationRequest("s", "Who?", "form", form=form)
        return (await handler.elicit(request)).content

    import asyncio
    import io

    replayed = asyncio.run(answer(ScriptedHandler(io.StringIO(), "t", load_answers(path))))
    assert replayed == tui
    assert replayed is not None and type(replayed["priority"]) is int
    optional = parse_requested_schema(
        {"type": "object", "properties": {"note": {"type": "string", "default": ""}}}
    )
    assert validate_form(optional, {}).content == {"note": ""}

    async def defaults() -> dict[str, object] | None:
        handler = ScriptedHandler(io.StringIO(), "t", policy="accept-defaults")
        return (
            await handler.elicit(ElicitationRequest("s", "Who?", "form", form=optional))
        ).content

    assert asyncio.run(defaults()) == {"note": ""}


SAMPLING_TOML = """
[[answers]]
action = "accept"
content = { name = "Ada" }

[[answers]]
action = "cancel"

[[answers]]
sampling = { text = "first reply" }

[[answers]]
match = "(?i)weather"
sampling = { text = "sunny", model = "forecaster", stop_reason = "maxTokens" }

[[answers]]
action = "decline"
mode = "sampling"
"""


def test_sampling_answers_never_take_a_form_answer(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(SAMPLING_TOML, encoding="utf-8")
    script = load_answers(path)
    first = script.pick("hello", "sampling")
    assert first is not None and first.entry.sampling is not None
    assert first.entry.answer == "accept" and first.entry.sampling.text == "first reply"
    assert (first.entry.sampling.model, first.entry.sampling.stop_reason) == ("human", "endTurn")
    weather = script.pick("What is the weather?", "sampling")
    assert weather is not None and weather.entry.sampling is not None
    assert (weather.entry.sampling.model, weather.entry.sampling.stop_reason) == (
        "forecaster",
        "maxTokens",
    )
    declined = script.pick("again", "sampling")
    assert declined is not None and declined.entry.answer == "decline"
    assert script.pick("more", "sampling") is None  # the form's answer is not spent on sampling
    form = script.pick("Your name?", "form")
    assert form is not None and form.entry.content == {"name": "Ada"}
    url = script.pick("Open this", "url")
    assert url is not None and url.entry.answer == "cancel"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[{"sampling": {"text": "x"}, "action": "decline"}]', "goes only with action accept"),
        ('[{"sampling": {"text": "x"}, "mode": "form"}]', "answers a sampling request"),
        ('[{"sampling": {"model": "m"}}]', "needs `text` (or `toolUse`)"),
        ('[{"sampling": {"text": " \\n\\t"}}]', "not a blank one"),
        ('[{"sampling": {"toolUse": {"input": {}}}}]', "toolUse.name: Field required"),
        ('[{"sampling": {"text": "x", "temperature": 1}}]', "temperature"),
        ('[{"mode": "sampling"}]', "needs `action`"),
        ('[{"action": "accept", "mode": "sampling", "content": {}}]', "not `content`"),
    ],
)
def test_bad_sampling_answers(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_answers(path)
    assert expected in str(caught.value)


def test_recorded_sampling_replies_replay(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    recorder = AnswerRecorder(path)
    reply = {
        "text": "hi",
        "model": "human",
        "stopReason": "toolUse",
        "toolUse": {"name": "get_weather", "input": {"city": "Oslo"}},
    }
    recorder.record(message="m", mode="sampling", action="accept", server="s", sampling=reply)
    recorder.record(message="n", mode="sampling", action="decline", server="s")
    script = load_answers(path)
    first = script.pick("m", "sampling")
    assert first is not None and first.entry.sampling is not None
    assert first.entry.sampling.text == "hi"
    use = first.entry.sampling.tool_use
    assert use is not None and (use.name, use.input) == ("get_weather", {"city": "Oslo"})
    second = script.pick("n", "sampling")
    assert second is not None and second.entry.answer == "decline"


def test_a_toml_recording_leaves_out_nulls_with_a_note_and_escapes_what_is_not_ascii(
    tmp_path: Path,
) -> None:
    import tomllib

    from mcp_tui.config.answers import AnswerRecorder, load_answers

    path = tmp_path / "rec.toml"
    notes = AnswerRecorder(path).record(
        message="Pick \u202eone\x1b[31m 😀",
        mode="form",
        action="accept",
        content={"nickname": None, "name": "Ada"},
    )
    assert notes == [
        "answer #1 in rec.toml: TOML has no null, so 'nickname' (sent as null) is left out; a "
        "replay fills it from the schema's default (a .json file keeps nulls)"
    ]
    text = path.read_text(encoding="ascii")  # only ASCII: no bidi or escape character in the file
    assert "\\u202E" in text and "\\u001B" in text and "\\U0001F600" in text
    answer = tomllib.loads(text)["answers"][0]
    assert answer["content"] == {"name": "Ada"}
    assert answer["message"] == "Pick \u202eone\x1b[31m 😀"
    assert load_answers(path).answers[0].entry.content == {"name": "Ada"}
    with pytest.raises(ValueError, match=r"\*\.toml .* \*\.json"):
        AnswerRecorder(tmp_path / "rec.txt")
