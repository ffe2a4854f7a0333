"""A call made in the TUI written as a test case: "Save as a test" (``S``) and ``--record FILE``.

The call's record (:mod:`mcp_tui.ui.call_history`) becomes the pure
:class:`~mcp_tui.testbench.record.RecordedCall`: the answers given, as the answers-file entries
``mcp-tui test`` replays (a value typed into a field that looks like a secret becomes a ``${VAR}``
placeholder, read from the environment at run time), and what was seen, as the runner's own
:class:`~mcp_tui.testbench.observed.Observed` (the same text function, so the snapshot is what
the run compares). The case is appended with the test file's writer
(:func:`~mcp_tui.testbench.writer.append_case`); a new file gets its server table from the
server's spec: ``"demo"``, a ``command`` (with the ``cwd`` it ran in, relative to the file), or a
``url``; every ``env`` and header value as a ``${VAR}`` reference, never the value (they are
where tokens go).

No Textual: what the dialog and the app call.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mcp_tui.config.servers import HttpTarget, ServerSpec, StdioTarget
from mcp_tui.config.text import escape_variables
from mcp_tui.session.elicitation import ElicitationOutcome, ElicitationRequest
from mcp_tui.session.sampling import SamplingOutcome
from mcp_tui.session.server_exit import ended_under
from mcp_tui.testbench.observed import (
    Observed,
    SeenElicitation,
    SeenSampling,
    outcome_of,
    text_of,
)
from mcp_tui.testbench.record import (
    NotRecordable,
    RecordedCall,
    case_era,
    case_from_call,
    default_name,
    secret_variable,
)
from mcp_tui.ui.call_history import CallHistory, CallRecord

#: At most this many calls made before a saved one are offered as its setup (the latest).
SETUP_OFFERED = 10


def default_path(server: str) -> str:
    """``tests/mcp/<server>.mcptest.toml``, the server's name made a file name."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", server).strip("-.") or "server"
    return os.path.join("tests", "mcp", f"{safe}.mcptest.toml")


def case_name(record: CallRecord) -> str:
    """The default name of the case: the call and the answers given."""
    actions = [exchange.outcome.action for exchange in record.exchanges]
    return default_name(record.kind, record.name, actions)


def unfinished(record: CallRecord) -> str | None:
    """Why the call did not finish by itself, or ``None`` when its server ended it: the one
    rule for "Save as a test" and ``--record`` (such a call is never a case)."""
    outcome = record.outcome
    if outcome is None:
        return "it is still running"
    if record.interrupted is not None:
        return record.interrupted
    if outcome.cancelled:
        return "you cancelled it"
    if ended_under(outcome):  # the session's rule: a reconnect, a restart, the server lost
        return "its connection ended during it"
    return None


def recorded_call(
    record: CallRecord, notes: list[str], protocol_version: str | None = None
) -> RecordedCall:
    """The pure record of a finished call (``notes``: each secret replaced, and by what) made on
    the connection's ``protocol_version``."""
    outcome = record.outcome
    if outcome is None:
        raise NotRecordable("the call is still running: save it once it has finished")
    answers: list[dict[str, Any]] = []
    secret_fields: dict[int, dict[str, str]] = {}
    elicitations: list[SeenElicitation] = []
    sampling: list[SeenSampling] = []
    for exchange in record.exchanges:
        request, answer = exchange.request, exchange.outcome
        if isinstance(request, ElicitationRequest) and isinstance(answer, ElicitationOutcome):
            secret = _secret_fields(request, answer)
            if secret:
                secret_fields[len(answers)] = secret
            answers.append(_elicitation_answer(request, answer))
            elicitations.append(
                SeenElicitation(
                    mode=request.mode,
                    message=request.message,
                    schema=dict(request.form.schema) if request.form is not None else None,
                    url=request.url,
                    action=answer.action,
                    request_key=request.request_key,
                )
            )
        elif isinstance(answer, SamplingOutcome) and not isinstance(request, ElicitationRequest):
            answers.append(_sampling_answer(answer))
            sampling.append(
                SeenSampling(
                    message=request.message,
                    system_prompt=request.system_prompt,
                    max_tokens=request.max_tokens,
                    action=answer.action,
                    text=answer.text if answer.action == "accept" else None,
                    request_key=request.request_key,
                )
            )
    # The runner's rule (a call whose connection ended under it is not recorded: unfinished).
    kind = outcome_of(ended=ended_under(outcome), error=outcome.error, is_error=outcome.is_error)
    seen = Observed(
        outcome=kind,
        text=text_of(outcome),
        structured=outcome.structured,
        has_structured=outcome.structured is not None,
        error=outcome.error,
        error_code=outcome.error_code,
        elicitations=tuple(elicitations),
        sampling=tuple(sampling),
        seconds=record.seconds or 0.0,
    )
    return RecordedCall(
        kind=record.kind,
        target=record.name,
        arguments=dict(record.arguments),
        answers=answers,
        observed=seen,
        as_task=record.as_task,
        unfinished=unfinished(record),
        era=case_era(protocol_version),
        secret_fields=secret_fields,
    )


def _elicitation_answer(request: ElicitationRequest, outcome: ElicitationOutcome) -> dict[str, Any]:
    """The answer as it was sent (the recorder writes the secret fields' placeholders)."""
    if request.mode == "url":
        return {"action": outcome.action, "mode": "url"}
    if outcome.action != "accept" or outcome.content is None:
        return {"action": outcome.action}
    return {"action": "accept", "content": dict(outcome.content)}


def _secret_fields(request: ElicitationRequest, outcome: ElicitationOutcome) -> dict[str, str]:
    """The form's fields that look like a secret and hold what the person typed, each with the
    variable the case reads it from. A value that is the server's own default was not typed:
    it is the server's text, written as it was sent."""
    if request.form is None or outcome.content is None:
        return {}
    from mcp_tui.schema.secrets import looks_secret

    content = outcome.content
    return {
        f.name: secret_variable(f.name)
        for f in request.form.fields
        if looks_secret(f) and not (f.has_default and content.get(f.name) == f.default)
    }


def _sampling_answer(outcome: SamplingOutcome) -> dict[str, Any]:
    if outcome.action != "accept":
        return {"action": outcome.action, "mode": "sampling"}
    reply: dict[str, Any] = {"text": outcome.text, "model": outcome.model}
    reply["stopReason"] = outcome.stop_reason
    if outcome.tool_use is not None:
        reply["toolUse"] = {"name": outcome.tool_use.name, "input": dict(outcome.tool_use.input)}
    return {"sampling": reply}


def server_table(spec: ServerSpec, file: Path, notes: list[str]) -> str | dict[str, Any]:
    """The ``server`` of a new test file at ``file``, for the server ``spec`` describes.

    A spec's ``env`` and header values are written as ``${VAR}`` references, never as values:
    they are where tokens go, and a test file is committed. ``command`` and ``url`` are
    expanded by ``mcp-tui test``, so a ``${`` in them is written ``$${``."""
    target = spec.target
    if isinstance(target, StdioTarget):
        if target.args[:2] == ("-m", "mcp_tui.demo"):
            return "demo"
        command = target.command
        if command == sys.executable:
            command = "python"  # never this machine's path; the run's own python
        table: dict[str, Any] = {"command": [escape_variables(a) for a in (command, *target.args)]}
        ran_in = Path(target.cwd) if target.cwd else Path.cwd()
        cwd = os.path.relpath(ran_in.resolve(), file.parent.resolve())
        if cwd != ".":
            table["cwd"] = cwd
        if target.env:
            table["env"] = {key: f"${{{key}}}" for key in target.env}
            names = ", ".join(target.env)
            notes.append(
                f"the server's environment ({names}) is not written: each is read from the "
                "variable of its name (set them when you run mcp-tui test)"
            )
        return table
    assert isinstance(target, HttpTarget)
    table = {"url": escape_variables(target.url)}
    if target.transport != "streamable-http":
        table["transport"] = target.transport
    if target.headers:
        headers = {}
        for name in target.headers:
            variable = secret_variable(name)
            headers[name] = f"${{{variable}}}"
            notes.append(f"the {name} header is not written: it is read from ${{{variable}}}")
        table["headers"] = headers
    return table


def written_secrets(spec: ServerSpec) -> tuple[str, ...]:
    """What a file written from a session on ``spec``'s server never holds, however the server
    echoes it: the values its config's ``${VAR}``s took from the environment, and its header
    values (credentials, as they are and the part after a scheme: ``Bearer X``'s ``X``)."""
    found = list(spec.from_environment)
    if isinstance(spec.target, HttpTarget):
        for value in spec.target.headers.values():
            found.append(value)
            credential = value.strip().partition(" ")[2]
            if credential.strip():
                found.append(credential.strip())
    return tuple(dict.fromkeys(found))


def file_eras(spec: ServerSpec) -> list[str] | None:
    """A new file's ``eras``: the one era the server was pinned to, or the default (auto)."""
    if spec.mode == "legacy":
        return ["2025-11-25"]
    if spec.mode == "2026-07-28":
        return ["2026-07-28"]
    return None


def save_case(
    path: Path,
    record: CallRecord,
    spec: ServerSpec,
    name: str,
    protocol_version: str | None = None,
    setup: Sequence[CallRecord] = (),
) -> list[str]:
    """Append ``record`` as a case named ``name`` to the test file at ``path`` (created with its
    server table when new), on the era of ``protocol_version`` (the connection's), with the
    calls ``setup`` as its setup steps; what the person should know. :class:`NotRecordable` or
    ``TestFileError``/``OSError`` when nothing was written."""
    from mcp_tui.testbench.writer import append_case

    if not path.name.endswith((".mcptest.toml", ".mcptest.json")):
        raise NotRecordable(
            "name the file *.mcptest.toml (or *.mcptest.json): mcp-tui test finds those"
        )
    notes: list[str] = []
    call = recorded_call(record, notes, protocol_version)
    steps = [recorded_call(r, notes, protocol_version) for r in setup]
    toml = path.suffix.lower() != ".json"
    made = case_from_call(call, name, toml=toml, setup=steps, environment=written_secrets(spec))
    notes.extend(made.notes)
    new = not path.exists()
    server = server_table(spec, path, notes) if new else None
    eras = file_eras(spec) if new else None
    append_case(path, made.case, server=server, eras=eras, comments=made.comments)
    return notes


def setup_calls(history: CallHistory, record: CallRecord) -> list[CallRecord]:
    """The calls "Save as a test" offers as ``record``'s setup: those made before it on the
    same connection to its server (the state it ran in) that finished by themselves and
    succeeded (one that failed made nothing, and as a step would fail), the last
    :data:`SETUP_OFFERED`."""
    made = [
        r
        for r in history.made_before(record)
        if unfinished(r) is None
        and r.outcome is not None
        and r.outcome.error is None
        and not r.outcome.is_error
    ]
    return made[-SETUP_OFFERED:]


def setup_line(record: CallRecord) -> str:
    """ "#3 create_item {"name": "draft"} · 1 answer (accept)": a setup call, as the dialog lists
    it (what will be written: the call, its arguments, the answers given)."""
    from mcp_tui.untrusted import one_line

    what = {"tool": "", "prompt": "prompt ", "resource": "read "}[record.kind]
    line = f"#{record.call_id} {what}{one_line(record.name, limit=60)}"
    if record.arguments:
        line += " " + one_line(json.dumps(record.arguments, ensure_ascii=False), limit=60)
    actions = [exchange.outcome.action for exchange in record.exchanges]
    if actions:
        count = len(actions)
        line += f" · {count} answer{'s' if count != 1 else ''} ({', '.join(actions)})"
    return line


def summary(record: CallRecord) -> str:
    """What the dialog says will be written (two lines at 80 columns)."""
    actions = [exchange.outcome.action for exchange in record.exchanges]
    count = len(actions)
    given = f"your {count} answer{'s' if count != 1 else ''} ({', '.join(actions)})"
    return (
        f"#{record.call_id}: its arguments" + (f", {given}" if actions else "") + "; checks the "
        "outcome, text, structured content and each request's message and schema as snapshots."
    )
