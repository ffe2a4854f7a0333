"""The tool-arguments model alone: schema -> tree, default answer, skeleton, checks with paths.

The hypothesis test draws nested object / array / variant schemas (with nullables, enums of any
scalar, consts, maps, defaults, bounds and local ``$ref`` s) and asserts that each one yields either
a model whose skeleton validates with jsonschema, or a stated reason, and never an exception.
"""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_tui.schema.arguments import (
    ArrayNode,
    Const,
    JsonValue,
    Leaf,
    ObjectNode,
    Recursive,
    Refused,
    Variant,
    answer,
    build_arguments,
    partial,
    skeleton,
    state_for,
    validate_arguments,
)
from mcp_tui.schema.arguments.state import ArrayState, LeafState, ObjectState, VariantState

MEMORY_ENTITIES = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "entityType": {"type": "string"},
                    "observations": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["name", "entityType", "observations"],
            },
        }
    },
    "required": ["entities"],
}


def root_of(schema: Any) -> ObjectNode:
    root = build_arguments(schema)
    assert isinstance(root, ObjectNode), root
    return root


def fresh(root: ObjectNode) -> ObjectState:
    state = state_for(root)
    assert isinstance(state, ObjectState)
    return state


def test_list_of_objects_is_filled_and_answered() -> None:
    root = root_of(MEMORY_ENTITIES)
    [entities] = root.properties
    assert isinstance(entities, ArrayNode) and isinstance(entities.items, ObjectNode)
    state = fresh(root)
    assert answer(root, state) == ({"entities": []}, {})
    items = state.children["entities"]
    assert isinstance(items, ArrayState)
    items.items.append(state_for(entities.items))
    value, errors = answer(root, state)
    assert value is None
    assert errors == {
        ("entities", 0, "name"): "Required",
        ("entities", 0, "entityType"): "Required",
    }
    item = items.items[0]
    assert isinstance(item, ObjectState)
    item.children["name"] = LeafState("Ada")
    item.children["entityType"] = LeafState("person")
    # A list of free strings is the flat engine's own list field (its list editor).
    observations = item.children["observations"]
    assert isinstance(observations, LeafState) and observations.raw == []
    observations.raw = ["wrote the first program", ""]  # an empty last row is not an item
    value, errors = answer(root, state)
    expected = {
        "entities": [
            {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}
        ]
    }
    assert (value, errors) == (expected, {})
    assert validate_arguments(value, MEMORY_ENTITIES).ok


def test_nullable_forms_are_optional_and_type_lists_are_variants() -> None:
    schema = {
        "type": "object",
        "properties": {
            "q": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "since": {"type": ["string", "null"], "format": "date"},
            "flag": {"type": ["boolean", "string"]},
            "must": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        },
        "required": ["flag", "must"],
    }
    root = root_of(schema)
    q, since, flag, must = root.properties
    assert isinstance(q, Leaf) and q.nullable and not q.required
    assert isinstance(since, Leaf) and since.nullable
    assert isinstance(flag, Variant) and flag.labels == ("boolean", "text")
    assert isinstance(must, Leaf) and must.nullable and must.required
    # Optional fields are left out, never null; a required nullable one left empty is null.
    state = fresh(root)
    assert answer(root, state) == ({"flag": False, "must": None}, {})
    variant = state.children["flag"]
    assert isinstance(variant, VariantState)
    variant.chosen = 1
    variant.states[1] = LeafState("yes")
    assert answer(root, state)[0] == {"flag": "yes", "must": None}


def test_enum_of_any_scalar_and_const() -> None:
    schema = {
        "type": "object",
        "properties": {
            "priority": {"type": "integer", "enum": [1, 2, 3]},
            "mode": {"enum": [True, "auto", None]},
            "kind": {"const": "circle"},
        },
        "required": ["priority", "kind"],
    }
    root = root_of(schema)
    priority, mode, kind = root.properties
    assert isinstance(priority, Leaf) and priority.choices == (1, 2, 3)
    assert isinstance(mode, Leaf) and mode.choices == (True, "auto") and mode.nullable
    assert isinstance(kind, Const)
    state = fresh(root)
    state.children["priority"] = LeafState("1")  # the option index
    assert answer(root, state) == ({"priority": 2, "kind": "circle"}, {})


def test_recursive_ref_is_expanded_on_demand_and_bounded() -> None:
    schema = {
        "$defs": {
            "Tree": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
                },
                "required": ["value"],
            }
        },
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Tree"}},
        "required": ["tree"],
    }
    root = root_of(schema)
    [tree] = root.properties
    assert isinstance(tree, ObjectNode)
    children = tree.properties[1]
    assert isinstance(children, ArrayNode) and isinstance(children.items, Recursive)
    inner = children.items.expand()
    assert isinstance(inner, ObjectNode) and inner.properties[0].name == "value"
    value = {"tree": {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}}
    state = state_for(root, value)
    assert isinstance(state, ObjectState)
    assert answer(root, state) == (value, {})
    # A schema that is nothing but a reference to itself is refused with a reason, no crash.
    looping = build_arguments({"$ref": "#"})
    assert isinstance(looping, Refused) and looping.reason


def test_maps_and_unresolvable_refs() -> None:
    schema = {
        "type": "object",
        "properties": {
            "env": {"type": "object", "additionalProperties": {"type": "string"}},
            "remote": {"$ref": "https://example.com/schema.json"},
        },
    }
    root = root_of(schema)
    env, remote = root.properties
    assert isinstance(env, ObjectNode) and isinstance(env.extra, Leaf)
    assert isinstance(remote, JsonValue) and "not in this schema" in remote.why
    state = fresh(root)
    env_state = state.children["env"]
    assert isinstance(env_state, ObjectState)
    env_state.present = True
    env_state.extra.append(("HOME", LeafState("/home/ada")))
    env_state.extra.append(("HOME", LeafState("/tmp")))
    value, errors = answer(root, state)
    assert value is None and errors == {("env", "HOME"): "This key is given twice"}
    env_state.extra.pop()
    assert answer(root, state) == ({"env": {"HOME": "/home/ada"}}, {})


def test_untouched_optional_objects_are_left_out_and_defaults_sent() -> None:
    schema = {
        "type": "object",
        "properties": {
            "options": {
                "type": "object",
                "properties": {"depth": {"type": "integer", "default": 2}},
            },
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
            "offset": {"type": "integer", "minimum": 0},
        },
    }
    root = root_of(schema)
    state = fresh(root)
    # Like the flat forms: an untouched default is sent; an empty optional field is left out.
    assert answer(root, state) == ({"limit": 20}, {})
    assert skeleton(root) == ({}, ())


def test_form_to_json_and_back_keeps_what_was_typed() -> None:
    root = root_of(MEMORY_ENTITIES)
    value = {"entities": [{"name": "Ada", "entityType": 7, "observations": []}]}
    state = state_for(root, value)
    assert isinstance(state, ObjectState)
    # The wrong type is kept as text in the field, and comes back as typed.
    assert partial(root, state) == {
        "entities": [{"name": "Ada", "entityType": "7", "observations": []}]
    }


def test_checks_use_the_draft_the_schema_names_and_report_paths() -> None:
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"n": {"type": "integer", "exclusiveMinimum": 5}},
        "definitions": {"unused": {"$ref": "https://example.com/never-fetched"}},
    }
    verdict = validate_arguments({"n": 5}, draft7)
    assert [path for path, _ in verdict.errors] == [("n",)]
    verdict = validate_arguments({}, MEMORY_ENTITIES)
    assert verdict.errors == ((("entities",), "Required"),)
    nested = validate_arguments({"entities": [{"name": "a"}]}, MEMORY_ENTITIES)
    assert {p for p, _ in nested.errors} == {
        ("entities", 0, "entityType"),
        ("entities", 0, "observations"),
    }


def test_non_object_root_is_refused_with_a_reason() -> None:
    refused = build_arguments({"type": "array", "items": {"type": "string"}})
    assert isinstance(refused, Refused) and refused.reason
    assert isinstance(build_arguments("nonsense"), Refused)


# ---- hypothesis ---------------------------------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "name", "x-y", "ünï", "0"])


def scalar_schemas() -> st.SearchStrategy[dict[str, Any]]:
    string = st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "minLength": st.integers(0, 5),
            "maxLength": st.integers(5, 10),
            "format": st.sampled_from(["email", "uri", "date", "date-time", "color"]),
            "default": st.text(max_size=5),
            "examples": st.lists(st.text(max_size=5), min_size=1, max_size=2),
        },
    )
    integer = st.fixed_dictionaries(
        {"type": st.just("integer")},
        optional={
            "minimum": st.integers(-5, 5),
            "maximum": st.integers(6, 20),
            "exclusiveMinimum": st.integers(-10, -6),
            "multipleOf": st.sampled_from([1, 2, 3]),
            "default": st.integers(-3, 30),
        },
    )
    number = st.fixed_dictionaries(
        {"type": st.just("number")},
        optional={
            "minimum": st.floats(-5, 5),
            "exclusiveMaximum": st.floats(6, 20),
            "default": st.floats(-5, 5),
        },
    )
    boolean = st.fixed_dictionaries(
        {"type": st.just("boolean")}, optional={"default": st.booleans()}
    )
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=3))
    enum = st.fixed_dictionaries({"enum": st.lists(scalars, min_size=1, max_size=4, unique=True)})
    const = st.fixed_dictionaries({"const": scalars})
    nullable = st.sampled_from(["string", "integer", "boolean"]).map(
        lambda t: {"type": [t, "null"]}
    )
    return st.one_of(string, integer, number, boolean, enum, const, nullable)


def schemas() -> st.SearchStrategy[dict[str, Any]]:
    def extend(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
        objects = st.builds(
            _object,
            st.dictionaries(NAMES, children, max_size=4),
            st.data(),
        )
        arrays = st.fixed_dictionaries(
            {"type": st.just("array"), "items": children},
            optional={"minItems": st.integers(0, 2), "maxItems": st.integers(2, 4)},
        )
        variants = st.builds(
            lambda key, options: {key: options},
            st.sampled_from(["anyOf", "oneOf"]),
            st.lists(children, min_size=1, max_size=3),
        )
        nullables = children.map(lambda c: {"anyOf": [c, {"type": "null"}]})
        maps = children.map(lambda c: {"type": "object", "additionalProperties": c})
        return st.one_of(objects, arrays, variants, nullables, maps)

    return st.recursive(scalar_schemas(), extend, max_leaves=12)


def _object(properties: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    names = sorted(properties)
    required = data.draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    return {"type": "object", "properties": properties, "required": required}


def with_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Move the first property's schema into ``$defs`` and refer to it."""
    properties = schema.get("properties")
    if not properties:
        return schema
    name = next(iter(properties))
    return {
        **schema,
        "$defs": {"Part": properties[name]},
        "properties": {**properties, name: {"$ref": "#/$defs/Part"}},
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.builds(_object, st.dictionaries(NAMES, schemas(), max_size=5), st.data()), st.booleans())
def test_any_generated_schema_gives_a_valid_skeleton_or_a_reason(
    schema: dict[str, Any], refs: bool
) -> None:
    if refs:
        schema = with_refs(schema)
    root = build_arguments(schema)
    if isinstance(root, Refused):
        assert root.reason
        return
    value, reasons = skeleton(root)
    state = state_for(root)
    assert isinstance(state, ObjectState)
    answer(root, state)  # never raises, whatever the defaults
    partial(root, state)
    if reasons:
        return
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = [e.message for e in validator.iter_errors(value)]
    assert not errors, (value, errors)
    assert validate_arguments(value, schema).ok


def test_tool_argument_choices_without_a_name_show_their_value() -> None:
    from mcp_tui.schema.arguments.shapes import choices

    schema = {"type": "string", "enum": ["a", "b", "c"], "enumNames": ["Apple"]}
    assert choices(schema) == (["a", "b", "c"], ["Apple", "b", "c"])
