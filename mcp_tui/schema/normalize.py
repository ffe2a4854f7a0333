"""Liberal intake: the shapes SDKs generate for flat fields, rewritten to the plain shapes read.

Pure functions on JSON-shaped dicts; nothing here knows about forms. Two steps, used by the
requested-schema parser and by anything else that reads a server's schema (tool ``inputSchema``):

* :func:`inline_refs` replaces every *local* ``$ref`` (``#/$defs/Color``, ``#/definitions/X``,
  any JSON pointer into the same document such as zod-to-json-schema's ``#/properties/a``) by a
  copy of its target, merged with the keywords written beside the ``$ref``. ``allOf`` whose members
  do not contradict each other (old pydantic's ``{"allOf": [{"$ref": ...}], "default": ...}``) is
  merged the same way. Nothing is ever fetched: a reference to another document is a problem. A
  reference to itself (directly or through others) is a problem, and so is an expansion nested
  more than :data:`MAX_REF_DEPTH` references deep or producing more than
  :data:`MAX_INLINED_NODES` schema objects (a few definitions that each use the previous one twice
  would otherwise grow exponentially). Unused definitions are never looked at.
* :func:`split_nullable` reads "this type, or null": ``anyOf``/``oneOf`` of one schema plus
  ``{"type": "null"}`` (pydantic ``Optional[T]``, zod 4 ``.nullable()``), a type list with
  ``"null"`` (``["string", "null"]``, zod-to-json-schema) and ``null`` among ``enum`` members.
  It returns the schema without the null alternative and a flag, which is false when keywords
  beside it exclude null anyway (``type: ["string", "null"]`` with an ``enum`` that has no null).
  OpenAPI's ``nullable: true`` is not JSON Schema (a validator ignores it), so it is not read.
  Several non-null types (``["string", "integer"]``) are real ambiguity: left as they are, for the
  caller to refuse.

Merging rule (both steps): a keyword present on both sides with different values is kept from the
outer schema when it is an annotation (``title``, ``description``, ``default``, ``examples`` ...:
the outer one is about this use of the definition) and is a problem otherwise (two ``enum`` lists
would mean their intersection; a form cannot show that faithfully). The original schema is never
modified; the final jsonschema check of an answer always runs against the original.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import unquote

from mcp_tui.errors import SchemaProblem
from mcp_tui.schema.keywords import DEFINITIONS, IN_LIST, IN_NAMES, IN_ONE
from mcp_tui.untrusted import one_line

__all__ = [
    "MAX_INLINED_NODES",
    "MAX_REF_DEPTH",
    "Nullable",
    "Unreadable",
    "inline_refs",
    "merge",
    "pointer_target",
    "split_nullable",
]

#: How many references may be followed inside one another (pydantic needs 1, zod 1 or 2).
MAX_REF_DEPTH: Final = 16
#: Schema objects an inlined copy may hold in all (a 500-field form with options is ~2,000).
MAX_INLINED_NODES: Final = 20_000
#: Schema nesting followed at all; deeper parts are copied as they are (the parser refuses them).
_MAX_NESTING: Final = 32

#: Keywords whose value is about *this* use of a schema: outer wins over a definition's.
ANNOTATIONS: Final = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$schema",
        "$id",
        "$anchor",
    }
)
_NULL: Final = "null"


class _Budget:
    def __init__(self) -> None:
        self.nodes = 0


class Unreadable(ValueError):
    """One problem that stops a rewrite (the first one found is reported), with its path."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.problem = SchemaProblem(path, message)


def inline_refs(schema: object) -> tuple[object, tuple[SchemaProblem, ...]]:
    """``schema`` with every local ``$ref`` written out and ``$defs``/``definitions`` dropped.

    Returns ``(copy, ())``, or ``(schema, problems)`` unchanged when something cannot be inlined.
    A schema without any ``$ref``/``allOf`` comes back as the same object. Paths in problems are
    dotted like the parser's (``color``, ``tags.items``).
    """
    if not isinstance(schema, dict) or not _needs_work(schema, 0):
        return schema, ()
    try:
        out = _copy(schema, schema, "", (), 0, _Budget())
    except Unreadable as exc:
        return schema, (exc.problem,)
    except RecursionError:
        return schema, (SchemaProblem("", "the schema is nested too deeply to read"),)
    if isinstance(out, dict):
        for key in DEFINITIONS:
            out.pop(key, None)
    return out, ()


def _needs_work(node: object, depth: int) -> bool:
    """Whether any ``$ref``, ``allOf`` or definitions appear (cheap pre-check, no copy)."""
    if depth > _MAX_NESTING:
        return False
    if isinstance(node, dict):
        if "$ref" in node or "allOf" in node or DEFINITIONS & node.keys():
            return True
        for key, value in node.items():
            if key in IN_NAMES and isinstance(value, dict):
                if any(_needs_work(v, depth + 1) for v in value.values()):
                    return True
            elif key in IN_LIST and isinstance(value, list):
                if any(_needs_work(v, depth + 1) for v in value):
                    return True
            elif key in IN_ONE and _needs_work(value, depth + 1):
                return True
    return False


def _copy(
    node: object,
    root: dict[str, Any],
    path: str,
    chain: tuple[str, ...],
    depth: int,
    budget: _Budget,
) -> object:
    """A copy of the subschema ``node`` with references inlined (``chain``: refs being expanded)."""
    if not isinstance(node, dict):
        return node
    budget.nodes += 1
    if budget.nodes > MAX_INLINED_NODES:
        raise Unreadable(path, f"the references expand to more than {MAX_INLINED_NODES:,} schemas")
    if depth > _MAX_NESTING:
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" or key == "allOf" or key in DEFINITIONS:
            continue
        if key in IN_NAMES and isinstance(value, dict):
            out[key] = {
                k: _copy(v, root, _join(path, k), chain, depth + 1, budget)
                for k, v in value.items()
            }
        elif key in IN_LIST and isinstance(value, list):
            out[key] = [
                _copy(v, root, _join(path, f"{key}[{i}]"), chain, depth + 1, budget)
                for i, v in enumerate(value)
            ]
        elif key in IN_ONE:
            out[key] = _copy(value, root, _join(path, key), chain, depth + 1, budget)
        else:
            out[key] = value
    if "$ref" in node:
        target = _follow(node["$ref"], root, path, chain)
        ref = node["$ref"]
        expanded = _copy(target, root, path, (*chain, ref), depth + 1, budget)
        if isinstance(expanded, dict):
            # A definition's title names the type ("Color"), not this use of it: the field then
            # shows its own title or its property name.
            expanded.pop("title", None)
        out = merge(out, expanded, path)
    members = node.get("allOf")
    if members is not None:
        if not isinstance(members, list) or not all(isinstance(m, dict) for m in members):
            raise Unreadable(path, "`allOf` must be a list of schemas")
        for i, member in enumerate(members):
            copied = _copy(member, root, _join(path, f"allOf[{i}]"), chain, depth + 1, budget)
            out = merge(out, copied, path)
    return out


def _follow(ref: object, root: dict[str, Any], path: str, chain: tuple[str, ...]) -> object:
    """The target of a local ``$ref``, or :class:`Unreadable` saying why not."""
    if not isinstance(ref, str):
        raise Unreadable(path, "`$ref` must be a string")
    shown = one_line(ref, limit=80)
    if not ref.startswith("#"):
        raise Unreadable(path, f"`$ref` {shown} points outside the schema; nothing is fetched")
    if ref in chain or ref in ("#", "#/"):
        raise Unreadable(
            path, f"`$ref` {shown} refers to itself: recursive schemas cannot be a form"
        )
    if len(chain) >= MAX_REF_DEPTH:
        raise Unreadable(path, f"references nested more than {MAX_REF_DEPTH} deep")
    pointer = unquote(ref[1:])
    if not pointer.startswith("/"):
        raise Unreadable(path, f"`$ref` {shown} is not a JSON pointer (anchors are not supported)")
    try:
        node = pointer_target(root, pointer)
    except LookupError:
        raise Unreadable(path, f"`$ref` {shown} points to nothing in the schema") from None
    if isinstance(node, bool):
        node = {} if node else {"not": {}}
    if not isinstance(node, dict):
        raise Unreadable(path, f"`$ref` {shown} does not point to a schema")
    return node


def pointer_target(root: object, pointer: str) -> object:
    """What the JSON Pointer ``pointer`` (``""`` or ``"/$defs/Color"``, %-decoded) names in
    ``root``; ``LookupError`` when it names nothing. ``~1`` and ``~0`` are read as ``/`` and ``~``.

    The one pointer walk of the engine: the flat parser's :func:`inline_refs` and the
    tool-arguments tree both follow references with it.
    """
    node = root
    for raw in pointer.split("/")[1:] if pointer else ():
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise LookupError(pointer)
    return node


def merge(outer: Mapping[str, Any], inner: object, path: str = "") -> dict[str, Any]:
    """``inner`` with ``outer``'s keywords written over it (see the module's merging rule).

    A conflict raises :class:`Unreadable` (a ``ValueError``) naming the keyword.
    """
    if not isinstance(inner, dict):
        raise Unreadable(path, "a reference must point to a schema object")
    out = dict(inner)
    for key, value in outer.items():
        if key in out and out[key] != value and key not in ANNOTATIONS:
            if key == "type" and _same_type(out[key], value):
                out[key] = _narrower(out[key], value)
                continue
            raise Unreadable(
                path, f"`{one_line(key, limit=40)}` is given twice with different values"
            )
        out[key] = value
    return out


def _same_type(a: object, b: object) -> bool:
    """``"integer"`` beside ``["integer", "null"]`` and the like: one is a subset of the other."""
    sa = set(a) if isinstance(a, list) else {a}
    sb = set(b) if isinstance(b, list) else {b}
    return all(isinstance(x, str) for x in sa | sb) and (sa <= sb or sb <= sa)


def _narrower(a: object, b: object) -> object:
    sa = set(a) if isinstance(a, list) else {a}
    sb = set(b) if isinstance(b, list) else {b}
    return a if sa <= sb else b


def _join(path: str, key: str) -> str:
    name = one_line(key, limit=60)
    return f"{path}.{name}" if path else name


# ---------------------------------------------------------------- nullable


@dataclass(frozen=True, slots=True)
class Nullable:
    """A property schema with its null alternative removed.

    ``schema`` is what to render; ``nullable`` says JSON ``null`` is also valid (never sent unless
    the user asks for it); ``problems`` are contradictions found while merging (the caller
    refuses). When nothing was recognised, ``schema`` is the input object itself.
    """

    schema: Mapping[str, Any]
    nullable: bool = False
    problems: tuple[SchemaProblem, ...] = ()


def split_nullable(prop: Mapping[str, Any], path: str = "") -> Nullable:
    """Read "T or null" in any of the shapes SDKs generate (see the module docstring)."""
    nullable = False
    out: dict[str, Any] | None = None

    def edit() -> dict[str, Any]:
        nonlocal out
        if out is None:
            out = dict(prop)
        return out

    t = prop.get("type")
    if isinstance(t, list) and _NULL in t:
        rest = [x for x in t if x != _NULL]
        if len(rest) == 1:
            edit()["type"] = rest[0]
            nullable = True
        elif not rest:
            pass  # ["null"] alone: the caller refuses a null-only field
        else:
            edit()["type"] = rest  # real ambiguity, null aside: the caller refuses
            nullable = True
    elif isinstance(t, list) and len(t) == 1:
        edit()["type"] = t[0]
    enum = prop.get("enum")
    open_type = "type" not in prop or nullable  # null in the enum is reachable
    if open_type and isinstance(enum, list) and None in enum and len(enum) > 1:
        edit()["enum"] = [v for v in enum if v is not None]
        nullable = True
    for key in ("anyOf", "oneOf"):
        members = prop.get(key)
        if not isinstance(members, list) or not any(_is_null(m) for m in members):
            continue
        rest = [m for m in members if not _is_null(m)]
        if not rest:
            continue
        nullable = True
        target = edit()
        del target[key]
        if len(rest) == 1 and isinstance(rest[0], dict):
            try:
                out = merge(target, rest[0], path)
            except Unreadable as exc:
                return Nullable(prop, True, (exc.problem,))
        else:
            target[key] = rest
    if nullable and not _outer_allows_null(prop):
        nullable = False  # e.g. type [T, "null"] beside an enum without null: null is unreachable
    if nullable and out is not None and "default" in out and out["default"] is None:
        del out["default"]  # "no value" is what an untouched nullable field already means
    return Nullable(prop if out is None else out, nullable)


def _outer_allows_null(prop: Mapping[str, Any]) -> bool:
    """Whether the keywords beside the null alternative still let ``null`` through."""
    t = prop.get("type")
    if t is not None and t != _NULL and not (isinstance(t, list) and _NULL in t):
        return False
    enum = prop.get("enum")
    if "enum" in prop and (not isinstance(enum, list) or None not in enum):
        return False
    if "const" in prop and prop["const"] is not None:
        return False
    for key in ("anyOf", "oneOf"):
        members = prop.get(key)
        if (
            isinstance(members, list)
            and not any(_is_null(m) for m in members)
            and not any(_member_allows_null(m) for m in members)
        ):
            return False  # choices without null beside a type list with null
    return True


def _member_allows_null(member: object) -> bool:
    if not isinstance(member, dict):
        return member is True
    if "const" in member:
        return member["const"] is None
    if "enum" in member:
        return isinstance(member["enum"], list) and None in member["enum"]
    t = member.get("type")
    return t is None or t == _NULL or (isinstance(t, list) and _NULL in t)


def _is_null(member: object) -> bool:
    """``{"type": "null"}`` (annotations allowed beside it) or ``{"const": null}``."""
    if not isinstance(member, dict):
        return False
    rest = member.keys() - ANNOTATIONS
    if rest == {"type"} and member["type"] == _NULL:
        return True
    if rest == {"type"} and member["type"] == [_NULL]:
        return True
    return rest == {"const"} and member["const"] is None
