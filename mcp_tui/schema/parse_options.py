"""The choices of a select or multi-select: ``enum`` (+ ``enumNames``) or ``{const, title}`` lists.

:class:`OptionParser` is the base of :class:`~mcp_tui.schema.parse_fields.FieldParser`: it holds the
problem/note bookkeeping shared by every check of one property, and turns a list of choices into
:class:`~mcp_tui.schema.fields.Option` s, reporting every bad entry with its index in the path.
"""

from __future__ import annotations

import math

from mcp_tui.errors import SchemaProblem
from mcp_tui.schema.fields import Option
from mcp_tui.schema.formats import format_number, is_huge
from mcp_tui.schema.limits import MAX_OPTION_LENGTH, MAX_OPTIONS, MAX_TITLE_LENGTH
from mcp_tui.schema.rules import json_type, plural, shown

MAX_NOTES_PER_FIELD = 20


class OptionParser:
    """Problems and notes for one property, and the parsing of its choices."""

    def __init__(self, name: str, path: str, problems: list[SchemaProblem]) -> None:
        self.name = name
        self.path = path
        self.problems = problems
        self.notes: list[str] = []
        self._start = len(problems)
        #: The JSON type of the choices being read: "string", "integer" or "number".
        self.choice_type = "string"

    def problem(self, message: str, sub: str = "") -> None:
        self.problems.append(SchemaProblem(f"{self.path}{sub}", message))

    def note(self, message: str) -> None:
        if len(self.notes) < MAX_NOTES_PER_FIELD:
            self.notes.append(message)
        elif len(self.notes) == MAX_NOTES_PER_FIELD:
            self.notes.append("… more notes left out")

    @property
    def failed(self) -> bool:
        return len(self.problems) > self._start

    # ------------------------------------------------------------ options

    def _enum_options(self, values: object, names: object, sub: str) -> tuple[Option, ...]:
        if not self._option_list(values, f"{sub}.enum"):
            return ()
        assert isinstance(values, list)
        labels: list[object] = [self._key(v) for v in values]
        if names is not None:
            if not isinstance(names, list):
                self.problem(f"must be a list, got {json_type(names)}", f"{sub}.enumNames")
            else:
                # As the Inspector and fast-agent do: a choice without a name shows its value.
                counted = f"has {plural(len(names), 'name')} for {plural(len(values), 'choice')}"
                if len(names) < len(values):
                    left = len(values) - len(names)
                    self.note(f"`enumNames` {counted}: the other {left} shown as their values")
                elif len(names) > len(values):
                    extra = len(names) - len(values)
                    self.note(f"`enumNames` {counted}: the extra {extra} ignored")
                for i, label in enumerate(names[: len(values)]):
                    labels[i] = label
                    self._label(label, f"{sub}.enumNames[{i}]")
        for i, value in enumerate(values):
            self._value(value, f"{sub}.enum[{i}]")
        return self._finish(list(zip(values, labels, strict=True)), f"{sub}.enum")

    def _const_options(self, entries: object, sub: str) -> tuple[Option, ...]:
        if not self._option_list(entries, sub):
            return ()
        assert isinstance(entries, list)
        pairs: list[tuple[object, object]] = []
        for i, entry in enumerate(entries):
            where = f"{sub}[{i}]"
            if not isinstance(entry, dict) or "const" not in entry:
                self.problem('each choice must be {"const": ..., "title": ...}', where)
                continue
            value = entry["const"]
            label = entry.get("title", self._key(value))
            self._value(value, f"{where}.const")
            if "title" in entry:
                self._label(label, f"{where}.title")
            pairs.append((value, label))
        return self._finish(pairs, sub)

    def _option_list(self, values: object, sub: str) -> bool:
        if not isinstance(values, list):
            self.problem(f"must be a list of choices, got {json_type(values)}", sub)
            return False
        if not values:
            self.problem("has no choices", sub)
            return False
        if len(values) > MAX_OPTIONS:
            self.problem(f"has {len(values):,} choices; at most {MAX_OPTIONS:,} are shown", sub)
            return False
        return True

    def _value(self, value: object, where: str) -> None:
        if self.choice_type != "string":
            if isinstance(value, bool) or not isinstance(value, int | float):
                self.problem(f"a choice's value must be a number, got {json_type(value)}", where)
            elif isinstance(value, float) and not math.isfinite(value):
                self.problem(f"a choice's value must be finite, got {shown(value)}", where)
            elif is_huge(value):
                self.problem("a choice's value has more than 300 digits", where)
            elif self.choice_type == "integer" and not (
                isinstance(value, int) or value.is_integer()
            ):
                self.problem(f"a choice's value must be a whole number, got {shown(value)}", where)
        elif not isinstance(value, str):
            self.problem(f"a choice's value must be a string, got {json_type(value)}", where)
        elif len(value) > MAX_OPTION_LENGTH:
            self.problem(f"a choice's value is longer than {MAX_OPTION_LENGTH:,} characters", where)

    def _key(self, value: object) -> object:
        """The text a number choice is known by (``1`` for ``1`` and ``1.0`` in an integer
        select); strings and anything unusable are returned as they are."""
        if self.choice_type == "string" or isinstance(value, bool):
            return value
        if isinstance(value, float) and math.isfinite(value) and not is_huge(value):
            if self.choice_type == "integer" and value.is_integer():
                return str(int(value))
            return format_number(value)
        if isinstance(value, int) and not is_huge(value):
            return str(value)
        return value

    def _label(self, label: object, where: str) -> None:
        if not isinstance(label, str):
            self.problem(f"a choice's title must be a string, got {json_type(label)}", where)
        elif len(label) > MAX_TITLE_LENGTH:
            self.problem(f"a choice's title is longer than {MAX_TITLE_LENGTH:,} characters", where)

    def _finish(self, pairs: list[tuple[object, object]], sub: str) -> tuple[Option, ...]:
        if self.failed:
            return ()
        seen: set[str] = set()
        duplicates: list[str] = []
        options: list[Option] = []
        for value, label in pairs:
            assert isinstance(label, str)
            key = self._key(value)
            assert isinstance(key, str)
            if key in seen:
                duplicates.append(key)
            seen.add(key)
            if isinstance(value, str):
                options.append(Option(value=value, label=label))
            else:
                assert isinstance(value, int | float)
                number = int(value) if self.choice_type == "integer" else value
                options.append(Option(value=key, label=label, number=number))
        if duplicates:
            listed = ", ".join(shown(d) for d in duplicates[:5])
            more = f" and {len(duplicates) - 5:,} more" if len(duplicates) > 5 else ""
            self.problem(f"duplicate choices: {listed}{more}", sub)
        return tuple(options)
