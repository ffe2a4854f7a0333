"""Answers files: both formats, order and message matching, errors with line, the recorder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_tui.answers import AnswerRecorder, load_answers
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
