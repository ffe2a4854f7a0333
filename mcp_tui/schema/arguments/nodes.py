"""The tree a tool's ``inputSchema`` becomes: one node per value the user can give.

Tool arguments are not limited to the flat elicitation subset: real tools take nested objects,
lists of objects, ``anyOf`` variants, maps and recursive ``$ref`` s. Each node says *what* a value
is (an object with properties, a list of items, one of several variants, a scalar field ...); the
mutable values the user edits live apart in :mod:`.state`, so a widget can be unmounted (a
collapsed section, a page not shown yet) without losing anything, and JSON <-> form conversion is
plain Python. Scalars reuse the flat engine's :class:`~mcp_tui.schema.fields.FieldSpec` (its
parsing, rules and messages), so a nested string field behaves exactly like a flat one.

Every string here came from a server and is untrusted: display it only as literal text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from mcp_tui.schema.fields import FieldKind, FieldSpec, Option

#: A path into the arguments: property names and item indices (a JSON Pointer's parts).
Path: TypeAlias = tuple[str | int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Base:
    """What every node has: where it sits, how it is labelled, whether it must be given."""

    #: The property name in the parent object ("" for the root, an array item or a variant).
    name: str = ""
    title: str = ""
    description: str | None = None
    required: bool = False
    #: ``null`` is accepted (``anyOf [T, null]``, ``type: [T, "null"]``): empty sends ``null``
    #: when required, nothing when optional.
    nullable: bool = False
    #: The schema's ``default``, as given (``has_default`` tells a ``null`` default apart).
    default: Any = None
    has_default: bool = False
    #: Notes for the user: an ignored keyword, a part shown as JSON text, never fatal.
    notes: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return self.title or self.name


@dataclass(frozen=True, slots=True, kw_only=True)
class Leaf(Base):
    """A scalar (or a multi-select of string choices): one flat-engine field.

    ``choices`` is set for an ``enum`` of non-string values (``[1, 2, 3]``, ``[true, "auto"]``):
    the field is then a select whose option values are the indices into ``choices``.
    """

    field: FieldSpec
    choices: tuple[Any, ...] | None = None
    #: The schema's first ``examples`` entry, shown as the placeholder (never sent by itself).
    example: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Const(Base):
    """A fixed value (``const``, or a one-value ``enum``): shown, always sent when required."""

    value: Any


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectNode(Base):
    """Named properties in schema order, and maybe extra key/value entries (a map)."""

    properties: tuple[Node, ...] = ()
    #: ``additionalProperties`` (or ``patternProperties``') schema: extra keys as key/value rows.
    extra: Node | None = None
    min_properties: int | None = None
    max_properties: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ArrayNode(Base):
    """A list of items of one schema, with add / remove / move."""

    items: Node
    min_items: int | None = None
    max_items: int | None = None
    unique: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant(Base):
    """``anyOf`` / ``oneOf`` (or a list of types): the user picks one choice, then fills it."""

    choices: tuple[Node, ...] = ()
    #: A short label per choice, for the picker.
    labels: tuple[str, ...] = ()
    #: ``oneOf``: the value must fit exactly one choice.
    exclusive: bool = False

    def picker(self) -> FieldSpec:
        """The select field that picks a choice (option values are the choices' indices)."""
        return FieldSpec(
            name=self.name,
            kind=FieldKind.SELECT,
            title=self.label or "variant",
            description=self.description,
            required=self.required and not self.nullable,
            options=tuple(Option(str(i), label) for i, label in enumerate(self.labels)),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class JsonValue(Base):
    """A value the form cannot break down (``{}``, ``allOf``, ``not`` ...): typed as JSON text,
    checked against the server's schema on send. ``why`` says why it is not a form."""

    why: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Recursive(Base):
    """A ``$ref`` back to a schema being built (a tree, a linked list): shown collapsed, built
    one level more each time the user expands it, up to a depth."""

    target: str = ""
    expand: Callable[[], Node] = field(compare=False, repr=False)


Node: TypeAlias = Leaf | Const | ObjectNode | ArrayNode | Variant | JsonValue | Recursive


@dataclass(frozen=True, slots=True)
class Refused:
    """The schema cannot be a form at all (its root is not an object, ...): the reason, shown
    above the JSON editor."""

    reason: str
