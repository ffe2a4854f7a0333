"""Answers files: scripted replies to elicitation requests, for ``mcp-tui call --answers FILE``.

Recorded in the TUI with ``mcp-tui --save-answers FILE`` (:class:`AnswerRecorder`) and replayed
unchanged in CI. The file is TOML or JSON; either way it holds a list of answers::

    # TOML                                   // JSON: {"answers": [...]} or just [...]
    [[answers]]                              {"answers": [
    action = "accept"                          {"action": "accept", "content": {"name": "Ada"}},
    content = { name = "Ada", age = 36 }       {"match": "(?i)delete", "action": "decline"}
                                             ]}
    [[answers]]
    match = "(?i)delete"
    action = "decline"

Keys of one answer:

- ``action``: ``accept``, ``decline`` or ``cancel`` (required, except with ``sampling``).
- ``content``: the fields to send with ``accept`` in form mode. Missing fields are filled from the
  schema's defaults and the whole is validated like a form the user filled in; an answer that does
  not fit is never sent.
- ``match``: a regular expression searched for in the request's message. Answers with ``match``
  apply to every request they match (they are reusable); the first matching one wins.
- Answers without ``match`` are used **in order**, each once, for requests no ``match`` answer took.
- ``sampling``: the reply to a ``sampling/createMessage`` request (the server asks for a model's
  reply): ``{text = "...", model = "human", stopReason = "endTurn"}`` (``model`` and
  ``stopReason`` are optional, with those defaults). It implies ``action = "accept"`` and
  ``mode = "sampling"``; ``{action = "decline", mode = "sampling"}`` refuses one.
- ``mode`` (``form``/``url``/``sampling``) and ``tool``: the answer applies only to requests of
  that mode, or made during a call of that tool. An answer with ``content`` is for forms only.
  Sampling requests take only answers with ``sampling`` or ``mode = "sampling"``, so an older
  file's answers are never spent on them; ``match`` is searched in their last message's text.
- ``message``, ``server``: what was asked, by whom (written by the recorder); informational only,
  a differing message is reported but does not stop the replay.

For URL-mode requests ``accept`` means consent only; mcp-tui never opens the URL when headless.

Pure: standard library and pydantic only.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, model_validator

from mcp_tui.config.text import (
    KeyPath,
    find_line,
    format_key_path,
    json_key_lines,
    load_jsonc,
    toml_key_lines,
)
from mcp_tui.errors import ConfigError

Action = Literal["accept", "decline", "cancel"]
Mode = Literal["form", "url", "sampling"]


class SamplingToolUse(BaseModel):
    """``toolUse = {name = "...", input = {...}}`` of a sampling answer."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = Field(min_length=1, description="One of the tools the request offers.")
    input: dict[str, Any] = Field(default_factory=dict, description="The tool's input.")


class SamplingAnswer(BaseModel):
    """The reply to a sampling request (``sampling = {...}`` of an answer)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)

    text: str = Field(default="", description="The reply's text (the assistant message).")
    model: str = Field(default="human", min_length=1, description="The model name reported.")
    stop_reason: str = Field(
        default="endTurn",
        min_length=1,
        validation_alias=AliasChoices("stopReason", "stop_reason"),
        description="endTurn, stopSequence, maxTokens (or any reason the server should see).",
    )
    tool_use: SamplingToolUse | None = Field(
        default=None,
        validation_alias=AliasChoices("toolUse", "tool_use"),
        description="Reply with a tool use (stop reason toolUse): {name, input}.",
    )

    @model_validator(mode="after")
    def _something(self) -> SamplingAnswer:
        if not self.text.strip() and self.tool_use is None:
            raise ValueError("a sampling answer needs `text` (or `toolUse`), and not a blank one")
        return self


class AnswerEntry(BaseModel):
    """One scripted answer, as written in the file."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    action: Action | None = Field(
        default=None, description="accept, decline or cancel (implied by sampling)."
    )
    content: dict[str, Any] | None = Field(
        default=None, description="With accept in form mode: the field values to send."
    )
    match: str | None = Field(
        default=None, description="A regular expression searched for in the request's message."
    )
    sampling: SamplingAnswer | None = Field(
        default=None, description="The reply to a sampling request (implies accept)."
    )
    mode: Mode | None = Field(default=None, description="Only for requests of this mode.")
    tool: str | None = Field(default=None, description="Only for requests during this tool.")
    message: str | None = Field(default=None, description="The recorded message (informational).")
    server: str | None = Field(default=None, description="The recorded server (informational).")

    @model_validator(mode="after")
    def _consistent(self) -> AnswerEntry:
        if self.sampling is not None:
            if self.action not in (None, "accept"):
                raise ValueError(f"`sampling` goes only with action accept, not {self.action}")
            if self.mode not in (None, "sampling") or self.content is not None:
                raise ValueError(
                    "`sampling` answers a sampling request: no `content` or other mode"
                )
        elif self.action is None:
            raise ValueError("an answer needs `action` (accept, decline or cancel) or `sampling`")
        if self.content is not None and self.mode == "sampling":
            raise ValueError("a sampling answer gives its reply in `sampling`, not `content`")
        if self.content is not None and self.action != "accept":
            raise ValueError(f"`content` goes only with action accept, not {self.action}")
        if self.content is not None and self.mode == "url":
            raise ValueError("a URL-mode answer has no `content` (accept means consent only)")
        if self.match is not None:
            try:
                re.compile(self.match)
            except re.error as exc:
                raise ValueError(f"`match` is not a valid regular expression: {exc}") from None
        return self

    @property
    def answer(self) -> Action:
        """The action this entry gives (``sampling`` means accept)."""
        return self.action or "accept"

    @property
    def kind(self) -> Mode | None:
        """The mode this entry is for, given or implied by ``content`` / ``sampling``."""
        if self.mode is not None:
            return self.mode
        if self.sampling is not None:
            return "sampling"
        return "form" if self.content is not None else None


@dataclass(frozen=True)
class ScriptedAnswer:
    """An :class:`AnswerEntry` with where it came from, for messages."""

    entry: AnswerEntry
    index: int
    line: int | None = None

    def where(self) -> str:
        at = f" (line {self.line})" if self.line is not None else ""
        return f"answer #{self.index + 1}{at}"


@dataclass
class AnswerScript:
    """The answers of one file, handed out per request; keeps track of the in-order ones."""

    path: Path
    answers: tuple[ScriptedAnswer, ...]
    _used: set[int] = field(default_factory=set)

    def pick(self, message: str, mode: Mode, tool: str | None = None) -> ScriptedAnswer | None:
        """The answer for one request, or ``None`` when the file has none left for it."""

        def fits(a: ScriptedAnswer) -> bool:
            e = a.entry
            kind = e.kind
            if mode == "sampling" and kind != "sampling":
                return False  # a form's or older file's answer is never spent on sampling
            return (kind is None or kind == mode) and (e.tool is None or e.tool == tool)

        for a in self.answers:
            if a.entry.match is not None and fits(a) and re.search(a.entry.match, message):
                return a
        for a in self.answers:
            if a.entry.match is None and a.index not in self._used and fits(a):
                self._used.add(a.index)
                return a
        return None

    @property
    def unused(self) -> list[ScriptedAnswer]:
        """In-order answers never handed out (worth a warning at the end of a run)."""
        return [a for a in self.answers if a.entry.match is None and a.index not in self._used]


def load_answers(path: str | os.PathLike[str]) -> AnswerScript:
    """Read an answers file (TOML, or JSON by extension or content); :class:`ConfigError` if bad."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(f"Answers file {file} does not exist.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"Answers file {file} cannot be read: {exc}.") from None
    lines: dict[KeyPath, int]
    data: Any
    head = text.lstrip()
    suffix = file.suffix.lower()
    is_json = suffix in (".json", ".jsonc") or (
        suffix != ".toml" and head.startswith(("{", "[", "//")) and not head.startswith("[[")
    )
    if is_json:
        data, clean = load_jsonc(text, f"Answers file {file}")
        lines = json_key_lines(clean)
        if isinstance(data, list):
            data = {"answers": data}
            lines = {("answers", *k): v for k, v in lines.items()}
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"Answers file {file} is not valid TOML: {exc}.") from None
        lines = toml_key_lines(text)

    def fail(key: KeyPath, message: str) -> ConfigError:
        line = find_line(lines, key)
        at = f", line {line}" if line is not None else ""
        return ConfigError(f"Answers file {file}{at}: {format_key_path(key)}: {message}.")

    if not isinstance(data, dict) or not isinstance(data.get("answers"), list):
        raise fail((), "expected a list of answers ([[answers]] in TOML, a list in JSON)")
    extra = [k for k in data if k != "answers"]
    if extra:
        raise fail((extra[0],), "unknown key (the file holds only `answers`)")
    answers: list[ScriptedAnswer] = []
    for index, raw in enumerate(data["answers"]):
        key: KeyPath = ("answers", index)
        try:
            entry = AnswerEntry.model_validate(raw)
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            loc = tuple(p for p in err["loc"] if isinstance(p, str | int))
            msg = str(err["msg"]).removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                msg = (
                    "unknown key (an answer has action, content, sampling, match, mode, tool, "
                    "message)"
                )
            raise fail((*key, *loc), msg) from None
        answers.append(ScriptedAnswer(entry, index, find_line(lines, key)))
    return AnswerScript(file, tuple(answers))


# ---- recording (``--save-answers``) -------------------------------------------------------------


class AnswerRecorder:
    """Writes every answer given in the TUI, in order, as an answers file ``call`` replays as is.

    The format is the one the file's name says: TOML for ``.toml`` (``[[answers]]`` tables),
    JSON for ``.json``; any other name is refused (:func:`answers_format`), since ``call`` reads
    a ``.toml`` file as TOML. Both are written as ASCII with every other character escaped, so a
    server's message cannot hide bidi or control characters in the file. TOML has no null: a
    null value (a nullable field sent empty) is left out of a TOML answer, and :meth:`record`
    returns a note saying so (the replay then fills that field from the schema's default). The
    file is rewritten atomically after each answer, so it is always complete and valid even if
    the app is killed.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.format = answers_format(self.path)
        self.entries: list[dict[str, Any]] = []

    def record(
        self,
        *,
        message: str,
        mode: Mode,
        action: Action,
        content: dict[str, Any] | None = None,
        server: str | None = None,
        tool: str | None = None,
        sampling: dict[str, Any] | None = None,
    ) -> list[str]:
        """Append one answer and rewrite the file. ``content`` only with accept in form mode,
        ``sampling`` (text, model, stopReason) only with accept in sampling mode. Returns notes
        for the person (values TOML cannot hold)."""
        entry: dict[str, Any] = {"action": action}
        if action == "accept" and mode == "form" and content is not None:
            entry["content"] = content
        if action == "accept" and mode == "sampling" and sampling is not None:
            entry = {"sampling": sampling}
        entry["mode"] = mode
        entry["message"] = message
        if server is not None:
            entry["server"] = server
        if tool is not None:
            entry["tool"] = tool
        notes: list[str] = []
        if self.format == "toml":
            dropped: list[str] = []
            entry = _without_nulls(entry, "", dropped)
            if dropped:
                notes.append(
                    f"answer #{len(self.entries) + 1} in {self.path.name}: TOML has no null, so "
                    f"{', '.join(dropped)} (sent as null) is left out; a replay fills it from "
                    "the schema's default (a .json file keeps nulls)"
                )
        self.entries.append(entry)
        self._write()
        return notes

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.format == "toml":
            text = "".join(_toml_table(entry) for entry in self.entries)
        else:
            text = json.dumps({"answers": self.entries}, indent=2, ensure_ascii=True) + "\n"
        fd, tmp = tempfile.mkstemp(prefix=".answers-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(text)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def answers_format(path: str | os.PathLike[str]) -> Literal["toml", "json"]:
    """The format a recorded answers file is written in, from its name; ``ValueError`` naming
    the choices for any other name."""
    suffix = Path(path).suffix.lower()
    if suffix == ".toml":
        return "toml"
    if suffix == ".json":
        return "json"
    raise ValueError(
        f"{os.fspath(path)!r} does not say its format: name it *.toml (TOML, [[answers]] "
        "tables) or *.json (JSON); `mcp-tui call --answers` reads it by that name"
    )


def _without_nulls(value: Any, where: str, dropped: list[str]) -> Any:
    """``value`` without ``None`` anywhere (TOML cannot write it); their paths go to ``dropped``."""
    if isinstance(value, dict):
        kept = {}
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            if item is None:
                dropped.append(repr(path.removeprefix("content.")))
            else:
                kept[key] = _without_nulls(item, path, dropped)
        return kept
    if isinstance(value, list):
        if any(item is None for item in value):
            dropped.append(f"a null in {where!r}")
        return [_without_nulls(item, where, dropped) for item in value if item is not None]
    return value


def _toml_table(entry: dict[str, Any]) -> str:
    """One ``[[answers]]`` table; nested values as inline tables and arrays."""
    lines = ["[[answers]]"]
    lines += [f"{_toml_key(key)} = {_toml_value(value)}" for key, value in entry.items()]
    return "\n".join(lines) + "\n\n"


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{" + items + "}"
    raise ValueError(f"cannot write {type(value).__name__} to TOML")


#: TOML's short escapes; every other character outside printable ASCII is ``\uXXXX``.
_TOML_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _toml_string(text: str) -> str:
    """A TOML basic string in ASCII: quotes, backslashes and control, bidi and other non-ASCII
    characters escaped (``\\UXXXXXXXX`` above the BMP: TOML escapes are code points)."""
    out = []
    for char in text:
        if char in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[char])
        elif " " <= char <= "~":
            out.append(char)
        elif 0xD800 <= ord(char) <= 0xDFFF:  # a lone surrogate is no code point
            out.append("\\uFFFD")
        elif ord(char) > 0xFFFF:
            out.append(f"\\U{ord(char):08X}")
        else:
            out.append(f"\\u{ord(char):04X}")
    return '"' + "".join(out) + '"'
