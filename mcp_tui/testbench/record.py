"""A call someone made by hand, turned into a test case: "Save as a test" and ``--record``.

What the person did becomes the case's input: the call and its arguments, and the answers they
gave to each form and sampling request, in order (answers-file entries, the one engine
``mcp-tui test`` and ``mcp-tui call --answers`` share). What came back becomes its expectations,
as snapshots: the outcome (and error code), the result's text, the ``structuredContent``, each
elicitation request (mode, message, the ``requestedSchema``, the action given, a URL's host) and
each sampling request, with their counts so that one more request fails the case too. The case
then passes against the same server at once, and fails with a diff when its behaviour changes;
``mcp-tui test --update`` takes a new answer as the new snapshot. A snapshot holding a value
that changes per run (an id after ``#``, a UUID, a timestamp, a request id: ``volatile.py``) is
written as a regex with the rest of it exact, with a comment saying so.

Four things are never written as they were: a value typed into a field that looks like a
secret (the caller names those fields; the case gets a ``${VAR}`` placeholder the run fills in
from the environment, and a snapshot the server echoed the value into is left out); a value the
server was given from the environment (its config's ``${VAR}``s, its headers) wherever the server
echoes it (a snapshot or an answer's field holding one is left out, and a call whose name or
arguments hold one is not recorded); a ``${`` in
an answer's content (``mcp-tui test`` expands those, so a server's ``${API_TOKEN}`` default
accepted as shown is written ``$${API_TOKEN}`` and replays as the literal it was, never as the
CI's secret); and a JSON ``null``, which TOML cannot hold (a snapshot holding one is left out,
with a note; an argument or answer holding one makes the case JSON-only).

The calls made just before it on the same server may be written as the case's ``setup`` (the
person chooses): each as a step, what was sent and answered, its result not checked, so a
destructive case (delete) replays against the state those calls made.

Pure: plain data in, a ``[[case]]`` dict and notes out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

from msgspec import Struct, field

from mcp_tui.config.text import escape_variables, format_key_path
from mcp_tui.testbench.observed import Observed
from mcp_tui.testbench.redact import Redactor
from mcp_tui.testbench.volatile import loosen

CallKind = Literal["tool", "prompt", "resource"]


class NotRecordable(Exception):
    """The call cannot be a test case (the message says why, for the person)."""


class RecordedCall(Struct, frozen=True):
    """A finished call: what was sent, the answers given (answers-file entries, in order, their
    ``content`` exactly as sent) and what was seen."""

    kind: CallKind
    target: str
    arguments: dict[str, Any]
    answers: list[dict[str, Any]]
    observed: Observed
    as_task: bool = False
    #: Why the call did not finish by itself (the person cancelled it, mcp-tui quit under it,
    #: its connection ended): its outcome says when it was stopped, not what the server does.
    unfinished: str | None = None
    #: The era the call was made on (:func:`case_era`), written as the case's ``eras``: a
    #: ``ctx.elicit()`` tool works on 2025-11-25 only, and a run of both eras would fail it.
    era: str | None = None
    #: The fields of an answer's content that looked like a secret, by answer index: field ->
    #: the environment variable the case reads it from instead (``secret_variable``).
    secret_fields: dict[int, dict[str, str]] = field(default_factory=dict)


class RecordedCase(Struct, frozen=True):
    """The ``[[case]]`` to append, and what the person should know about it."""

    case: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    #: Comments for the file, by key path under the case (a snapshot written as a regex because
    #: it changes per run, ``volatile.py``).
    comments: dict[tuple[str | int, ...], str] = field(default_factory=dict)


def case_from_call(
    call: RecordedCall,
    name: str,
    *,
    toml: bool = True,
    setup: Sequence[RecordedCall] = (),
    environment: Sequence[str] = (),
) -> RecordedCase:
    """The case for ``call``, named ``name``; :class:`NotRecordable` when it cannot be one.

    ``toml``: the file is TOML (no ``null`` anywhere); JSON files can hold everything.
    ``setup``: calls made before it, written as its setup steps (their results not checked).
    ``environment``: values the server was given from the environment (its config's
    ``${VAR}``s, its headers): none is written, wherever the server echoed it.
    """
    if call.unfinished is not None:
        raise NotRecordable(
            f"it did not finish by itself ({call.unfinished}); its outcome says when it was "
            "stopped, not what the server does"
        )
    if call.observed.outcome == "answer_refused":
        raise NotRecordable("an answer to this call was refused: nothing to replay")
    notes: list[str] = []
    if toml and (_has_null(call.arguments) or _has_null(call.answers)):
        raise NotRecordable(
            "the call's arguments or answers hold null, which TOML cannot write: save it to a "
            ".mcptest.json file instead"
        )
    typed: list[str] = []
    hidden = Hidden(Redactor(environment))
    keys = _call_keys(call, notes, typed, hidden)
    answers = keys.pop("answers", None)
    case: dict[str, Any] = {"name": name, **keys}
    if call.era is not None:
        case["eras"] = [call.era]
    if answers:
        case["answers"] = answers
    if setup:
        case["setup"] = [_setup_step(step, notes, typed, hidden, toml=toml) for step in setup]
    case["expect"] = expectations(
        call.observed, notes, toml=toml, secrets=typed, environment=environment
    )
    comments = loosen(case["expect"], call.observed)
    notes += [f"{format_key_path(key)}: {why}" for key, why in comments.items()]
    return RecordedCase(case, notes, comments)


class Hidden:
    """Values from the environment a case must not hold (:func:`case_from_call`)."""

    def __init__(self, redactor: Redactor) -> None:
        self.finds = redactor.finds

    def refuse(self, call: RecordedCall) -> None:
        """:class:`NotRecordable` when the call's name or arguments hold one: they are what
        the case sends, and a test file never holds a secret."""
        what = {"tool": "tool's name", "prompt": "prompt's name", "resource": "resource's URI"}
        if self.finds(call.target):
            raise NotRecordable(
                f"the {what[call.kind]} holds a value taken from the environment (the "
                "server's config gave it to the server): a test file never holds one"
            )
        if self.finds(call.arguments):
            raise NotRecordable(
                "its arguments hold a value taken from the environment (the server's config "
                "gave it to the server): a test file never holds one"
            )


def _call_keys(
    call: RecordedCall, notes: list[str], typed: list[str], hidden: Hidden
) -> dict[str, Any]:
    """What a case or a step sends: the call, its arguments, its answers (secrets left out)."""
    hidden.refuse(call)
    keys: dict[str, Any] = {call.kind: call.target}
    if call.arguments:
        keys["arguments"] = call.arguments
    if call.as_task:
        keys["task"] = True
    if call.answers:
        keys["answers"] = [
            _answer(answer, call.secret_fields.get(i, {}), notes, typed, hidden)
            for i, answer in enumerate(call.answers)
        ]
    return keys


def _setup_step(
    call: RecordedCall, notes: list[str], typed: list[str], hidden: Hidden, *, toml: bool
) -> dict[str, Any]:
    """A call made before the case's, as one of its setup steps: what was sent and answered,
    not what came back (a step fails only when its call does)."""
    what = f"the setup call {call.kind} {call.target}"
    if call.unfinished is not None:
        raise NotRecordable(f"{what} did not finish by itself ({call.unfinished})")
    if call.observed.outcome != "ok":
        raise NotRecordable(f"{what} ended {call.observed.outcome}: as a step it would fail")
    if toml and (_has_null(call.arguments) or _has_null(call.answers)):
        raise NotRecordable(
            f"{what}'s arguments or answers hold null, which TOML cannot write: save it to a "
            ".mcptest.json file instead"
        )
    return _call_keys(call, notes, typed, hidden)


def _answer(
    answer: dict[str, Any],
    secret: dict[str, str],
    notes: list[str],
    typed: list[str],
    hidden: Hidden,
) -> dict[str, Any]:
    """An answer as the case writes it: ``mcp-tui test`` expands ``${VAR}`` in its content, so
    every ``${`` that was sent (a server's default accepted as shown, a value typed) is written
    ``$${`` and replays byte for byte; a secret field's value is not written at all, but the
    ``${VAR}`` it is read from (``typed``: the values left out); a field holding a value from
    the environment is left out (the replay fills it from the form's default, where the server
    put it)."""
    content = answer.get("content")
    if not isinstance(content, dict):
        return answer
    written: dict[str, Any] = {}
    for key, value in content.items():
        variable = secret.get(key)
        if hidden.finds(value):
            notes.append(
                f"{key!r} is left out of the answer: it holds a value taken from the "
                "environment (the replay fills it from the form's default)"
            )
        elif variable is not None and isinstance(value, str) and value:
            typed.append(value)
            written[key] = f"${{{variable}}}"
            notes.append(
                f"what you typed into {key!r} is not written: the case reads it from "
                f"${{{variable}}} (set it when you run mcp-tui test)"
            )
        else:
            written[key] = _escaped(value)
    return {**answer, "content": written}


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return escape_variables(value)
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    return value


def expectations(
    seen: Observed,
    notes: list[str],
    *,
    toml: bool = True,
    secrets: Sequence[str] = (),
    environment: Sequence[str] = (),
) -> dict[str, Any]:
    """What the call did, as ``expect`` keys (notes: the snapshots left out, and why).

    ``secrets``: values typed into secret-looking fields; ``environment``: values the server was
    given from the environment; a snapshot the server echoed one into is left out (a test file
    never holds a secret)."""
    expect: dict[str, Any] = {"outcome": seen.outcome}
    holds = Redactor(secrets).finds
    from_environment = Redactor(environment).finds

    def snapshot(what: str, value: Any) -> bool:
        if holds(value):
            notes.append(f"{what} holds what you typed into a secret field: it is not checked")
            return False
        if from_environment(value):
            notes.append(f"{what} holds a value taken from the environment: it is not checked")
            return False
        return True

    if seen.outcome == "error" and seen.error_code is not None:
        expect["error_code"] = seen.error_code
    if seen.outcome in ("ok", "tool_error"):
        if snapshot("the result's text", seen.text):
            expect["text"] = seen.text
        if seen.has_structured:
            if toml and _has_null(seen.structured):
                notes.append(
                    "the structuredContent holds null, which TOML cannot write: it is not "
                    "checked (a .mcptest.json file can)"
                )
            elif snapshot("the structuredContent", seen.structured):
                expect["structured"] = seen.structured
    expect["elicitation_count"] = len(seen.elicitations)
    if seen.elicitations:
        requests = []
        for number, request in enumerate(seen.elicitations, start=1):
            one: dict[str, Any] = {"mode": request.mode}
            if snapshot(f"elicitation request #{number}'s message", request.message):
                one["message"] = request.message
            if request.schema is not None:
                if toml and _has_null(request.schema):
                    notes.append(
                        "a requestedSchema holds null, which TOML cannot write: it is not checked"
                    )
                elif snapshot(f"elicitation request #{number}'s schema", request.schema):
                    one["schema"] = request.schema
            if request.url is not None:
                start = url_start(request.url)
                if snapshot(f"elicitation request #{number}'s URL", start):
                    one["url_regex"] = start
            one["action"] = request.action
            requests.append(one)
        expect["elicitations"] = requests
    expect["sampling_count"] = len(seen.sampling)
    if seen.sampling:
        sampling = []
        for number, s in enumerate(seen.sampling, start=1):
            one = {"max_tokens": s.max_tokens, "action": s.action}
            if snapshot(f"sampling request #{number}'s message", s.message):
                one = {"message": s.message, **one}
            sampling.append(one)
        expect["sampling"] = sampling
    return expect


def case_era(protocol_version: str | None) -> str | None:
    """The test file's era for a negotiated protocol version: ``2026-07-28`` for that era, and
    ``2025-11-25`` for every ``initialize``-era version (the era an ``initialize`` handshake
    gives, whichever version the server then answers with)."""
    if protocol_version is None:
        return None
    return "2026-07-28" if protocol_version >= "2026-07-28" else "2025-11-25"


def url_start(url: str) -> str:
    """A regex for the URL's scheme and host: a URL-mode request's address usually carries a
    fresh id or state on each run, and a local page a fresh port (the demo's does), its host
    does not."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname:
        return "^" + re.escape(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    if parts.port is not None:
        host = host[: host.rfind(":")]
    return "^" + re.escape(f"{parts.scheme}://{host}") + "(:[0-9]+)?(/|$|\\?|#)"


def default_name(kind: CallKind, target: str, actions: Sequence[str]) -> str:
    """``book_table: accept, decline`` (the answers given), or ``book_table``."""
    what = {"tool": "", "prompt": "prompt ", "resource": "read "}[kind]
    return f"{what}{target}" + (f": {', '.join(actions)}" if actions else "")


def secret_variable(field_name: str) -> str:
    """The environment variable a secret field's value is read from at run time: ``API_KEY``
    for ``api_key`` or ``apiKey``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", field_name)
    name = re.sub(r"[^A-Za-z0-9]+", "_", spaced).strip("_").upper() or "SECRET"
    return name if not name[0].isdigit() else f"_{name}"


def _has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_null(v) for v in value)
    return False
