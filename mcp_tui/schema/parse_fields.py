"""One property of a requested schema → one :class:`FieldSpec`, or problems with their paths.

Called by :mod:`mcp_tui.schema.parse` for each entry of ``properties`` (and by the tool-arguments
tree for each scalar). Every check appends to ``problems`` and carries on, so the user sees every
reason a schema is refused at once. The kind is decided, and the keywords it does not render
swept, in :mod:`mcp_tui.schema.parse_kinds`; the choices are read by the
:class:`~mcp_tui.schema.parse_options.OptionParser` base; this module reads each kind's rules and
the default.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from mcp_tui.schema import keywords as kw
from mcp_tui.schema.fields import FieldKind, FieldSpec, Option, TextFormat
from mcp_tui.schema.formats import (
    compile_pattern,
    format_number,
    is_huge,
    number_to_text,
    parse_number_text,
)
from mcp_tui.schema.limits import (
    MAX_DEFAULT_LENGTH,
    MAX_DESCRIPTION_LENGTH,
    MAX_STRING_BOUND,
    MAX_TITLE_LENGTH,
)
from mcp_tui.schema.normalize import split_nullable
from mcp_tui.schema.parse_kinds import CHOICE_KEYS, kind_of, name_of, sweep
from mcp_tui.schema.parse_options import OptionParser
from mcp_tui.schema.rules import check_typed, integer_bounds, json_type, shown
from mcp_tui.untrusted import one_line


class FieldParser(OptionParser):
    """Parses one property; ``problems`` is shared with the whole schema."""

    # ------------------------------------------------------------ entry point

    def parse(self, prop: object, required: bool) -> FieldSpec | None:
        if not isinstance(prop, dict):
            self.problem(f"must be a schema object, got {json_type(prop)}")
            return None
        split = split_nullable(prop, self.path)
        if split.problems:
            self.problems.extend(split.problems)
            return None
        prop = dict(split.schema)
        references = sorted(kw.REFERENCES & prop.keys())
        for key in references:
            self.problem(f"`{key}` is not supported: every property must be written out in full")
        title = self._text(prop, "title", MAX_TITLE_LENGTH)
        description = self._text(prop, "description", MAX_DESCRIPTION_LENGTH)
        kind = None if references else kind_of(prop, self)
        if kind is None:
            return None
        sweep(prop, kind, self)
        spec = FieldSpec(
            name=self.name,
            kind=kind,
            title=title or self.name,
            description=description,
            required=required,
            nullable=split.nullable,
        )
        if kind is FieldKind.TEXT:
            spec = self._text_rules(prop, spec)
        elif kind in (FieldKind.NUMBER, FieldKind.INTEGER):
            spec = self._number_rules(prop, spec)
        elif kind is FieldKind.SELECT:
            spec = replace(spec, options=self._single_options(prop), choice_type=self.choice_type)
        elif kind is FieldKind.MULTI_SELECT:
            spec = self._multi_rules(prop, spec)
        elif kind is FieldKind.LIST:
            spec = self._list_rules(prop, spec)
        elif kind is FieldKind.CONST:
            spec = self._const_rules(prop, spec)
        if self.failed:
            return None
        spec = replace(spec, example=_example(prop.get("examples")))
        spec = self._default(prop, spec)
        return replace(spec, notes=tuple(self.notes))

    def _text(self, prop: dict[str, Any], key: str, limit: int) -> str | None:
        value = prop.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            self.problem(f"`{key}` must be a string, got {json_type(value)}")
            return None
        if len(value) > limit:
            self.problem(f"`{key}` is longer than {limit:,} characters")
            return None
        return value

    # ------------------------------------------------------------ kinds

    def _count(self, prop: dict[str, Any], key: str) -> int | None:
        value = prop.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(f"`{key}` must be a whole number, got {json_type(value)}")
            return None
        if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
            self.problem(f"`{key}` must be a whole number, got {shown(value)}")
            return None
        if value < 0 or value > MAX_STRING_BOUND:
            self.problem(f"`{key}` must be between 0 and {MAX_STRING_BOUND:,}")
            return None
        return int(value)

    def _text_rules(self, prop: dict[str, Any], spec: FieldSpec) -> FieldSpec:
        lo, hi = self._count(prop, "minLength"), self._count(prop, "maxLength")
        if lo is not None and hi is not None and lo > hi:
            self.problem(f"minLength ({lo:,}) is greater than maxLength ({hi:,})")
        fmt: TextFormat | None = None
        raw_format = prop.get("format")
        if raw_format is not None:
            if not isinstance(raw_format, str):
                self.note(f"`format` is not a string ({json_type(raw_format)}); ignored")
            else:
                try:
                    fmt = TextFormat(raw_format)
                except ValueError:
                    self.note(f"unknown format {shown(raw_format)} ignored")
        pattern: str | None = None
        raw_pattern = prop.get("pattern")
        if raw_pattern is not None:
            if not isinstance(raw_pattern, str):
                self.note(f"`pattern` is not a string ({json_type(raw_pattern)}); ignored")
            else:
                program, why = compile_pattern(raw_pattern)
                if program is None:
                    self.note(f"pattern {one_line(raw_pattern, limit=80)} is not checked: {why}")
                else:
                    pattern = raw_pattern
        return replace(spec, min_length=lo, max_length=hi, format=fmt, pattern=pattern)

    def _bound(self, prop: dict[str, Any], key: str) -> int | float | None:
        value = prop.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(f"`{key}` must be a number, got {json_type(value)}")
            return None
        if isinstance(value, float) and not math.isfinite(value):
            self.problem(f"`{key}` must be a finite number, got {shown(value)}")
            return None
        if is_huge(value):
            self.problem(f"`{key}` has more than 300 digits")
            return None
        return value

    def _number_rules(self, prop: dict[str, Any], spec: FieldSpec) -> FieldSpec:
        spec = replace(
            spec,
            minimum=self._bound(prop, "minimum"),
            maximum=self._bound(prop, "maximum"),
            exclusive_minimum=self._bound(prop, "exclusiveMinimum"),
            exclusive_maximum=self._bound(prop, "exclusiveMaximum"),
            multiple_of=self._bound(prop, "multipleOf"),
        )
        if spec.multiple_of is not None and spec.multiple_of <= 0:
            self.problem("`multipleOf` must be greater than 0")
        if spec.minimum is not None and spec.maximum is not None and spec.minimum > spec.maximum:
            self.problem(
                f"minimum ({format_number(spec.minimum)}) is greater than "
                f"maximum ({format_number(spec.maximum)})"
            )
        elif spec.kind is FieldKind.INTEGER:
            lo, hi = integer_bounds(spec)
            if lo is not None and hi is not None and lo > hi:
                self.problem("no whole number lies between the minimum and the maximum")
        else:
            lows = [(spec.minimum, False), (spec.exclusive_minimum, True)]
            highs = [(spec.maximum, False), (spec.exclusive_maximum, True)]
            for low, low_ex in lows:
                for high, high_ex in highs:
                    if low is None or high is None:
                        continue
                    if low > high or (low == high and (low_ex or high_ex)):
                        self.problem("no number lies between the minimum and the maximum")
                        return spec
        return spec

    def _single_options(self, prop: dict[str, Any]) -> tuple[Option, ...]:
        present = [k for k in CHOICE_KEYS if k in prop]
        if len(present) > 1:
            self.problem(f"has both `{present[0]}` and `{present[1]}`: give the choices once")
            return ()
        for key in ("minLength", "maxLength", "pattern", "format"):
            if key in prop:
                self.note(f"`{key}` is not used for a list of choices")
        if "enum" in prop:
            return self._enum_options(prop["enum"], prop.get("enumNames"), "")
        if "enumNames" in prop:
            self.note("`enumNames` without `enum` ignored")
        key = present[0] if present else "oneOf"
        return self._const_options(prop.get(key), f".{key}")

    def _multi_rules(self, prop: dict[str, Any], spec: FieldSpec) -> FieldSpec:
        items = prop.get("items")
        options: tuple[Option, ...] = ()
        if items is None:
            self.problem("a list needs `items` with its choices")
        elif not isinstance(items, dict):
            self.problem(f"must be a schema object, got {json_type(items)}", ".items")
        else:
            options = self._item_options(items)
        if "enum" in prop and options:
            self._repeated_choices(prop["enum"], options)
        lo, hi = self._count(prop, "minItems"), self._count(prop, "maxItems")
        if lo is not None and hi is not None and lo > hi:
            self.problem(f"minItems ({lo:,}) is greater than maxItems ({hi:,})")
        elif options and lo is not None and lo > len(options):
            self.problem(f"minItems ({lo:,}) is more than the number of choices ({len(options):,})")
        return replace(spec, options=options, min_items=lo, max_items=hi)

    def _repeated_choices(self, top: object, options: tuple[Option, ...]) -> None:
        """A top-level ``enum`` beside ``items``' choices (some generators repeat them there):
        ignored when it lists the same choices, refused with the difference when not."""
        values = [o.value for o in options]
        if not isinstance(top, list):
            self.problem(f"must be a list of choices, got {json_type(top)}", ".enum")
            return
        extra = [shown(v) for v in top if v not in values]
        missing = [shown(v) for v in values if v not in top]
        if not extra and not missing:
            self.note("`enum` beside `items.enum` repeats the choices; ignored")
            return
        said = [f"{', '.join(extra[:3])} {'is' if len(extra) == 1 else 'are'} not one of them"]
        said = said if extra else []
        if missing:
            said.append(f"{', '.join(missing[:3])} {'is' if len(missing) == 1 else 'are'} missing")
        self.problem(
            f"lists other choices than `items.enum` ({', '.join(said)}); the choices of a "
            "multi-select are its `items`",
            ".enum",
        )

    def _item_options(self, items: dict[str, Any]) -> tuple[Option, ...]:
        references = sorted(kw.REFERENCES & items.keys())
        for key in references:
            self.problem(f"`{key}` is not supported", ".items")
        if references:
            return ()
        t = items.get("type")
        if t is not None and t != "string":
            if t == "object":
                self.problem("arrays of objects are not supported", ".items")
            else:
                if any(k in items for k in CHOICE_KEYS):
                    self.problem(f"choices in a list must be strings, not {shown(t)}", ".items")
                else:
                    self.problem(
                        f"lists of {shown(t)} are not supported: only text, numbers or choices",
                        ".items",
                    )
            return ()
        present = [k for k in ("enum", "anyOf", "oneOf") if k in items]
        if not present:
            self.problem(
                '`items` needs a "type" (string, number or integer) or choices (`enum`, `anyOf`)',
                ".items",
            )
            return ()
        if len(present) > 1:
            self.problem(f"has both `{present[0]}` and `{present[1]}`", ".items")
            return ()
        for key in items:
            if key not in ("type", "enum", "enumNames", "anyOf", "oneOf") and key not in kw.SILENT:
                if key in kw.STRUCTURAL:
                    self.problem(f"`{name_of(key)}` is not supported in a form", ".items")
                elif key not in kw.REFERENCES:
                    self.note(f"`items.{name_of(key)}` is not shown in the form")
        if present[0] == "enum":
            return self._enum_options(items["enum"], items.get("enumNames"), ".items")
        return self._const_options(items[present[0]], f".items.{present[0]}")

    def _list_rules(self, prop: dict[str, Any], spec: FieldSpec) -> FieldSpec:
        """A list of free strings or numbers: each item has the rules of one plain field."""
        items = prop["items"]
        item_parser = FieldParser(self.name, f"{self.path}.items", self.problems)
        item = item_parser.parse({k: v for k, v in items.items() if k != "default"}, True)
        for note in item_parser.notes:
            self.note(f"items: {note}")
        if item is None:
            return spec
        if item.kind not in (FieldKind.TEXT, FieldKind.NUMBER, FieldKind.INTEGER):
            self.problem("only lists of free text or numbers are supported", ".items")
            return spec
        if item.nullable:
            self.problem("items that may be null are not supported", ".items")
            return spec
        lo, hi = self._count(prop, "minItems"), self._count(prop, "maxItems")
        if lo is not None and hi is not None and lo > hi:
            self.problem(f"minItems ({lo:,}) is greater than maxItems ({hi:,})")
        unique = prop.get("uniqueItems") is True
        return replace(spec, item=item, min_items=lo, max_items=hi, unique_items=unique)

    def _const_rules(self, prop: dict[str, Any], spec: FieldSpec) -> FieldSpec:
        """A fixed value: a string, number or boolean that matches the declared ``type``."""
        value = prop["const"]
        if value is None or isinstance(value, list | dict):
            self.problem(
                f"a fixed value must be text, a number or true/false, not {json_type(value)}"
            )
            return spec
        if isinstance(value, float) and not math.isfinite(value):
            self.problem(f"a fixed value must be finite, got {shown(value)}")
            return spec
        if isinstance(value, str) and len(value) > MAX_DEFAULT_LENGTH:
            self.problem(f"a fixed value is longer than {MAX_DEFAULT_LENGTH:,} characters")
            return spec
        t = prop.get("type")
        if t is not None and not _has_type(value, t):
            self.problem(f"`const` {shown(value)} is not of type {shown(t)}")
            return spec
        return replace(spec, const=value)

    # ------------------------------------------------------------ default

    def _default(self, prop: dict[str, Any], spec: FieldSpec) -> FieldSpec:
        if "default" not in prop or spec.kind is FieldKind.CONST:
            return spec
        value = prop["default"]
        if isinstance(value, str) and len(value) > MAX_DEFAULT_LENGTH:
            self.note(f"default dropped: longer than {MAX_DEFAULT_LENGTH:,} characters")
            return spec
        if value is None:
            self.note("default null ignored")
            return spec
        checked, why = check_typed(spec, value)
        if checked is None:
            self.note(f"default {shown(value)} dropped: {why}")
            return spec
        if isinstance(checked, int | float) and not isinstance(checked, bool):
            integer = spec.kind is FieldKind.INTEGER
            if parse_number_text(number_to_text(checked), integer=integer) != checked:
                self.note(f"default {shown(value)} dropped: too large to edit as text")
                return spec
        return replace(spec, default=checked, has_default=True)


def _has_type(value: object, t: object) -> bool:
    types = t if isinstance(t, list) else [t]
    for name in types:
        if name == "string" and isinstance(value, str):
            return True
        if name == "boolean" and isinstance(value, bool):
            return True
        if isinstance(value, bool):
            continue
        if name == "number" and isinstance(value, int | float):
            return True
        if name == "integer" and (
            isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        ):
            return True
    return False


def _example(examples: object) -> str | None:
    """The first of ``examples`` as placeholder text, when it is a short string or a number."""
    if not isinstance(examples, list) or not examples:
        return None
    first = examples[0]
    if isinstance(first, bool) or not isinstance(first, str | int | float):
        return None
    text = first if isinstance(first, str) else format_number(first)
    return one_line(text, limit=60) if text and len(text) <= 200 else None
