"""An arguments tree and its state -> the JSON to send, or one message per path in error.

Be strict in what is sent: an optional field left empty is left out (never ``""``, ``0`` or
``null``); a required nullable field left empty is ``null``; an optional object or list is sent
only once the user filled something in it (or it came with a value); scalars are read by the
flat engine (:func:`~mcp_tui.schema.validate.validate_field`), so ``"30"`` typed in an integer
field is the JSON integer ``30`` and a bad e-mail address gets the same message as in a flat form.

:func:`partial` is the lenient twin for F2 (form -> JSON editor): whatever is typed, valid or not,
becomes JSON so nothing is lost. :func:`touch` marks the objects and lists on a path as given.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_tui.schema.rules import REQUIRED, plural
from mcp_tui.schema.validate import OMIT, validate_field

from .nodes import ArrayNode, Const, JsonValue, Leaf, Node, ObjectNode, Path, Recursive, Variant
from .skeleton import skeleton
from .state import (
    ArrayState,
    ConstState,
    JsonState,
    LeafState,
    ObjectState,
    RecursiveState,
    State,
    VariantState,
    state_for,
)

#: Found on a path: the message shown on the field there.
Errors = dict[Path, str]


def answer(root: ObjectNode, state: ObjectState) -> tuple[dict[str, Any] | None, Errors]:
    """``(arguments, {})`` when everything is valid, else ``(None, errors by path)``."""
    errors: Errors = {}
    value = Reader(errors, lenient=False).read(root, state, ())
    if errors:
        return None, errors
    return (value if isinstance(value, dict) else {}), {}


def partial(root: ObjectNode, state: ObjectState) -> dict[str, Any]:
    """Everything the form holds as JSON, valid or not (for the JSON editor)."""
    value = Reader({}, lenient=True).read(root, state, ())
    return value if isinstance(value, dict) else {}


def child_state(node: Node, state: State, key: str | int) -> tuple[Node, State] | None:
    """The node and state one step down ``key`` (a property, an item, a map key, a variant's
    chosen value), creating a missing state; None when there is no such step."""
    if isinstance(node, ObjectNode) and isinstance(state, ObjectState):
        for child in node.properties:
            if child.name == key:
                return child, state.children.setdefault(child.name, state_for(child))
        if node.extra is not None:
            for name, value in state.extra:
                if name == key:
                    return node.extra, value
        return None
    if isinstance(node, ArrayNode) and isinstance(state, ArrayState):
        if isinstance(key, int) and 0 <= key < len(state.items):
            return node.items, state.items[key]
        return None
    if isinstance(node, Recursive) and isinstance(state, RecursiveState):
        if state.node is not None and state.inner is not None:
            return child_state(state.node, state.inner, key)
        return None
    if isinstance(node, Variant) and isinstance(state, VariantState) and state.chosen is not None:
        choice = node.choices[state.chosen]
        inner = state.states.setdefault(state.chosen, state_for(choice))
        return child_state(choice, inner, key)
    return None


def touch(root: ObjectNode, state: ObjectState, path: Path) -> None:
    """The user edited something at ``path``: every object and list on the way is now given."""
    node: Node = root
    current: State = state
    for key in path:
        _mark(current)
        step = child_state(node, current, key)
        if step is None:
            return
        node, current = step
    _mark(current)


def _mark(state: State) -> None:
    if isinstance(state, ObjectState | ArrayState | ConstState):
        state.present = True
    elif isinstance(state, RecursiveState) and state.inner is not None:
        _mark(state.inner)  # an expanded part is the object inside it
    elif isinstance(state, VariantState) and state.chosen in state.states:
        _mark(state.states[state.chosen])


class Reader:
    """One walk over the tree; ``errors`` collects messages by path."""

    def __init__(self, errors: Errors, *, lenient: bool) -> None:
        self.errors = errors
        self.lenient = lenient

    def fail(self, path: Path, message: str) -> None:
        self.errors.setdefault(path, message)

    def read(self, node: Node, state: State, path: Path) -> Any:
        """The value for ``node``, or ``OMIT`` (left out, with or without an error)."""
        if isinstance(node, Leaf) and isinstance(state, LeafState):
            return self._leaf(node, state, path)
        if isinstance(node, Const) and isinstance(state, ConstState):
            return node.value if node.required or state.present else OMIT
        if isinstance(node, ObjectNode) and isinstance(state, ObjectState):
            if not state.present:
                return self._absent(node, path)
            return self._object(node, state, path)
        if isinstance(node, ArrayNode) and isinstance(state, ArrayState):
            if not state.present and not state.items:
                return self._absent(node, path)
            return self._array(node, state, path)
        if isinstance(node, Variant) and isinstance(state, VariantState):
            if state.chosen is None or not 0 <= state.chosen < len(node.choices):
                return self._absent(node, path)
            choice = node.choices[state.chosen]
            inner = state.states.setdefault(state.chosen, state_for(choice))
            return self.read(choice, inner, path)
        if isinstance(node, Recursive) and isinstance(state, RecursiveState):
            if state.node is None or state.inner is None:
                return self._absent(node, path)
            return self.read(state.node, state.inner, path)
        if isinstance(node, JsonValue) and isinstance(state, JsonState):
            return self._json(node, state, path)
        # A state of another shape (a defect): start that part afresh rather than crash.
        return self.read(node, state_for(node), path)

    def _absent(self, node: Node, path: Path) -> Any:
        if not node.required:
            return OMIT
        if node.nullable:
            return None
        if self.lenient:
            value, _ = skeleton(node)
            return value
        self.fail(path, REQUIRED)
        return OMIT

    def _leaf(self, node: Leaf, state: LeafState, path: Path) -> Any:
        value, message = validate_field(node.field, state.raw)
        if message is not None:
            if self.lenient:
                raw = state.raw
                if isinstance(raw, str) and raw.strip():
                    return raw
                return self._absent(node, path)
            self.fail(path, message)
            return OMIT
        if value is OMIT:
            return self._absent(node, path) if node.required else OMIT
        if node.choices is not None and isinstance(value, str) and value.isdigit():
            index = int(value)
            return node.choices[index] if index < len(node.choices) else OMIT
        return value

    def _object(self, node: ObjectNode, state: ObjectState, path: Path) -> Any:
        out: dict[str, Any] = {}
        for child in node.properties:
            inner = state.children.setdefault(child.name, state_for(child))
            value = self.read(child, inner, (*path, child.name))
            if value is not OMIT:
                out[child.name] = value
        if node.extra is not None:
            for key, inner in state.extra:
                where = (*path, key)
                if key in out:
                    self.fail(where, "This key is given twice")
                    continue
                if not key and not self.lenient:
                    self.fail(where, "The key is empty")
                    continue
                value = self.read(node.extra, inner, where)
                if value is not OMIT:
                    out[key] = value
        count = len(out)
        if node.min_properties is not None and count < node.min_properties:
            self.fail(path, f"Give at least {plural(node.min_properties, 'entry')}")
        if node.max_properties is not None and count > node.max_properties:
            self.fail(path, f"Give at most {plural(node.max_properties, 'entry')}")
        return out

    def _array(self, node: ArrayNode, state: ArrayState, path: Path) -> Any:
        out: list[Any] = []
        for index, inner in enumerate(state.items):
            value = self.read(node.items, inner, (*path, index))
            out.append(None if value is OMIT else value)
        count = len(out)
        if node.min_items is not None and count < node.min_items:
            self.fail(path, f"Add at least {plural(node.min_items, 'item')}")
        if node.max_items is not None and count > node.max_items:
            self.fail(path, f"At most {plural(node.max_items, 'item')}")
        if node.unique and count > 1:
            seen = [json.dumps(v, sort_keys=True, default=str) for v in out]
            if len(set(seen)) < len(seen):
                self.fail(path, "Each item must be different")
        return out

    def _json(self, node: JsonValue, state: JsonState, path: Path) -> Any:
        text = state.text
        if not text.strip():
            if self.lenient and node.required and not node.nullable:
                return None
            return self._absent(node, path)
        try:
            return json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as error:
            if self.lenient:
                return text
            self.fail(path, f"Not valid JSON: {error}")
            return OMIT


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
