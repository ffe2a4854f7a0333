"""Fuzzing what a server controls: schemas, elicitation params, URLs and every string in them.

Random schemas (inside the spec's subset, mutated out of it, and plain junk JSON), random
``elicitation/create`` params and random strings go through schema parsing, the session's
elicitation bridge, form building (a headless Pilot run of the real ``ElicitationScreen``) and the
URL check. No exception may escape, and every outcome must be one the user is shown: a form, a
refusal (``SchemaError`` with problems, -32602 from the bridge) or a clear error.
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import anyio
import mcp_types as types
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from textual.app import App

from mcp_tui.errors import SchemaError
from mcp_tui.schema.fields import FormSpec
from mcp_tui.schema.parse import parse_requested_schema
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.elicitation_bridge import CallTracker, ElicitationBridge
from mcp_tui.session.elicitation_gate import ElicitationGate
from mcp_tui.session.events import ElicitationRefused, Notice, SessionEvent
from mcp_tui.session.sdk_refusals import sdk_refusal
from mcp_tui.ui.screens.confirm import ConfirmScreen
from mcp_tui.ui.screens.elicitation_form import ElicitationScreen
from mcp_tui.url.check import UrlVerdict, check_url

# ---- strategies ---------------------------------------------------------------------------------

#: Text a hostile server would send: markup, escapes, bidi, zero-width, astral and plain.
nasty_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "",
            "[/]",
            "[@click=app.quit]x[/]",
            "\x1b]0;pwned\x07",
            "\x1b[2J",
            "\u202eevil",
            "a\u200bb",
            "\x00",
            "\ud800",
            "🎉" * 3,
            "x" * 300,
            "__proto__",
            "#",
            "id",
            "-",
            "1",
        ]
    ),
)
numbers = st.one_of(
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -1, 1e308, -0.0, 2**53 + 1]),
)
finite = st.one_of(st.integers(-1000, 1000), st.floats(-1e6, 1e6, allow_nan=False))
junk = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, nasty_text),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(nasty_text, inner, max_size=4)
    ),
    max_leaves=12,
)


def maybe(key: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(st.just({}), values.map(lambda v: {key: v}))


def with_extras(base: dict[str, Any], *extras: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for extra in extras:
        out.update(extra)
    return out


strings = st.builds(
    with_extras,
    st.just({"type": "string"}),
    maybe("title", nasty_text),
    maybe("description", nasty_text),
    maybe("minLength", st.integers(0, 20)),
    maybe("maxLength", st.integers(0, 60)),
    maybe("pattern", st.sampled_from(["^a+$", "^(a+)+$", "[", "(?P<x>a)", r"\d{2,}", "(a)\\1"])),
    maybe("format", st.sampled_from(["email", "uri", "date", "date-time", "ipv4", "nope"])),
    maybe("default", nasty_text),
)
numeric = st.builds(
    with_extras,
    st.sampled_from([{"type": "number"}, {"type": "integer"}]),
    maybe("minimum", finite),
    maybe("maximum", finite),
    maybe("default", finite),
    maybe("title", nasty_text),
)
booleans = st.builds(with_extras, st.just({"type": "boolean"}), maybe("default", st.booleans()))
options = st.lists(nasty_text, min_size=1, max_size=6, unique=True)
enums = st.one_of(
    st.builds(
        with_extras,
        options.map(lambda o: {"type": "string", "enum": o}),
        maybe("enumNames", st.lists(nasty_text, max_size=6)),
        maybe("default", nasty_text),
    ),
    st.builds(
        lambda o, titles: {
            "type": "string",
            "oneOf": [{"const": v, "title": t} for v, t in zip(o, titles, strict=False)],
        },
        options,
        st.lists(nasty_text, min_size=6, max_size=6),
    ),
)
multi = st.builds(
    with_extras,
    st.one_of(
        options.map(lambda o: {"type": "array", "items": {"type": "string", "enum": o}}),
        options.map(lambda o: {"type": "array", "items": {"anyOf": [{"const": v} for v in o]}}),
    ),
    maybe("minItems", st.integers(0, 4)),
    maybe("maxItems", st.integers(1, 8)),
    maybe("default", st.lists(nasty_text, max_size=3)),
)
free_lists = st.builds(
    with_extras,
    st.sampled_from(["string", "number", "integer"]).map(
        lambda t: {"type": "array", "items": {"type": t}}
    ),
    maybe("minItems", st.integers(0, 4)),
    maybe("maxItems", st.integers(1, 8)),
    maybe("uniqueItems", st.booleans()),
    maybe("default", st.lists(nasty_text | finite, max_size=3)),
)
number_choices = st.builds(
    with_extras,
    st.lists(finite, min_size=1, max_size=5).map(
        lambda v: {"type": "integer" if all(isinstance(x, int) for x in v) else "number", "enum": v}
    ),
    maybe("default", finite),
)
consts = st.builds(lambda v: {"const": v}, nasty_text | finite | st.booleans() | st.none())
plain_field = st.one_of(
    strings, numeric, booleans, enums, multi, free_lists, number_choices, consts
)


@st.composite
def sdk_field(draw: st.DrawFn) -> dict[str, Any]:
    """A field as SDKs write it: Optional (anyOf with null, a type list with null), or as a local
    ``$ref`` (resolved against ``$defs`` the schema may or may not have: ``subset_schemas``)."""
    prop = draw(plain_field)
    how = draw(st.sampled_from(["plain", "anyOf", "oneOf", "type-list", "ref"]))
    if how in ("anyOf", "oneOf"):
        return {how: [prop, {"type": "null"}], "default": None}
    if how == "type-list" and isinstance(prop.get("type"), str):
        return {**prop, "type": [prop["type"], "null"]}
    if how == "ref":
        return {"$ref": draw(st.sampled_from(["#/$defs/A", "#/$defs/B", "#/definitions/A", "#"]))}
    return prop


field_schema = sdk_field()


@st.composite
def subset_schemas(draw: st.DrawFn) -> dict[str, Any]:
    """An object schema of the spec's subset (fields may still be individually invalid)."""
    properties = draw(st.dictionaries(nasty_text, field_schema, max_size=6))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if draw(st.booleans()):  # what the local references point to (sometimes themselves)
        schema["$defs"] = {
            "A": draw(plain_field),
            "B": draw(st.sampled_from([{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}])),
        }
    names = list(properties)
    required: list[str] = draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    if required:
        schema["required"] = required
    return schema


@st.composite
def mutated_schemas(draw: st.DrawFn) -> Any:
    """A subset schema with one value somewhere replaced by junk (or a keyword added)."""
    schema = draw(subset_schemas())
    node: Any = schema
    path = draw(st.lists(st.integers(0, 10), max_size=4))
    for step in path:
        children = list(node.items()) if isinstance(node, dict) else []
        containers = [(k, v) for k, v in children if isinstance(v, dict | list)]
        if not containers:
            break
        key, child = containers[step % len(containers)]
        if isinstance(child, list):
            if not child:
                break
            node = child if not isinstance(child[0], dict) else child[step % len(child)]
            if isinstance(node, list):
                break
        else:
            node = child
    if isinstance(node, dict):
        key = draw(
            st.one_of(
                st.sampled_from(sorted(node) or ["type"]),
                st.sampled_from(["$ref", "allOf", "not", "if", "additionalProperties", "type"]),
            )
        )
        node[key] = draw(junk)
    return schema


any_schema = st.one_of(subset_schemas(), mutated_schemas(), junk)


def check_parsed(schema: Any) -> FormSpec | None:
    """Parse ``schema``: a form, or ``SchemaError`` with readable problems; nothing else."""
    try:
        form = parse_requested_schema(schema)
    except SchemaError as refusal:
        assert refusal.problems, "a refusal must say why"
        assert all(str(p).strip() for p in refusal.problems)
        return None
    assert isinstance(form, FormSpec)
    return form


# ---- schema parsing -----------------------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_schema)
def test_any_schema_is_a_form_or_a_refusal(schema: Any) -> None:
    event("refused" if check_parsed(schema) is None else "form")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_random_strings_as_schemas_are_refused_cleanly(text: str) -> None:
    assert check_parsed(text) is None


# ---- elicitation params through the session's bridge --------------------------------------------


class _Answer:
    """A handler that accepts every form with nothing filled in, and records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[ElicitationRequest] = []

    async def elicit(self, request: ElicitationRequest) -> ElicitationOutcome:
        self.asked.append(request)
        return ElicitationOutcome("accept" if request.mode == "form" else "decline", {})


url_like = st.builds(
    lambda scheme, sep, host, port, path: f"{scheme}{sep}{host}{port}{path}",
    st.sampled_from(["https", "http", "HTTPS", "javascript", "file", "data", "", "h\ttps"]),
    st.sampled_from(["://", ":", ":/", ":///", "://user:pw@", "://\\@"]),
    st.one_of(
        st.text(max_size=20),
        st.from_regex(
            r"[a-z0-9]{1,10}(\.[a-z0-9-]{1,10}){0,3}\.(com|org|co\.uk|xn--p1ai)", fullmatch=True
        ),
        st.sampled_from(
            [
                "example.com",
                "-127.0.0.1",
                "127.1",
                "2130706433",
                "[::1]",
                "[::ffff:127.0.0.1]",
                "xn--nxasmq6b",
                "ехаmple.com",
                "a..b",
                "." * 70,
                "a" * 300,
                "%65xample.com",
            ]
        ),
    ),
    st.one_of(st.just(""), st.integers(-5, 99999).map(lambda p: f":{p}"), st.just(":x")),
    st.one_of(st.just(""), st.text(max_size=20).map(lambda t: "/" + t)),
)


form_params = st.fixed_dictionaries(
    {"message": nasty_text, "requestedSchema": st.one_of(subset_schemas(), mutated_schemas())},
    optional={"mode": st.just("form"), "_meta": st.dictionaries(nasty_text, junk, max_size=2)},
)
url_required: dict[str, st.SearchStrategy[Any]] = {
    "message": nasty_text,
    "mode": st.just("url"),
    "url": url_like,
}
url_params = st.fixed_dictionaries(url_required, optional={"elicitationId": nasty_text})
junk_params = st.fixed_dictionaries(
    {},
    optional={
        "message": st.one_of(nasty_text, junk),
        "requestedSchema": any_schema,
        "mode": st.sampled_from(["form", "url", "bogus", None]),
        "url": st.one_of(nasty_text, junk),
        "elicitationId": st.one_of(nasty_text, junk),
    },
)
params_strategy = st.one_of(form_params, url_params, junk_params)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params_strategy, st.sampled_from([None, "2025-06-18", "2025-11-25"]))
def test_any_elicitation_params_get_a_clear_outcome(params: dict[str, Any], version: Any) -> None:
    refused_by_sdk = sdk_refusal(params, version)
    event("refused by the SDK" if refused_by_sdk is not None else "reached the bridge")
    if refused_by_sdk is not None:
        # The SDK answers -32602 itself; the tap shows these problems (``sdk_refusals``).
        assert refused_by_sdk and all(p.strip() for p in refused_by_sdk)
        return
    parsed = types.ElicitRequest.model_validate(
        {"method": "elicitation/create", "params": params}
    ).params
    events: list[SessionEvent] = []
    handler = _Answer()
    bridge = ElicitationBridge(
        "fuzz",
        handler=handler,
        sink=events.append,
        gate=ElicitationGate(max_requests=10_000, window=1.0),
        calls=CallTracker(),
        protocol_version=lambda: version,
    )
    context: Any = SimpleNamespace(request_id=1, meta=None)  # as the SDK's ClientRequestContext
    result = anyio.run(bridge, context, parsed)
    errors = [e.text for e in events if isinstance(e, Notice) and e.severity == "error"]
    assert not errors, errors  # the bridge's catch-all fired: a defect, not an outcome
    event(f"bridge: {getattr(result, 'action', None) or getattr(result, 'code', None)}")
    if isinstance(result, types.ErrorData):
        assert result.code == -32602 and result.message
        assert any(isinstance(e, ElicitationRefused) and e.problems for e in events)
    else:
        assert isinstance(result, types.ElicitResult)
        assert result.action in ("accept", "decline", "cancel")
        assert handler.asked, "an answer without asking the user"


# ---- form building (headless Pilot) -------------------------------------------------------------


class Host(App[None]):
    """Pushes one elicitation screen and keeps what it was dismissed with."""

    def __init__(self, request: ElicitationRequest) -> None:
        super().__init__()
        self.request = request
        self.outcomes: list[ElicitationOutcome | None] = []

    def on_mount(self) -> None:
        self.push_screen(ElicitationScreen(self.request), callback=self.outcomes.append)


async def _drive(form: FormSpec, message: str) -> None:
    request = ElicitationRequest(server="fuzz", message=message, mode="form", form=form)
    app = Host(request)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ElicitationScreen)
        await pilot.press("tab", "x", "space", "tab", "ctrl+s")
        await pilot.pause()
        if isinstance(app.screen, ElicitationScreen):  # not valid yet: the form says what to fix
            await pilot.press("escape")
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):  # something was typed: Escape asks first
                await pilot.press("y")
                await pilot.pause()
        assert not isinstance(app.screen, ElicitationScreen)
    assert len(app.outcomes) == 1
    outcome = app.outcomes[0]
    assert outcome is not None and outcome.action in ("accept", "cancel", "decline")
    for value in (outcome.content or {}).values():
        assert not (isinstance(value, float) and not math.isfinite(value))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(st.one_of(subset_schemas(), subset_schemas(), mutated_schemas()), nasty_text)
def test_every_parsed_form_can_be_built_and_answered(schema: Any, message: str) -> None:
    form = check_parsed(schema)
    event("refused" if form is None else "form built")
    if form is None:
        return
    anyio.run(_drive, form, message)


# ---- the URL check ------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(st.one_of(url_like, st.text(max_size=80)))
def test_any_url_gets_a_verdict(raw: str) -> None:
    verdict = check_url(raw)
    event("allowed" if verdict.allowed else "refused")
    assert isinstance(verdict, UrlVerdict)
    assert verdict.received == raw
    assert verdict.url == raw or (verdict.allowed and verdict.url == check_url(verdict.url).url)
    assert len(verdict.reasons) == len(verdict.reason_codes)
    assert len(verdict.warnings) == len(verdict.warning_codes)
    if verdict.allowed:
        assert not verdict.reasons and verdict.scheme in ("https", "http") and verdict.host
    else:
        assert verdict.reasons and all(r.strip() for r in verdict.reasons)


@pytest.mark.parametrize(
    "raw",
    ["https://-1.0", "https://+1.2", "https://1_0.0.0.1", "https://0x-1.1", "https://[::1]1"],
)
def test_hosts_that_broke_the_url_check_are_refused(raw: str) -> None:
    # Found by fuzzing: int("-1") made check_url build a negative IPv4 address and raise;
    # "[::1]1" was allowed with port 1.
    verdict = check_url(raw)
    assert not verdict.allowed and verdict.reasons


def test_the_strategies_reach_both_outcomes() -> None:
    """The fuzzers are not vacuous: forms and refusals, allowed and refused URLs all occur."""
    assert check_parsed({"type": "object", "properties": {"a": {"type": "string"}}}) is not None
    assert check_parsed({"type": "object", "properties": {"a": {"$ref": "#"}}}) is None
    assert check_url("https://example.com/x").allowed
    assert not check_url("javascript:alert(1)").allowed
    try:
        types.ElicitRequest.model_validate({"method": "elicitation/create", "params": {}})
    except ValidationError:
        pass
    else:
        raise AssertionError("empty params should not validate")
