"""A tool's ``inputSchema`` -> a tree of :mod:`.nodes`, or :class:`~.nodes.Refused` with a reason.

Generous in what it accepts, as real servers need: nullable types (``anyOf [T, null]``,
``type: [T, "null"]``) become optional or nullable nodes, other type lists and ``anyOf`` /
``oneOf`` become variants, ``enum`` of any scalar type a select, local ``$ref`` s into ``$defs``
/ ``definitions`` (or any JSON Pointer into the same document) are followed, a reference back to a
schema being built becomes a :class:`~.nodes.Recursive` node expanded on demand. A part the form
cannot break down (``not``, ``if``, an ``allOf`` that is not a plain merge of objects, a remote
``$ref``) becomes a :class:`~.nodes.JsonValue`: typed as JSON, checked on send, with the reason
shown. Only a root that is not an object is refused. Nothing is ever fetched.

Scalars go through the flat engine's :class:`~mcp_tui.schema.parse_fields.FieldParser`, so their
rules, defaults and messages are exactly the flat form's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mcp_tui.errors import SchemaProblem
from mcp_tui.schema import keywords as kw
from mcp_tui.schema.fields import FieldKind, FieldSpec, Option
from mcp_tui.schema.limits import MAX_FIELDS, MAX_NAME_LENGTH, MAX_OPTIONS
from mcp_tui.schema.normalize import Unreadable, split_nullable
from mcp_tui.schema.parse_fields import FieldParser
from mcp_tui.schema.rules import json_type
from mcp_tui.untrusted import one_line

from .nodes import (
    ArrayNode,
    Const,
    JsonValue,
    Leaf,
    Node,
    ObjectNode,
    Recursive,
    Refused,
    Variant,
)
from .shapes import (
    all_consts,
    checked_on_send,
    choices,
    count,
    example,
    free_scalars,
    inferred_type,
    label,
    local_target,
    merge_all_of,
    onto,
    string_choices,
    string_enum,
)

#: Nesting built at once; deeper parts become JSON text (no real tool nests this deep).
MAX_DEPTH = 24
#: Nodes built for one schema (expansions of recursive parts count afresh).
MAX_NODES = 5000
#: Times a recursive part can be expanded inside itself.
MAX_EXPANSIONS = 12

_SCALARS = ("string", "number", "integer", "boolean")


def build_arguments(schema: object) -> ObjectNode | Refused:
    """The root of a tool's arguments; never raises (a defect is reported as a refusal)."""
    try:
        return _build_root(schema)
    except RecursionError:
        return Refused("the schema nests too deeply to be shown as a form")
    except Exception as error:  # a builder defect must not take the screen down
        return Refused(f"the schema could not be read as a form ({type(error).__name__})")


def _build_root(schema: object) -> ObjectNode | Refused:
    if schema is True or schema == {}:
        schema = {"type": "object"}
    if not isinstance(schema, dict):
        return Refused(f"the schema must be a JSON object, got {json_type(schema)}")
    builder = Builder(schema)
    node = builder.node(schema, Site("", True))
    if isinstance(node, ObjectNode):
        return node
    if isinstance(node, JsonValue) and node.why:
        return Refused(node.why)
    return Refused("the arguments are not an object with named properties")


class Builder:
    """Builds nodes for one document; ``root`` is where local ``$ref`` s point into."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.count = 0

    # ------------------------------------------------------------ entry

    def node(self, schema: object, at: Site) -> Node:
        """The node for ``schema`` at ``at`` (``at.stack``: the ``$ref`` s being built)."""
        self.count += 1
        if self.count > MAX_NODES:
            return self._json({}, "the schema is too big for a form", at)
        if at.depth > MAX_DEPTH:
            return self._json({}, "nested too deeply for a form", at)
        if schema is True or schema == {}:
            return self._json({}, "any JSON value", at)
        if schema is False:
            return self._json({}, "the schema accepts no value", at)
        if not isinstance(schema, dict):
            return self._json({}, f"the schema is {json_type(schema)}, not an object", at)
        if "$ref" in schema:
            return self._reference(schema, at)
        return self._plain(schema, at)

    def _plain(self, schema: dict[str, Any], at: Site) -> Node:
        # "T or null" in every shape SDKs generate, read as the flat engine reads it.
        split = split_nullable(schema, one_line(at.name, limit=60))
        if split.problems:
            return self._json(schema, split.problems[0].message, at)
        if split.nullable:
            at = at.but(nullable=True)
            schema = dict(split.schema)
        types = schema.get("type")
        if isinstance(types, list):
            rest = [t for t in types if t != "null"]
            if not rest:
                return self._const(None, schema, at)
            if len(rest) == 1:
                return self._plain({**schema, "type": rest[0]}, at)
            return self._variant(schema, [{**schema, "type": t} for t in rest], at)
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if not isinstance(options, list) or not options:
                continue
            base = {k: v for k, v in schema.items() if k != key}
            if all_consts(options):
                return self._choice_leaf(schema, at)
            node = self._variant(schema, [onto(base, o) for o in options], at, options)
            if isinstance(node, Variant) and key == "oneOf":
                node = replace(node, exclusive=True)
            return node
        if "allOf" in schema:
            try:
                merged = merge_all_of(schema)
            except Unreadable as error:
                return self._json(schema, f"`allOf` {error}", at)
            return self.node(merged, at)
        if types == "null":
            return self._const(None, schema, at)
        if "const" in schema:
            return self._const(schema["const"], schema, at)
        if "enum" in schema:
            if string_enum(schema):
                return self._leaf(schema, "string", at)  # the flat engine's own select
            return self._choice_leaf(schema, at)
        kind = types if isinstance(types, str) else inferred_type(schema)
        if kind == "object":
            return self._object(schema, at)
        if kind == "array":
            return self._array(schema, at)
        if kind in _SCALARS:
            return self._leaf(schema, kind, at)
        if kind is None:
            return self._json(schema, "any JSON value", at)
        return self._json(schema, f"unknown type {one_line(kind, limit=30)}", at)

    # ------------------------------------------------------------ references

    def _reference(self, schema: dict[str, Any], at: Site) -> Node:
        ref = schema["$ref"]
        target = local_target(self.root, ref)
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        if target is None:
            why = f"refers to {one_line(ref, limit=80)}, which is not in this schema"
            return self._json(siblings, why, at)
        merged = onto(siblings, target)
        inside = at.but(stack=(*at.stack, ref), depth=at.depth + 1)
        if ref in at.stack:
            if at.stack.count(ref) >= MAX_EXPANSIONS:
                return self._json({}, "nested too deeply for a form", at)

            def expand() -> Node:
                return Builder(self.root).node(merged, inside.but(depth=0))

            node = Recursive(
                name=at.name,
                required=at.required,
                nullable=at.nullable,
                target=one_line(ref, limit=80),
                expand=expand,
            )
            return self._finish(node, merged if isinstance(merged, dict) else {})
        return self.node(merged, inside)

    # ------------------------------------------------------------ kinds

    def _object(self, schema: dict[str, Any], at: Site) -> Node:
        properties = schema.get("properties", {})
        if not isinstance(properties, dict):
            return self._json(schema, "`properties` is not an object", at)
        if len(properties) > MAX_FIELDS:
            why = f"{len(properties):,} properties; a form shows at most {MAX_FIELDS:,}"
            return self._json(schema, why, at)
        wanted = schema.get("required", [])
        names = {n for n in wanted if isinstance(n, str)} if isinstance(wanted, list) else set()
        notes: list[str] = []
        children: list[Node] = []
        for key, prop in properties.items():
            if len(key) > MAX_NAME_LENGTH:
                notes.append(f"a name longer than {MAX_NAME_LENGTH:,} characters is left out")
                continue
            children.append(self.node(prop, at.child(key, key in names)))
        for key in sorted(names - properties.keys())[:5]:
            children.append(self._json({}, "required but not described", at.child(key, True)))
        extra_schema = schema.get("additionalProperties")
        extra: Node | None = None
        if isinstance(extra_schema, dict) and extra_schema:
            extra = self.node(extra_schema, at.child("", True))
        elif (
            extra_schema in (None, True, {})
            and not properties
            and "patternProperties" not in schema
        ):
            extra = self._json({}, "any JSON value", at.child("", True))
        notes.extend(checked_on_send(schema))
        node = ObjectNode(
            name=at.name,
            required=at.required,
            nullable=at.nullable,
            properties=tuple(children),
            extra=extra,
            min_properties=count(schema.get("minProperties")),
            max_properties=count(schema.get("maxProperties")),
            notes=tuple(notes),
        )
        return self._finish(node, schema)

    def _array(self, schema: dict[str, Any], at: Site) -> Node:
        items = schema.get("items", True)
        if "prefixItems" in schema or isinstance(items, list):
            return self._json(schema, "a list with positional items", at)
        if isinstance(items, dict) and (string_choices(items) or free_scalars(items)):
            # The flat engine's own fields: a multi-select, or its list editor for free items.
            return self._leaf(schema, "array", at)
        node = ArrayNode(
            name=at.name,
            required=at.required,
            nullable=at.nullable,
            items=self.node(items, at.child("", True)),
            min_items=count(schema.get("minItems")),
            max_items=count(schema.get("maxItems")),
            unique=schema.get("uniqueItems") is True,
        )
        return self._finish(node, schema)

    def _variant(
        self,
        schema: dict[str, Any],
        choices: list[Any],
        at: Site,
        originals: list[Any] | None = None,
    ) -> Node:
        """``originals``: the choices as written (the merged ones carry the variant's title)."""
        if len(choices) > MAX_OPTIONS:
            return self._json(schema, "too many variants", at)
        inside = at.child(at.name, True)
        nodes = [self.node(c, inside) for c in choices]
        written = originals if originals is not None else choices
        labels = tuple(label(n, c, i) for i, (n, c) in enumerate(zip(nodes, written, strict=True)))
        node = Variant(
            name=at.name,
            required=at.required,
            nullable=at.nullable,
            choices=tuple(nodes),
            labels=labels,
        )
        return self._finish(node, {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")})

    def _leaf(self, schema: dict[str, Any], kind: str, at: Site) -> Node:
        prop = {k: v for k, v in schema.items() if k not in _LEAF_DROPPED}
        prop["type"] = kind
        if at.nullable and prop.get("default", 0) is None:
            del prop["default"]
        problems: list[SchemaProblem] = []
        parser = FieldParser(at.name, one_line(at.name, limit=60), problems)
        spec = parser.parse(prop, at.required and not at.nullable)
        if spec is None:
            return self._json(schema, problems[0].message if problems else "not understood", at)
        notes = [n for n in spec.notes if "not shown in the form" not in n]
        notes.extend(checked_on_send(schema))
        node = Leaf(
            name=at.name,
            required=at.required,
            nullable=at.nullable,
            field=replace(spec, notes=tuple(notes)),
            example=example(schema),
        )
        return self._finish(node, schema)

    def _choice_leaf(self, schema: dict[str, Any], at: Site) -> Node:
        """``enum`` of any values, or ``anyOf``/``oneOf`` of ``const`` s (with titles)."""
        values, labels = choices(schema)
        if values is None:
            return self._json(schema, "the choices are not a list", at)
        if None in values:
            at = at.but(nullable=True)
            keep = [i for i, v in enumerate(values) if v is not None]
            values, labels = [values[i] for i in keep], [labels[i] for i in keep]
        if not values:
            return self._const(None, schema, at)
        if len(values) == 1 and not at.nullable:
            return self._const(values[0], schema, at)
        if len(values) > MAX_OPTIONS:
            return self._json(schema, "too many choices for a form", at)
        options = tuple(Option(str(i), one_line(text, limit=200)) for i, text in enumerate(labels))
        title = schema.get("title")
        description = schema.get("description")
        default = schema.get("default", _NO_DEFAULT)
        chosen = next(
            (str(i) for i, v in enumerate(values) if v == default and type(v) is type(default)),
            None,
        )
        spec = FieldSpec(
            name=at.name,
            kind=FieldKind.SELECT,
            title=title if isinstance(title, str) else at.name,
            description=description if isinstance(description, str) else None,
            required=at.required and not at.nullable,
            options=options,
            default=chosen,
            has_default=chosen is not None,
        )
        node = Leaf(
            name=at.name,
            required=at.required,
            nullable=at.nullable,
            field=spec,
            choices=tuple(values),
        )
        return self._finish(node, schema)

    def _const(self, value: Any, schema: dict[str, Any], at: Site) -> Node:
        node = Const(name=at.name, required=at.required, nullable=at.nullable, value=value)
        return self._finish(node, schema)

    def _json(self, schema: dict[str, Any], why: str, at: Site) -> Node:
        node = JsonValue(name=at.name, required=at.required, nullable=at.nullable, why=why)
        return self._finish(node, schema)

    def _finish(self, node: Node, schema: dict[str, Any]) -> Node:
        """Title, description and default from ``schema`` onto ``node``."""
        title = schema.get("title")
        description = schema.get("description")
        changes: dict[str, Any] = {}
        if isinstance(title, str) and not node.title:
            changes["title"] = one_line(title, limit=200)
        if isinstance(description, str) and node.description is None:
            changes["description"] = description[:20_000]
        if "default" in schema and not node.has_default:
            changes["default"] = schema["default"]
            changes["has_default"] = True
        return replace(node, **changes) if changes else node


@dataclass(frozen=True, slots=True)
class Site:
    """Where a node is built: its name, whether required or nullable, the ``$ref`` s being
    built around it (to notice recursion) and its depth."""

    name: str
    required: bool
    stack: tuple[str, ...] = ()
    depth: int = 0
    nullable: bool = False

    def child(self, name: str, required: bool) -> Site:
        return Site(name, required, self.stack, self.depth + 1)

    def but(self, **changes: Any) -> Site:
        return replace(self, **changes)


_NO_DEFAULT = object()
_LEAF_DROPPED = frozenset(kw.STRUCTURAL | kw.REFERENCES | {"examples", "nullable", "const"})
