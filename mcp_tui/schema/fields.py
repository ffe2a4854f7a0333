"""The typed form model that a requested schema becomes.

``parse.py`` builds a :class:`FormSpec` from a raw JSON Schema dict; ``validate.py`` turns raw
widget input into exactly typed ``content``. The UI maps each :class:`FieldKind` to a widget in one
place (``mcp_tui.ui.widgets.form.form_fields``); these classes carry no widget code, and they import
nothing of the engine above them: ``describe.py`` words a field's rules, ``formats.py`` and
``rules.py`` check them, and all of them build on this model, never the other way round.

Every string in here (names, titles, descriptions, option labels and values) came from a server and
is untrusted: display it only through ``mcp_tui.untrusted`` / ``mcp_tui.ui.literal``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, Literal, TypeAlias

#: A JSON value as it goes on the wire in ``ElicitResult.content`` (``None`` is JSON ``null``,
#: sent only for a nullable field the user set to null; a list of numbers comes from a LIST field).
ContentValue: TypeAlias = str | int | float | bool | list[str] | list[int | float] | None


class _Null(Enum):
    NULL = "null"

    def __repr__(self) -> str:
        return "NULL"


#: The raw value of a nullable field the user explicitly set to null.
NULL: Final = _Null.NULL
Null = Literal[_Null.NULL]

#: What a widget hands back for one field, before validation:
#: text fields (string, number, integer) -> ``str``; boolean -> ``bool``, or ``None`` for an
#: optional boolean the user never set; single select -> the chosen option's ``value`` (its key
#: text, also for number choices) or ``None``; multi select -> the chosen options' ``value``s in
#: any order; list -> the text of each item row, in order; a nullable field set to null ->
#: :data:`NULL`; a fixed (const) field -> anything (its value is always sent).
RawValue: TypeAlias = str | bool | list[str] | Null | None


class FieldKind(Enum):
    """What kind of widget a field needs."""

    TEXT = "text"  # string, possibly with a format
    NUMBER = "number"  # JSON number: keeps its decimals
    INTEGER = "integer"  # JSON integer: sent as 30, never 30.0
    BOOLEAN = "boolean"
    SELECT = "select"  # one of several options (enum, oneOf, enum + enumNames), also numbers
    MULTI_SELECT = "multi_select"  # array of options (items.enum or items.anyOf)
    LIST = "list"  # array of free items (strings, numbers or integers): a list editor
    CONST = "const"  # a fixed value (``const``): shown, not editable, always sent


class TextFormat(Enum):
    """The string formats of the spec; any other ``format`` is ignored with a note."""

    EMAIL = "email"
    URI = "uri"
    DATE = "date"
    DATE_TIME = "date-time"


@dataclass(frozen=True, slots=True)
class Option:
    """One choice: ``value`` (the const) is sent, ``label`` (the title) is shown.

    For a number choice (``{"type": "integer", "enum": [1, 2]}``) ``value`` is the number's text
    (the key widgets and answers use) and ``number`` the JSON value that is sent.
    """

    value: str
    label: str
    number: int | float | None = None

    @property
    def sent(self) -> str | int | float:
        """What goes into ``content`` when this option is chosen."""
        return self.value if self.number is None else self.number


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One property of the requested schema, in a form the UI can render directly."""

    name: str  # the property name: the key in ``content``
    kind: FieldKind
    title: str  # the schema's ``title``, or the property name when there is none
    description: str | None = None
    required: bool = False
    #: JSON ``null`` is also valid (``Optional[T]``, ``type: [T, "null"]``): the field renders as
    #: ``T``; null is sent only when the user asks for it (see ``validate``).
    nullable: bool = False
    #: The schema's default, already checked against the field's own rules, in wire type.
    #: ``has_default`` tells "no default" apart from a default that is falsy.
    default: ContentValue | None = None
    has_default: bool = False
    # TEXT
    format: TextFormat | None = None
    min_length: int | None = None
    max_length: int | None = None
    #: A ``pattern`` (outside the spec's subset) that compiled in the linear-time engine; ``None``
    #: when absent or refused (a refusal is in ``notes``).
    pattern: str | None = None
    # NUMBER / INTEGER
    minimum: int | float | None = None
    maximum: int | float | None = None
    #: ``exclusiveMinimum`` / ``exclusiveMaximum`` (2020-12 numeric form), common in tool schemas
    #: generated from pydantic ``gt``/``lt``.
    exclusive_minimum: int | float | None = None
    exclusive_maximum: int | float | None = None
    #: ``multipleOf`` (> 0), checked exactly as jsonschema checks it so both always agree.
    multiple_of: int | float | None = None
    # SELECT / MULTI_SELECT
    options: tuple[Option, ...] = ()
    #: The JSON type of a SELECT's values: "string", or "integer"/"number" for number choices.
    choice_type: str = "string"
    # MULTI_SELECT / LIST
    min_items: int | None = None
    max_items: int | None = None
    # LIST: the rules of one item (a TEXT, NUMBER or INTEGER field named like the list)
    item: FieldSpec | None = None
    unique_items: bool = False
    # CONST: the value always sent
    const: str | int | float | bool | None = None
    #: The schema's first ``examples`` entry, as text (a placeholder only; never sent).
    example: str | None = None
    #: Notes for the user and the server's author: a dropped default, an ignored keyword, a refused
    #: pattern. Never fatal.
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FormSpec:
    """A whole requested schema: fields in the schema's property order."""

    fields: tuple[FieldSpec, ...]
    title: str | None = None
    description: str | None = None
    #: Form-level notes (unknown keywords, ``$schema`` dialects, ...), never fatal.
    notes: tuple[str, ...] = ()
    #: The schema exactly as received; the final ``content`` is checked against it.
    schema: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_confirmation(self) -> bool:
        """An empty ``properties``: the form is just Accept / Decline / Cancel."""
        return not self.fields

    def field_named(self, name: str) -> FieldSpec:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class FormResult:
    """The outcome of validating a whole form.

    ``content`` is set only when there are no errors; ``errors`` maps a property name to one human
    message ("Required", "At least 3 characters", ...), in schema order.
    """

    content: dict[str, ContentValue] | None
    errors: dict[str, str]

    @property
    def ok(self) -> bool:
        return self.content is not None and not self.errors
